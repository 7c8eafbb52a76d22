"""The hand form: what a player taps after a hand, and how it becomes the engine's HAND object."""
