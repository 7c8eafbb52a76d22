"""A café tournament of 101 Okey: the draw, the schedule, pairings, standings and the knock-out.

Plain Python, standard library only, no Django and no I/O: the functional core a Django shell
(models, views) calls. Everything here is a pure function of its arguments: the shell stores the
entrants, the draw's seed and the game totals, and asks again whenever it needs a table, a
schedule or a bracket. Sides (a team of two, or a player) are named by stable ids (an int or a
str, e.g. a database key), never by their names.

Typed API
    TournamentSpec(kind, layout, hands_per_game, games_per_pairing, group_size, advance, points,
                   place_points, rounds, tables)            the settings, checked when built
    draw_groups(entrants, group_size, seed=None) -> (Group(name, sides), ...)
    round_robin(sides, played=()) -> (Round(number, pairings, sitting_out), ...)
    group_schedule(groups, tables=None) -> ((AtTable(GroupPairing), ...) per round)
    assign_tables(items, tables=None) -> (AtTable(item, table, wave), ...)
    pairing_result(games, games_per_pairing=3) -> PairingResult
    standings(sides, results, points=Points()) -> (StandingRow, ...)
    knockout_bracket(group_standings, advance=2) -> (KnockoutPairing, ...)    the first round
    knockout_winner(pairing, result) -> side id
    next_knockout_round(pairings, winners) -> (KnockoutPairing, ...)          () after the final
    tek_rounds(players, rounds, seed=0, played=()) -> (TekRound(number, tables, sitting_out), ...)
    tek_place_points(totals, place_points=(3, 2, 1, 0)) -> {player: Fraction}
    tek_standings(players, games, place_points=(3, 2, 1, 0), byes=()) -> (TekRow, ...)
    TournamentError(ValueError)       .code (English, stable) and an English message: the shell's
                                      forms validate what users type; this is the last guard

Words
    A *game* is N hands (hands_per_game, default 11) played by two teams (eşli) at one table, or
    by four players (tek). Lower totals win (101: the lowest total wins). A *pairing* (eşli) is
    the meeting of two teams: one game, or the best of three. Nothing here scores hands: the
    shell sums a game's hands (scoring's team_scores) and passes the game totals; the spec
    carries hands_per_game for it. A league is round_robin over all entrants, then standings;
    it has no knock-out.

Averaj
    For one game, a side's averaj is the opponent's total minus its own, so a positive averaj is
    good (lower totals win); a side's averaj is the sum over its games. A drawn game (equal
    totals) adds 0. Tek: a player's averaj at a table is the sum, over the three others, of
    (their total − own total) = the others' totals − 3 × own total; a table's averajs sum to 0.

What the issue leaves open — what this module decided
 1. Game points: a won game is 1 game point, a drawn game ½ to each side. A pairing is won by the
    side holding more than half of its games' game points (2 of 3: "üç oyundan iki oyun alan
    takım galip sayılır"; 1 of 1), and it ends as soon as a side has them, or after its last
    game. So a best of three ends after two games at 2–0, and after three games otherwise; with
    drawn games, the side that won more games wins (win, draw, draw → won), and equal wins (one
    each and a draw; three draws) make a *level* pairing. Equivalently: decided exactly when
    2 × wins + draws > games_per_pairing. A game entered after the pairing ended is refused.
 2. A level pairing is a drawn pairing in a league or a group (draw points to both). In the
    knock-out it goes to the side with the better averaj over the pairing's games, and when that
    is equal too (always so for a drawn one-game pairing) to the better seed — the side listed
    first (`a`) of a KnockoutPairing, with the smaller seed number: group winners hold seeds
    1..g, runners-up the next ones, and so on (see 9). No extra game is played; a shell that
    wants one can record the winner itself (next_knockout_round takes winners, not results).
 3. Only finished pairings count in standings; a pairing still being played counts nothing.
 4. League table points: win 2, draw 1, loss 0 by default (Points, editable; win ≥ draw ≥ loss).
    Standings order: points, then averaj, then head to head among exactly the sides still tied
    (points, then averaj, over the pairings between them only; applied again to any smaller set
    it leaves tied), then the last resort: the smaller side id first (ids are compared as ints or
    as strings, never mixed; a database key makes it "registered first"). Ranks are 1..n with
    no shared rank, and the order does not depend on the order of the arguments.
 5. Draw: the number of groups is ceil(entrants / group_size), so sizes differ by at most one.
    Without a seed the entrants' order is the seeding and they are dealt in snake order (A, B,
    …, then back …, B, A); with a seed they are first shuffled with random.Random(seed), by a
    Fisher–Yates shuffle written here on Random.random() (whose sequence Python keeps stable
    across versions, unlike shuffle's), then dealt the same way. Groups are named A, B, C, …
    (at most 26).
 6. Round robin: the circle method (the first side fixed, the others turning); an odd number of
    sides gets a bye, one side sitting out each round. The fixed side is listed first in odd
    rounds and second in even ones. With `played`, pairings already played are left out and
    the rest are packed first-fit into rounds in circle order; with nothing played this is the
    plain circle schedule.
 7. Late entrant or withdrawal before a round starts: the shell calls round_robin again with
    the entrants as they now are and the pairings already played, and replaces the rounds not
    started. A withdrawn side's unplayed pairings are removed (not forfeits: nobody gets points
    for them); its finished pairings stay in the standings, for it and for its opponents, so it
    stays in `sides` for standings. In the knock-out its opponent goes through (the shell
    passes that winner to next_knockout_round).
 8. Tables: a round's pairings (or tek tables) are numbered 1..tables in order; with more of
    them than tables, the rest play in later waves of the same round (item i → table
    i mod tables + 1, wave i div tables + 1). tables=None means as many tables as needed. A
    best of three stays at its table for all its games. group_schedule lists round k of every
    group (A's pairings, then B's, …) as the tournament's round k.
 9. Knock-out seeding: from each group its first `advance` sides (fewer if the group is
    smaller). Group winners get seeds 1..g in group order (A1, B1, …); a standard bracket
    (1 v n, …, byes to the top seeds when the number of qualifiers is not a power of two) fixes
    their places. Lower finishers are placed rank by rank, group by group, each into the free
    place of its rank where it would meet a side of its own group as late as possible (ties:
    the better seed number). Two groups give A1–B2 and B1–A2; four give group winners against
    runners-up of other groups, each group's two in opposite halves.
10. Tek: only the tek_rounds layout (four players at a table, one game each round); eşli plays
    groups or a league. Each round's tables are chosen to meet as many new opponents as
    possible: fewest pairs of players who already met, then the least repeated meetings
    (sum of squares), by greedy filling and swaps between tables, from a few shuffled starts
    drawn from random.Random(seed) — deterministic for a seed, and not guaranteed optimal for
    large fields (it is for 8 players over three rounds: everyone meets all seven others).
    When the number of players is not a multiple of four, the remainder sit out that round:
    those who sat out least, ties by the round's shuffle; a round already played counts as sat
    out for everyone not at one of its tables (a late entrant's missed rounds too). Players are
    listed at a table in the order of `players`; tables by their first player. To re-draw
    after a late entry or a withdrawal, call tek_rounds with the players as they now are and
    the rounds played: meetings and sit-outs of those rounds count.
11. Tek points: places 3/2/1/0 by default (editable, four numbers). Players with equal totals at
    a table share the points of the places they cover, averaged: two tied for second with
    (3, 2, 1, 0) get (2 + 1) / 2 = 3/2 each, hence Fractions (an int when whole). A round sat
    out scores the average of the place points (3/2 by default) and 0 averaj, and is counted
    in `byes`, not in `played`. Byes are what the shell passes (each round's sitting_out); a
    late entrant's missed rounds score nothing unless the shell passes them as byes.
12. Tek standings order: points, averaj, head to head among exactly the tied players (at each
    table where two of them sat together, the lower total counts +1 and the higher −1, equal
    totals 0, so a draw weighs the same as not having met), then the smaller player id, as in 4.
"""

