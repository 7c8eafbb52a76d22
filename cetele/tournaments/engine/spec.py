"""A tournament's settings (TournamentSpec), checked when built."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cetele.tournaments.engine.sides import TournamentError


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
