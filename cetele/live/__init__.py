"""The speed layer, in one place: the live poll (its schedule, and the "nothing changed" answer
given before Django, `fastpoll`) and the sheet drawn once per version (`board`)."""
