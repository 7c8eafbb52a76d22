"""Tek: rounds of four players at a table, their place points and the tek table."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from cetele.tournaments.engine.sides import (
    SideId,
    TournamentError,
    distinct,
    is_int,
    ordered,
    shuffled,
)
from cetele.tournaments.engine.spec import TABLE_SEATS

_RESTARTS = 12


@dataclass(frozen=True)
class TekRound:
    number: int  # 1-based, counting rounds already played
    tables: tuple[tuple[SideId, ...], ...]  # four players each
    sitting_out: tuple[SideId, ...]


def _seat(order: list[int], weight: list[list[int]]) -> tuple[int, list[list[int]]]:
    """Greedy tables from `order` (player indices), then swaps between tables while one lowers
    the summed weight of the pairs seated together."""
    pool = list(order)
    tables: list[list[int]] = []
    while pool:
        table = [pool.pop(0)]
        while len(table) < TABLE_SEATS:
            added = [sum(weight[p][q] for q in table) for p in pool]
            table.append(pool.pop(added.index(min(added))))
        tables.append(table)
    improved = True
    while improved:
        improved = False
        for first, second in combinations(tables, 2):
            for i in range(TABLE_SEATS):
                for j in range(TABLE_SEATS):
                    x, y = first[i], second[j]
                    change = sum(weight[y][q] - weight[x][q] for q in first if q != x) + sum(
                        weight[x][q] - weight[y][q] for q in second if q != y
                    )
                    if change < 0:
                        first[i], second[j] = y, x
                        improved = True
    total = sum(weight[a][b] for table in tables for a, b in combinations(table, 2))
    return total, tables


def tek_rounds(
    players: Sequence[SideId], rounds: int, seed: int = 0, played: Sequence[TekRound] = ()
) -> tuple[TekRound, ...]:
    """`rounds` more rounds of four-player tables, meeting as many new opponents as possible."""
    listed = distinct(players, "players")
    if len(listed) < TABLE_SEATS:
        raise TournamentError("too_few", "tek needs at least four players")
    if rounds < 0:
        raise TournamentError("rounds", "the number of rounds cannot be negative")
    n = len(listed)
    position = {player: index for index, player in enumerate(listed)}
    met = [[0] * n for _ in range(n)]  # by index in `listed`: how often two players met
    sat_out = [0] * n
    for past in played:
        for table in past.tables:
            for a, b in combinations([position[p] for p in table if p in position], 2):
                met[a][b] += 1
                met[b][a] += 1
        # A round a player did not play counts as sat out, so a late entrant does not sit out
        # first: sitting out the rounds before they came, they have sat out the most.
        seated = {p for table in past.tables for p in table}
        for index, player in enumerate(listed):
            sat_out[index] += player not in seated
    # A pair that already met weighs more than any sum of squared repeats can: fewest repeated
    # pairs first, then the repeats spread (no pair meeting a third time while others are new).
    heavy = 6 * (n // TABLE_SEATS) * (len(played) + rounds) ** 2 + 1
    rng = random.Random(seed)
    drawn = []
    for number in range(len(played) + 1, len(played) + rounds + 1):
        shuffle = shuffled(range(n), rng)
        tie = {index: place for place, index in enumerate(shuffle)}
        resting = set(sorted(range(n), key=lambda i: (sat_out[i], tie[i]))[: n % TABLE_SEATS])
        seated = [index for index in shuffle if index not in resting]
        weight = [[heavy * (count > 0) + count * count for count in row] for row in met]
        best = _seat(seated, weight)
        for _ in range(_RESTARTS - 1):
            if best[0] == 0:  # nobody meets anyone again: nothing to improve
                break
            attempt = _seat(shuffled(seated, rng), weight)
            if attempt[0] < best[0]:
                best = attempt
        tables = sorted(sorted(table) for table in best[1])
        for table in tables:
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
        for index in resting:
            sat_out[index] += 1
        drawn.append(
            TekRound(
                number,
                tuple(tuple(listed[i] for i in table) for table in tables),
                tuple(listed[i] for i in sorted(resting)),
            )
        )
    return tuple(drawn)


@dataclass(frozen=True)
class TekRow:
    player: SideId
    rank: int
    points: Fraction
    played: int  # tables played
    byes: int  # rounds sat out
    averaj: int


def _check_place_points(place_points: Sequence[int]) -> None:
    if len(place_points) != TABLE_SEATS or not all(is_int(p) for p in place_points):
        raise TournamentError("place_points", "place points are four whole numbers")


def tek_place_points(
    totals: Mapping[SideId, int], place_points: Sequence[int] = (3, 2, 1, 0)
) -> dict[SideId, Fraction]:
    """Each player's place points at one table (lowest total first); equal totals share."""
    _check_place_points(place_points)
    if len(totals) != TABLE_SEATS or not all(is_int(t) for t in totals.values()):
        raise TournamentError("table_totals", "a table has four players, each with a total")
    values = sorted(totals.values())
    shares = {}
    for total in set(values):
        first = values.index(total)
        covered = place_points[first : first + values.count(total)]
        shares[total] = Fraction(sum(covered), len(covered))
    return {player: shares[total] for player, total in totals.items()}


def tek_standings(
    players: Sequence[SideId],
    games: Iterable[Mapping[SideId, int]],
    place_points: Sequence[int] = (3, 2, 1, 0),
    byes: Iterable[SideId] = (),
) -> tuple[TekRow, ...]:
    """The tek table: place points, averaj, head to head, then the smaller id."""
    listed = distinct(players, "players")
    _check_place_points(place_points)
    tables = [dict(game) for game in games]
    known = set(listed)
    points = dict.fromkeys(listed, Fraction(0))
    played = dict.fromkeys(listed, 0)
    averaj = dict.fromkeys(listed, 0)
    sat_out = dict.fromkeys(listed, 0)
    for table in tables:
        if not set(table) <= known:
            raise TournamentError("unknown_player", "a table names a player not in the list")
        whole = sum(table.values())
        for player, share in tek_place_points(table, place_points).items():
            points[player] += share
            played[player] += 1
            averaj[player] += whole - TABLE_SEATS * table[player]
    bye_points = Fraction(sum(place_points), TABLE_SEATS)
    for player in byes:
        if player not in known:
            raise TournamentError("unknown_player", "a bye names a player not in the list")
        points[player] += bye_points
        sat_out[player] += 1

    def head_to_head(tied: frozenset[SideId]) -> dict[SideId, tuple]:
        score = dict.fromkeys(tied, 0)
        for table in tables:
            for x, y in combinations([p for p in table if p in tied], 2):
                # wins minus losses, so a draw counts the same as not having met
                score[x] += (table[x] < table[y]) - (table[x] > table[y])
                score[y] += (table[y] < table[x]) - (table[y] > table[x])
        return {player: (score[player],) for player in tied}

    overall = {player: (points[player], averaj[player]) for player in listed}
    return tuple(
        TekRow(player, rank, points[player], played[player], sat_out[player], averaj[player])
        for rank, player in enumerate(ordered(listed, overall, head_to_head), start=1)
    )
