"""The deal: who deals each hand (dağıtan) and the indicator turned up after it (gösterge)."""