from __future__ import annotations

import random
import string
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from fractions import Fraction
from itertools import combinations
from typing import Generic, TypeVar

SideId = int | str
T = TypeVar("T")


class TournamentError(ValueError):
    """A tournament's input that cannot be used: `code` says which rule it breaks."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# --- Settings ----------------------------------------------------------------------------------


class Kind(StrEnum):
    """Teams of two (eşli) or single players (tek)."""

    ESLI = "esli"
    TEK = "tek"


class Layout(StrEnum):
    """How the tournament is played."""

    GROUPS = "groups"  # round robin in groups, then a knock-out
    LEAGUE = "league"  # everyone once
    TEK_ROUNDS = "tek_rounds"  # tek: rounds of four players at a table


@dataclass(frozen=True)
class Points:
    """League table points for a pairing won, drawn (level) and lost."""

    win: int = 2
    draw: int = 1
    loss: int = 0


DEFAULT_POINTS = Points()
TABLE_SEATS = 4


@dataclass(frozen=True)
class TournamentSpec:
    """A tournament's settings; every one has the issue's default."""

    kind: Kind = Kind.ESLI
    layout: Layout = Layout.GROUPS
    hands_per_game: int = 11
    games_per_pairing: int = 3
    group_size: int = 4
    advance: int = 2
    points: Points = DEFAULT_POINTS
    place_points: tuple[int, ...] = (3, 2, 1, 0)
    rounds: int = 3  # tek rounds
    tables: int | None = None  # None: as many as a round needs

    def __post_init__(self) -> None:
        problems = [
            (
                (self.kind == Kind.TEK) == (self.layout == Layout.TEK_ROUNDS),
                "kind_layout",
                "tek plays tek_rounds; eşli plays groups or a league",
            ),
            (self.hands_per_game >= 1, "hands_per_game", "a game has at least one hand"),
            (self.games_per_pairing in (1, 3), "games_per_pairing", "a pairing is 1 or 3 games"),
            (self.group_size >= 2, "group_size", "a group has at least two sides"),
            (1 <= self.advance <= self.group_size, "advance", "1 to group_size sides go through"),
            (
                self.points.win >= self.points.draw >= self.points.loss,
                "points",
                "points must be win ≥ draw ≥ loss",
            ),
            (len(self.place_points) == TABLE_SEATS, "place_points", "four place points"),
            (self.rounds >= 1, "rounds", "at least one round"),
            (self.tables is None or self.tables >= 1, "tables", "at least one table"),
        ]
        for ok, code, message in problems:
            if not ok:
                raise TournamentError(code, message)


# --- Draw and schedule -------------------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    name: str
    sides: tuple[SideId, ...]


@dataclass(frozen=True)
class Pairing:
    """Two sides meeting; `a` is listed first (no advantage in Okey)."""

    a: SideId
    b: SideId

    @property
    def sides(self) -> frozenset[SideId]:
        return frozenset((self.a, self.b))


@dataclass(frozen=True)
class Round:
    number: int  # 1-based
    pairings: tuple[Pairing, ...]
    sitting_out: tuple[SideId, ...]


@dataclass(frozen=True)
class GroupPairing:
    group: str
    pairing: Pairing


@dataclass(frozen=True)
class AtTable(Generic[T]):
    item: T
    table: int  # 1-based
    wave: int  # 1-based: 2 and on when a round has more games than the café has tables


def _distinct(sides: Iterable[SideId], what: str = "entrants") -> list[SideId]:
    listed = list(sides)
    if len(set(listed)) != len(listed):
        raise TournamentError("duplicate", f"the {what} list names a side twice")
    kinds = {type(side) for side in listed}
    if not kinds <= {int, str} or len(kinds) > 1:
        raise TournamentError("side_id", "side ids are all ints or all strings")
    return listed


def _shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """Fisher–Yates on Random.random(), whose output Python keeps the same across versions."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def draw_groups(
    entrants: Sequence[SideId], group_size: int, seed: int | None = None
) -> tuple[Group, ...]:
    """Entrants into groups of at most `group_size`: snake seeding by their order, or by a seeded
    shuffle."""
    order = _distinct(entrants)
    if len(order) < 2:
        raise TournamentError("too_few", "a tournament needs at least two entrants")
    if group_size < 2:
        raise TournamentError("group_size", "a group has at least two sides")
    count = -(-len(order) // group_size)
    if count > len(string.ascii_uppercase):
        raise TournamentError("too_many_groups", "at most 26 groups")
    if seed is not None:
        order = _shuffled(order, random.Random(seed))
    members: list[list[SideId]] = [[] for _ in range(count)]
    for index, side in enumerate(order):
        row, column = divmod(index, count)
        members[column if row % 2 == 0 else count - 1 - column].append(side)
    return tuple(Group(string.ascii_uppercase[i], tuple(group)) for i, group in enumerate(members))


def round_robin(sides: Sequence[SideId], played: Iterable[Pairing] = ()) -> tuple[Round, ...]:
    """Every pairing of `sides` not yet played, in rounds where no side plays twice."""
    listed = _distinct(sides, "sides")
    circle: list[SideId | None] = [*listed, None] if len(listed) % 2 else list(listed)
    n = len(circle)
    in_order: list[Pairing] = []
    for number in range(n - 1):
        for i in range(n // 2):
            x, y = circle[i], circle[n - 1 - i]
            if x is None or y is None:
                continue
            if i == 0 and number % 2 == 1:
                x, y = y, x
            in_order.append(Pairing(x, y))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    done = {pairing.sides for pairing in played}
    rounds: list[list[Pairing]] = []
    busy: list[set[SideId]] = []
    for pairing in in_order:
        if pairing.sides in done:
            continue
        index = next((i for i, taken in enumerate(busy) if not taken & pairing.sides), len(busy))
        if index == len(busy):
            rounds.append([])
            busy.append(set())
        rounds[index].append(pairing)
        busy[index] |= pairing.sides
    return tuple(
        Round(i + 1, tuple(pairings), tuple(side for side in listed if side not in busy[i]))
        for i, pairings in enumerate(rounds)
    )


def assign_tables(items: Sequence[T], tables: int | None = None) -> tuple[AtTable[T], ...]:
    """A round's games at tables 1..tables, in waves when there are more games than tables."""
    if tables is not None and tables < 1:
        raise TournamentError("tables", "at least one table")
    width = tables or max(len(items), 1)
    return tuple(
        AtTable(item, index % width + 1, index // width + 1) for index, item in enumerate(items)
    )


def group_schedule(
    groups: Sequence[Group], tables: int | None = None
) -> tuple[tuple[AtTable[GroupPairing], ...], ...]:
    """The group stage as the tournament's rounds: round k of every group, at tables."""
    per_group = [(group.name, round_robin(group.sides)) for group in groups]
    length = max((len(rounds) for _, rounds in per_group), default=0)
    schedule = []
    for k in range(length):
        games = [
            GroupPairing(name, pairing)
            for name, rounds in per_group
            if k < len(rounds)
            for pairing in rounds[k].pairings
        ]
        schedule.append(assign_tables(games, tables))
    return tuple(schedule)


# --- Pairings ----------------------------------------------------------------------------------


class Outcome(StrEnum):
    OPEN = "open"  # games still to play
    A = "a"  # side a won the pairing
    B = "b"
    LEVEL = "level"  # over, nobody won: a drawn pairing (knock-out: see knockout_winner)


@dataclass(frozen=True)
class PairingResult:
    games: tuple[tuple[int, int], ...]  # (side a's total, side b's total) per finished game
    games_per_pairing: int
    wins_a: int
    wins_b: int
    draws: int
    averaj_a: int  # sum of (b's total − a's total)
    outcome: Outcome

    @property
    def averaj_b(self) -> int:
        return -self.averaj_a

    @property
    def finished(self) -> bool:
        return self.outcome != Outcome.OPEN

    @property
    def decided(self) -> bool:
        return self.outcome in (Outcome.A, Outcome.B)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def pairing_result(games: Sequence[tuple[int, int]], games_per_pairing: int = 3) -> PairingResult:
    """Where a pairing stands after its finished games (lower total wins a game)."""
    if not _is_int(games_per_pairing) or games_per_pairing < 1:
        raise TournamentError("games_per_pairing", "a pairing has at least one game")
    wins_a = wins_b = draws = averaj = 0
    outcome = Outcome.OPEN
    for number, game in enumerate(games, start=1):
        if outcome != Outcome.OPEN:
            raise TournamentError("game_after_end", f"game {number} comes after the pairing ended")
        if not isinstance(game, Sequence) or len(game) != 2 or not all(map(_is_int, game)):
            raise TournamentError("game_totals", f"game {number} needs two whole-number totals")
        total_a, total_b = game
        averaj += total_b - total_a
        wins_a += total_a < total_b
        wins_b += total_b < total_a
        draws += total_a == total_b
        if 2 * wins_a + draws > games_per_pairing:
            outcome = Outcome.A
        elif 2 * wins_b + draws > games_per_pairing:
            outcome = Outcome.B
        elif number == games_per_pairing:
            outcome = Outcome.LEVEL
    return PairingResult(
        tuple((a, b) for a, b in games),
        games_per_pairing,
        wins_a,
        wins_b,
        draws,
        averaj,
        outcome,
    )


# --- Standings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    side: SideId
    rank: int  # 1-based, no two rows share one
    points: int
    played: int  # finished pairings
    won: int
    drawn: int
    lost: int
    games_won: int
    games_drawn: int
    games_lost: int
    averaj: int


# A side's record as it is counted up: StandingRow's columns after side and rank, by name.
RECORD = tuple(column.name for column in fields(StandingRow))[2:]


def _id_key(side: SideId) -> tuple[bool, SideId]:
    return (isinstance(side, str), side)


def _ordered(
    sides: Sequence[SideId],
    overall: Mapping[SideId, tuple],
    head_to_head: Callable[[frozenset[SideId]], Mapping[SideId, tuple]],
) -> list[SideId]:
    """Best first by `overall`; sides tied on it by head to head among exactly them, again on
    any smaller set it leaves tied; then the smaller id."""

    def buckets(group: Iterable[SideId], key: Mapping[SideId, tuple]) -> list[list[SideId]]:
        by_key: dict[tuple, list[SideId]] = {}
        for side in group:
            by_key.setdefault(key[side], []).append(side)
        return [by_key[k] for k in sorted(by_key, reverse=True)]

    def untie(group: list[SideId]) -> list[SideId]:
        if len(group) == 1:
            return group
        split = buckets(group, head_to_head(frozenset(group)))
        if len(split) == 1:
            return sorted(group, key=_id_key)
        return [side for part in split for side in untie(part)]

    return [side for part in buckets(sides, overall) for side in untie(part)]


def _tally(
    sides: Iterable[SideId],
    results: Sequence[tuple[Pairing, PairingResult]],
    points: Points,
) -> dict[SideId, Counter]:
    lines = {side: Counter() for side in sides}
    for pairing, result in results:
        if not result.finished or pairing.a not in lines or pairing.b not in lines:
            continue
        sides_and_outcomes = (
            (lines[pairing.a], Outcome.A, result.wins_a, result.wins_b, result.averaj_a),
            (lines[pairing.b], Outcome.B, result.wins_b, result.wins_a, result.averaj_b),
        )
        for line, mine, games_won, games_lost, averaj in sides_and_outcomes:
            line["played"] += 1
            if result.outcome == mine:
                line["won"] += 1
                line["points"] += points.win
            elif result.outcome == Outcome.LEVEL:
                line["drawn"] += 1
                line["points"] += points.draw
            else:
                line["lost"] += 1
                line["points"] += points.loss
            line["games_won"] += games_won
            line["games_lost"] += games_lost
            line["games_drawn"] += result.draws
            line["averaj"] += averaj
    return lines


def standings(
    sides: Sequence[SideId],
    results: Iterable[tuple[Pairing, PairingResult]],
    points: Points = DEFAULT_POINTS,
) -> tuple[StandingRow, ...]:
    """A league's or a group's table from its finished pairings, tie-breaks applied."""
    listed = _distinct(sides, "sides")
    given = list(results)
    known = set(listed)
    for pairing, _ in given:
        if pairing.a == pairing.b:
            raise TournamentError("same_side", "a side cannot meet itself")
        if not pairing.sides <= known:
            raise TournamentError("unknown_side", "a result names a side not in the table")
    lines = _tally(listed, given, points)

    def head_to_head(tied: frozenset[SideId]) -> dict[SideId, tuple]:
        among = [(p, r) for p, r in given if p.sides <= tied]
        return {
            side: (line["points"], line["averaj"])
            for side, line in _tally(tied, among, points).items()
        }

    overall = {side: (line["points"], line["averaj"]) for side, line in lines.items()}
    return tuple(
        StandingRow(side, rank, **{name: lines[side][name] for name in RECORD})
        for rank, side in enumerate(_ordered(listed, overall, head_to_head), start=1)
    )


# --- Knock-out ---------------------------------------------------------------------------------


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
    _distinct(qualifiers, "qualifiers")
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


# --- Tek ---------------------------------------------------------------------------------------

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
    listed = _distinct(players, "players")
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
        shuffle = _shuffled(range(n), rng)
        tie = {index: place for place, index in enumerate(shuffle)}
        resting = set(sorted(range(n), key=lambda i: (sat_out[i], tie[i]))[: n % TABLE_SEATS])
        seated = [index for index in shuffle if index not in resting]
        weight = [[heavy * (count > 0) + count * count for count in row] for row in met]
        best = _seat(seated, weight)
        for _ in range(_RESTARTS - 1):
            if best[0] == 0:  # nobody meets anyone again: nothing to improve
                break
            attempt = _seat(_shuffled(seated, rng), weight)
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
    if len(place_points) != TABLE_SEATS or not all(_is_int(p) for p in place_points):
        raise TournamentError("place_points", "place points are four whole numbers")


def tek_place_points(
    totals: Mapping[SideId, int], place_points: Sequence[int] = (3, 2, 1, 0)
) -> dict[SideId, Fraction]:
    """Each player's place points at one table (lowest total first); equal totals share."""
    _check_place_points(place_points)
    if len(totals) != TABLE_SEATS or not all(_is_int(t) for t in totals.values()):
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
    listed = _distinct(players, "players")
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
        for rank, player in enumerate(_ordered(listed, overall, head_to_head), start=1)
    )
