"""The typed vocabulary of the engine: enums and frozen dataclasses for rulesets, hands and results.

Nothing here validates or computes: `rules.validate_ruleset` builds a `Ruleset` from JSON,
`hands.parse_hand` builds a `Hand`, `engine.score_hand` turns both into a `HandResult`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class FinishKind(StrEnum):
    """How the hand ended: picks the row of the ruleset's finish table."""

    NORMAL = "normal"
    KAFA = "kafa"
    PAIRS = "pairs"
    OKEY = "okey"
    OKEY_KAFA = "okey_kafa"
    PAIRS_OKEY = "pairs_okey"
    PAIRS_KAFA = "pairs_kafa"
    PAIRS_OKEY_KAFA = "pairs_okey_kafa"  # an extension: only where the ruleset has the row
    NONE = "none"

    @property
    def is_kafa(self) -> bool:
        return self in _KAFA_KINDS


_KAFA_KINDS = frozenset(
    {FinishKind.KAFA, FinishKind.OKEY_KAFA, FinishKind.PAIRS_KAFA, FinishKind.PAIRS_OKEY_KAFA}
)


class Opened(StrEnum):
    """What a seat laid down this hand."""

    NO = "no"
    SERIES = "series"
    PAIRS = "pairs"


class PenaltyKind(StrEnum):
    """In-hand penalty events (RULES.md, "Penalties")."""

    OKEY_DISCARD = "okey_discard"
    ISLEK_DISCARD = "islek_discard"
    TAKE_BACK = "take_back"
    FAILED_OPEN = "failed_open"
    OKEY_TAKEN = "okey_taken"
    SIDE_TAKE_UNUSED = "side_take_unused"
    OKEY_FROM_PER_UNUSED = "okey_from_per_unused"
    DISCARD_USED = "discard_used"
    CUSTOM = "custom"


class Colour(StrEnum):
    """The indicator's colour (RULES.md, "House-rule extensions"); yellow is printed green in
    some sets."""

    RED = "red"
    BLUE = "blue"
    BLACK = "black"
    YELLOW = "yellow"


class Raising(StrEnum):
    """Whether each later opener must beat the previous opening (shown to players, not scored)."""

    NONE = "none"
    SERIES = "series"
    BOTH = "both"


FACE = "face"  # okey_left.counts: an okey left in hand counts the face value okey_number


# --- Rulesets -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FinishRow:
    """One row of the finish table; `winner` is None only for the `none` row."""

    opened_multiplier: int
    not_opened: int
    winner: int | None = None
    opened_flat: int | None = None  # a loser who opened scores this, whatever they hold


@dataclass(frozen=True, slots=True)
class PairOpenerOver:
    """A pair opener whose raw tiles exceed `threshold` pays `penalty` on top."""

    threshold: int
    penalty: int


@dataclass(frozen=True, slots=True)
class OkeyLeft:
    """How okeys left in an opened loser's hand count: `counts` is FACE or a fixed value."""

    counts: str | int
    penalty: int
    fake_too: bool


@dataclass(frozen=True, slots=True)
class TeamRules:
    winner_partner_zero: bool
    kafa_halving: bool


# Amount-type penalty settings, in presets.json's order; None disables the event kind.
PENALTY_AMOUNT_KEYS = (
    "okey_discard",
    "islek_discard",
    "islek_taken_factor",
    "take_back",
    "failed_open",
    "okey_taken",
    "side_take_unused",
    "okey_from_per_unused",
)


@dataclass(frozen=True, slots=True)
class Penalties:
    okey_discard: int | None
    islek_discard: int | None
    islek_taken_factor: int | None
    take_back: int | None
    failed_open: int | None
    okey_taken: int | None
    side_take_unused: int | None
    okey_from_per_unused: int | None
    okey_taken_partner_exempt: bool


@dataclass(frozen=True, slots=True)
class DiscardUsed:
    """Zorlu: per-tile factors charged when a discard is used by the next player."""

    series: int
    pairs: int
    okey_series: int
    okey_pairs: int

    def factor(self, used_for: Opened, okey: bool) -> int:
        if used_for == Opened.PAIRS:
            return self.okey_pairs if okey else self.pairs
        return self.okey_series if okey else self.series


@dataclass(frozen=True, slots=True)
class BonusTier:
    """An opening bonus tier, reached by a series opening ≥ `series` or pairs ≥ `pairs`."""

    series: int
    pairs: int
    points: int

    def threshold(self, opened: Opened) -> int:
        return self.pairs if opened == Opened.PAIRS else self.series


@dataclass(frozen=True, slots=True)
class OpeningRules:
    series: int
    pairs: int
    raising: Raising

    def base(self, opened: Opened) -> int:
        return self.pairs if opened == Opened.PAIRS else self.series


