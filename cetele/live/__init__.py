"""The speed layer, at the edge: the live poll (its schedule, and the "nothing changed" answer
given before Django, `fastpoll`) and the one way a drawing is kept once drawn (`kept`). What is
drawn is its concept's (the sheet: cetele.matches.sheet; the rows: cetele.seats.rows)."""
