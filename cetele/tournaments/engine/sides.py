"""What every part of the tournament engine shares: the sides' ids, the error, and the helpers
that check, shuffle and order sides."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

SideId = int | str
T = TypeVar("T")


class TournamentError(ValueError):
    """A tournament's input that cannot be used: `code` says which rule it breaks."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def distinct(sides: Iterable[SideId], what: str = "entrants") -> list[SideId]:
    """`sides` as a list, refused if one is named twice or the ids mix ints and strings."""
    listed = list(sides)
    if len(set(listed)) != len(listed):
        raise TournamentError("duplicate", f"the {what} list names a side twice")
    kinds = {type(side) for side in listed}
    if not kinds <= {int, str} or len(kinds) > 1:
        raise TournamentError("side_id", "side ids are all ints or all strings")
    return listed


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """Fisher–Yates on Random.random(), whose output Python keeps the same across versions."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def is_int(value: object) -> bool:
    """A whole number, and not a bool (which Python counts as an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def id_key(side: SideId) -> tuple[bool, SideId]:
    """The last tie-break's order: the smaller id first, ints before strings."""
    return (isinstance(side, str), side)


def ordered(
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
            return sorted(group, key=id_key)
        return [side for part in split for side in untie(part)]

    return [side for part in buckets(sides, overall) for side in untie(part)]