@dataclass(frozen=True, slots=True)
class Colours:
    """The colours house rule: the indicator's colour multiplies the finish table ("finish") or
    each seat's whole hand score ("all")."""

    multipliers: Mapping[Colour, int]
    scope: str

    FINISH = "finish"
    ALL = "all"


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A validated ruleset (RULES.md, "Ruleset parameters"). Build it with `validate_ruleset`."""

    name: str
    finishes: Mapping[FinishKind, FinishRow]
    kafa_requires_nobody_opened: bool
    pair_opener_multiplier: int
    pair_opener_over: PairOpenerOver | None
    okey_left: OkeyLeft
    teams: TeamRules
    cezali: bool
    penalties: Penalties
    discard_used: DiscardUsed | None
    cifte_devam_factor: int | None
    opening_bonus: tuple[BonusTier, ...] | None
    opening: OpeningRules
    tiles_dealt: int
    hands: tuple[int, ...]
    riziko: int | None  # the riziko multiplier, None when the house rule is off
    colours: Colours | None
    last_hand_multiplier: int | None
    json: Mapping[str, Any] = field(
        repr=False, compare=False
    )  # the validated JSON, defaults filled

    @property
    def max_remaining(self) -> int:
        """The largest face sum `tiles_dealt` plain tiles can make (eight of each number)."""
        return MAX_REMAINING[self.tiles_dealt]

    def okey_counts_face(self) -> bool:
        # A cezasız table treats okey_left.counts as "face" (RULES.md, "Penalties").
        return not self.cezali or self.okey_left.counts == FACE

    def to_json(self) -> dict[str, Any]:
        """The ruleset as JSON: the dict it was validated from, with every missing key that has
        a default filled in (a fresh copy)."""
        return copy.deepcopy(dict(self.json))


# 21 tiles: 8×13 + 8×12 + 5×11; 14 tiles: 8×13 + 6×12 (RULES.md, "Validation").
MAX_REMAINING = {21: 255, 14: 176}


# --- Hands ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PenaltyEvent:
    """One in-hand penalty charged to the seat that holds it; unused fields stay at defaults."""

    kind: PenaltyKind
    tile: int | None = None  # islek_discard, discard_used
    taken: bool = False  # islek_discard: the next player took the tile
    by: int | None = None  # okey_taken: the seat that took the okey
    used_for: Opened | None = None  # discard_used: SERIES or PAIRS
    okey: bool = False  # discard_used: the discard was an okey
    points: int | None = None  # custom
    note: str = ""  # custom

    def __post_init__(self) -> None:
        # Accept plain strings from Python callers; the engine compares enum members by identity.
        _coerce(self, "kind", PenaltyKind)
        if self.used_for is not None:
            _coerce(self, "used_for", Opened)


@dataclass(frozen=True, slots=True)
class SeatInput:
    """What is entered for one seat."""

    opened: Opened
    remaining: int = 0
    okeys: int = 0
    fake_okeys: int = 0
    opening: int | None = None
    cifte_devam: bool = False
    penalties: tuple[PenaltyEvent, ...] = ()

    def __post_init__(self) -> None:
        _coerce(self, "opened", Opened)


def _coerce(instance: Any, name: str, enum: type) -> None:
    value = getattr(instance, name)
    if type(value) is not enum:
        object.__setattr__(instance, name, enum(value))


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand (el). `teams` pairs seats 0&2 against 1&3 and needs four players."""

    players: tuple[SeatInput, ...]
    finisher: int | None = None
    okey_finish: bool = False
    kafa: bool = False
    okey_number: int | None = None
    teams: bool = False
    riziko: bool = False  # the indicator was a fake okey
    colour: Colour | None = None  # the indicator's colour
    last_hand: bool = False  # the match's last hand (the web app sets it, not the player)

    def __post_init__(self) -> None:
        if self.colour is not None:
            _coerce(self, "colour", Colour)


def partner_of(seat: int) -> int:
    """Teams are seats 0&2 and 1&3."""
    return (seat + 2) % 4


# --- Results --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One ordered step of a seat's score; `detail` holds what explains it (JSON-ready values)."""

    rule: str
    points: int
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "points": self.points, **self.detail}


@dataclass(frozen=True, slots=True)
class HandResult:
    """Scores per seat (and per team), each with the steps that add up to it."""

    finish: FinishKind
    scores: tuple[int, ...]
    team_scores: tuple[int, int] | None
    breakdown: tuple[tuple[Step, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "finish": self.finish.value,
            "scores": list(self.scores),
            "team_scores": None if self.team_scores is None else list(self.team_scores),
            "breakdown": [[step.to_json() for step in steps] for steps in self.breakdown],
        }
