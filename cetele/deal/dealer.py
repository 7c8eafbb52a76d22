"""Who deals each hand (dağıtan): the first dealer, then the next player in seat order.

No hand stores its dealer: hand n's is the first dealer moved on n − 1 seats, so a deleted or
corrected hand never leaves the dealers out of step with the table's places.
"""


def dealer_seat(first_dealer: int, position: int, seats: int) -> int:
    """The seat that deals the hand at `position` (1-based)."""
    return (first_dealer + position - 1) % seats


def dealer_of(match, players: list, position: int):
    """The player who deals the hand at `position` of `match` (players in seat order); None for
    a match without players (none is ever started so, but a database may hold one)."""
    if not players:
        return None
    return players[dealer_seat(match.first_dealer, position, len(players))]
