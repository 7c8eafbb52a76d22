"""The draw into groups, the round robin, and the games at the café's tables."""

from __future__ import annotations

import random
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic

from cetele.tournaments.engine.sides import SideId, T, TournamentError, distinct, shuffled


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


def draw_groups(
    entrants: Sequence[SideId], group_size: int, seed: int | None = None
) -> tuple[Group, ...]:
    """Entrants into groups of at most `group_size`: snake seeding by their order, or by a seeded
    shuffle."""
    order = distinct(entrants)
    if len(order) < 2:
        raise TournamentError("too_few", "a tournament needs at least two entrants")
    if group_size < 2:
        raise TournamentError("group_size", "a group has at least two sides")
    count = -(-len(order) // group_size)
    if count > len(string.ascii_uppercase):
        raise TournamentError("too_many_groups", "at most 26 groups")
    if seed is not None:
        order = shuffled(order, random.Random(seed))
    members: list[list[SideId]] = [[] for _ in range(count)]
    for index, side in enumerate(order):
        row, column = divmod(index, count)
        members[column if row % 2 == 0 else count - 1 - column].append(side)
    return tuple(Group(string.ascii_uppercase[i], tuple(group)) for i, group in enumerate(members))


def round_robin(sides: Sequence[SideId], played: Iterable[Pairing] = ()) -> tuple[Round, ...]:
    """Every pairing of `sides` not yet played, in rounds where no side plays twice."""
    listed = distinct(sides, "sides")
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
