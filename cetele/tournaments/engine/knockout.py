"""The knock-out: the bracket from the groups' tables, who goes through, the next round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cetele.tournaments.engine.sides import SideId, TournamentError, distinct
from cetele.tournaments.engine.standings import Outcome, PairingResult


@dataclass(frozen=True)
class KnockoutPairing:
    """A knock-out pairing; `a` is the better seed (smaller seed number). b None: a bye."""

    a: SideId
    b: SideId | None
    seed_a: int
    seed_b: int | None


def _bracket_order(size: int) -> list[int]:
    """Seed numbers by place in a standard bracket: 1, 8, 4, 5, 2, 7, 3, 6 for eight."""
    order = [1]
    while len(order) < size:
        double = 2 * len(order)
        order = [seed for top in order for seed in (top, double + 1 - top)]
    return order


def knockout_bracket(
    group_standings: Sequence[Sequence[SideId]], advance: int = 2
) -> tuple[KnockoutPairing, ...]:
    """The knock-out's first round from each group's finishing order (groups in order A, B, …)."""
    if advance < 1:
        raise TournamentError("advance", "at least one side per group goes through")
    ranks = [
        [(g, order[r]) for g, order in enumerate(group_standings) if r < len(order)]
        for r in range(advance)
    ]
    qualifiers = [side for rank in ranks for _, side in rank]
    distinct(qualifiers, "qualifiers")
    if len(qualifiers) < 2:
        raise TournamentError("too_few", "a knock-out needs at least two sides")
    size = 1 << (len(qualifiers) - 1).bit_length()
    order = _bracket_order(size)
    place_of_seed = {seed: place for place, seed in enumerate(order)}
    side_at: dict[int, SideId] = {}
    group_places: dict[int, list[int]] = {}
    next_seed = 1
    for rank in ranks:
        free = list(range(next_seed, next_seed + len(rank)))
        next_seed += len(rank)
        for group, side in rank:
            placed = group_places.setdefault(group, [])

            def lateness(seed: int, placed: list[int] = placed) -> tuple[int, int]:
                place = place_of_seed[seed]
                meets = min(((place ^ p).bit_length() for p in placed), default=size.bit_length())
                return (meets, -seed)

            seed = max(free, key=lateness)
            free.remove(seed)
            side_at[place_of_seed[seed]] = side
            placed.append(place_of_seed[seed])
    pairings = []
    for place in range(0, size, 2):
        first, second = sorted((order[place], order[place + 1]))
        a = side_at[place_of_seed[first]]
        b = side_at.get(place_of_seed[second])
        pairings.append(KnockoutPairing(a, b, first, None if b is None else second))
    return tuple(pairings)


def knockout_winner(pairing: KnockoutPairing, result: PairingResult | None) -> SideId:
    """Who goes through: the pairing's winner; if level, better averaj, then the better seed."""
    if pairing.b is None:
        return pairing.a
    if result is None or not result.finished:
        raise TournamentError("not_finished", "the pairing is not finished")
    if result.outcome == Outcome.B or (result.outcome == Outcome.LEVEL and result.averaj_a < 0):
        return pairing.b
    return pairing.a


def next_knockout_round(
    pairings: Sequence[KnockoutPairing], winners: Sequence[SideId]
) -> tuple[KnockoutPairing, ...]:
    """The next round from this one's winners, in order; () after the final."""
    if len(winners) != len(pairings):
        raise TournamentError("winners", "one winner for each pairing")
    seeded = []
    for pairing, winner in zip(pairings, winners, strict=True):
        if winner == pairing.a:
            seeded.append((pairing.seed_a, winner))
        elif winner == pairing.b and pairing.seed_b is not None:
            seeded.append((pairing.seed_b, winner))
        else:
            raise TournamentError("winners", "a winner must be one of its pairing's sides")
    if len(seeded) == 1:
        return ()
    if len(seeded) % 2:
        raise TournamentError("winners", "a knock-out round has an even number of pairings")
    next_round = []
    for index in range(0, len(seeded), 2):
        (seed_a, a), (seed_b, b) = sorted(seeded[index : index + 2])
        next_round.append(KnockoutPairing(a, b, seed_a, seed_b))
    return tuple(next_round)
