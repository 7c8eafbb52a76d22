"""Hands: `parse_hand` turns the JSON hand into a `Hand` (types and unknown fields),
`validate_hand` checks it against a ruleset (RULES.md, "Validation", in that order).

`validate_hand` works on the typed `Hand`, so Python callers that build a `Hand` themselves get
exactly the same checks as JSON callers. In JSON an optional field given as `null` is the same as
an omitted one.
"""

from __future__ import annotations

from typing import Any

from scoring.checks import (
    check_keys,
    expect_bool,
    expect_choice,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    join,
)
from scoring.errors import invalid
from scoring.model import (
    Colour,
    FinishKind,
    Hand,
    Opened,
    PenaltyEvent,
    PenaltyKind,
    Ruleset,
    SeatInput,
    partner_of,
)

MIN_SEATS, MAX_SEATS, TEAM_SEATS = 2, 4, 4
MAX_OKEYS = 2  # two okeys and two fake okeys in a set of tiles
MAX_TILE = 13
MAX_CUSTOM_POINTS = 100_000  # a custom penalty (or credit) is at most this many points

HAND_REQUIRED = ("finisher", "players")
HAND_OPTIONAL = ("okey_finish", "kafa", "okey_number", "riziko", "colour", "last_hand")
SEAT_REQUIRED = ("opened",)
SEAT_OPTIONAL = ("remaining", "okeys", "fake_okeys", "opening", "cifte_devam", "penalties")
# Fields each penalty kind takes, besides "kind": (required, optional).
EVENT_FIELDS: dict[PenaltyKind, tuple[tuple[str, ...], tuple[str, ...]]] = {
    PenaltyKind.OKEY_DISCARD: ((), ()),
    PenaltyKind.ISLEK_DISCARD: ((), ("taken", "tile")),
    PenaltyKind.TAKE_BACK: ((), ()),
    PenaltyKind.FAILED_OPEN: ((), ()),
    PenaltyKind.OKEY_TAKEN: (("by",), ()),
    PenaltyKind.SIDE_TAKE_UNUSED: ((), ()),
    PenaltyKind.OKEY_FROM_PER_UNUSED: ((), ()),
    PenaltyKind.DISCARD_USED: (("used_for",), ("tile", "okey")),
    PenaltyKind.CUSTOM: (("points",), ("note",)),
}
_OPENED = {opened.value: opened for opened in Opened}
_USED_FOR_VALUES = (Opened.SERIES.value, Opened.PAIRS.value)
_KINDS = {kind.value: kind for kind in PenaltyKind}
_COLOURS = {colour.value: colour for colour in Colour}


# --- JSON → Hand ----------------------------------------------------------------------------


def parse_hand(data: Any, teams: bool = False, field: str = "hand") -> Hand:
    """The JSON hand → Hand. Checks types and fields only; `validate_hand` checks the rules."""
    data = expect_object(data, field)
    check_keys(data, field, HAND_REQUIRED, HAND_OPTIONAL)
    players_field = join(field, "players")
    players = expect_list(data["players"], players_field)
    # Counted here as well so that a wrong count is reported before any seat's details.
    if not MIN_SEATS <= len(players) <= MAX_SEATS:
        raise invalid("seat_count", players_field, n=len(players))
    finisher = data["finisher"]
    if finisher is not None and type(finisher) is not int:
        raise invalid("wrong_type", join(field, "finisher"), expected="seat_or_null")
    return Hand(
        players=tuple(
            _parse_seat(seat, f"{players_field}[{index}]") for index, seat in enumerate(players)
        ),
        finisher=finisher,
        okey_finish=_optional_bool(data, field, "okey_finish"),
        kafa=_optional_bool(data, field, "kafa"),
        okey_number=_optional_int(data, field, "okey_number", None),
        teams=teams,
        riziko=_optional_bool(data, field, "riziko"),
        colour=_optional_colour(data, field),
        last_hand=_optional_bool(data, field, "last_hand"),
    )


def _optional_colour(data: dict, field: str) -> Colour | None:
    colour = data.get("colour")
    if colour is None:
        return None
    return Colour(expect_choice(colour, join(field, "colour"), _COLOURS))


# The two helpers below run for every field of every preview: the happy path builds no strings.


def _optional_bool(data: dict, field: str, key: str) -> bool:
    value = data.get(key)
    if value is None or value is False or value is True:
        return bool(value)
    return expect_bool(value, join(field, key))


def _optional_int(data: dict, field: str, key: str, default: int | None) -> int | None:
    value = data.get(key)
    if value is None:
        return default
    return value if type(value) is int else expect_int(value, join(field, key))


def _parse_seat(data: Any, field: str) -> SeatInput:
    data = expect_object(data, field)
    check_keys(data, field, SEAT_REQUIRED, SEAT_OPTIONAL)
    opened = data["opened"]
    opened = _OPENED.get(opened) if type(opened) is str else None
    if opened is None:
        expect_choice(data["opened"], join(field, "opened"), _OPENED)  # raises: not a choice
    events = data.get("penalties")
    if events is None:
        events = ()
    elif type(events) is not list:
        expect_list(events, join(field, "penalties"))
    return SeatInput(
        opened=opened,
        remaining=_optional_int(data, field, "remaining", 0),
        okeys=_optional_int(data, field, "okeys", 0),
        fake_okeys=_optional_int(data, field, "fake_okeys", 0),
        opening=_optional_int(data, field, "opening", None),
        cifte_devam=_optional_bool(data, field, "cifte_devam"),
        penalties=tuple(
            _parse_event(event, f"{field}.penalties[{index}]") for index, event in enumerate(events)
        ),
    )


def _parse_event(data: Any, field: str) -> PenaltyEvent:
    data = expect_object(data, field)
    if "kind" not in data:
        raise invalid("missing_field", join(field, "kind"))
    kind_name = expect_str(data["kind"], join(field, "kind"))
    kind = _KINDS.get(kind_name)
    if kind is None:
        raise invalid("unknown_penalty_kind", join(field, "kind"), kind=kind_name)
    required, optional = EVENT_FIELDS[kind]
    check_keys(data, field, ("kind", *required), optional)
    used_for = data.get("used_for")
    if used_for is not None:
        used_for = Opened(expect_choice(used_for, join(field, "used_for"), _USED_FOR_VALUES))
    note = data.get("note")
    return PenaltyEvent(
        kind=kind,
        tile=_optional_int(data, field, "tile", None),
        taken=_optional_bool(data, field, "taken"),
        by=_optional_int(data, field, "by", None),
        used_for=used_for,
        okey=_optional_bool(data, field, "okey"),
        points=_optional_int(data, field, "points", None),
        note="" if note is None else expect_str(note, join(field, "note")),
    )


# --- The rules a hand must satisfy ----------------------------------------------------------


def validate_hand(hand: Hand, rules: Ruleset) -> None:
    """Raise InvalidHand for the first rule of RULES.md's "Validation" list the hand breaks."""
    seats = len(hand.players)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise invalid("seat_count", "hand.players", n=seats)
    if hand.teams and seats != TEAM_SEATS:
        raise invalid("teams_need_four", "teams", n=seats)
    _validate_finisher(hand, rules)
    if hand.okey_number is not None and not 1 <= hand.okey_number <= MAX_TILE:
        raise invalid("okey_number_out_of_range", "hand.okey_number")
    if rules.colours is not None and hand.colour is None:
        raise invalid("colour_required", "hand.colour")
    for index, seat in enumerate(hand.players):
        _validate_seat(hand, rules, index, seat)
    _validate_okey_totals(hand)
    _validate_okey_number_present(hand, rules)


def _validate_finisher(hand: Hand, rules: Ruleset) -> None:
    finisher = hand.finisher
    if finisher is None:
        for flag in ("okey_finish", "kafa"):
            if getattr(hand, flag):
                raise invalid("needs_finisher", f"hand.{flag}", what=flag)
        return
    if not 0 <= finisher < len(hand.players):
        raise invalid("finisher_not_a_seat", "hand.finisher", n=len(hand.players))
    seat = hand.players[finisher]
    if seat.opened is Opened.NO:
        raise invalid("finisher_not_opened", "hand.finisher", seat=finisher + 1)
    for attribute in ("remaining", "okeys", "fake_okeys"):
        if getattr(seat, attribute) != 0:
            raise invalid("finisher_holds_tiles", f"hand.players[{finisher}].{attribute}")
    if not hand.kafa:
        return
    if seat.opened is Opened.PAIRS and FinishKind.PAIRS_KAFA not in rules.finishes:
        raise invalid("pairs_kafa_not_allowed", "hand.kafa", seat=finisher + 1)
    if rules.kafa_requires_nobody_opened:
        for index, other in enumerate(hand.players):
            if index != finisher and other.opened is not Opened.NO:
                raise invalid("kafa_others_opened", "hand.kafa", other=index + 1)


def _validate_seat(hand: Hand, rules: Ruleset, index: int, seat: SeatInput) -> None:
    field = f"hand.players[{index}]"
    if not 0 <= seat.remaining <= rules.max_remaining:
        raise invalid(
            "remaining_out_of_range",
            f"{field}.remaining",
            max=rules.max_remaining,
            tiles=rules.tiles_dealt,
        )
    for attribute, what in (("okeys", "okey"), ("fake_okeys", "fake_okey")):
        if not 0 <= getattr(seat, attribute) <= MAX_OKEYS:
            raise invalid("okeys_out_of_range", f"{field}.{attribute}", what=what)
    if seat.opening is not None:
        _validate_opening(rules, seat, f"{field}.opening")
    if seat.cifte_devam:
        if rules.cifte_devam_factor is None:
            raise invalid("cifte_devam_not_in_ruleset", f"{field}.cifte_devam")
        if seat.opened is Opened.SERIES:
            raise invalid("cifte_devam_with_series", f"{field}.cifte_devam")
    for number, event in enumerate(seat.penalties):
        _validate_event(hand, rules, index, event, f"{field}.penalties[{number}]")


def _validate_opening(rules: Ruleset, seat: SeatInput, field: str) -> None:
    if seat.opened is Opened.NO:
        raise invalid("opening_not_opened", field)
    base = rules.opening.base(seat.opened)
    if seat.opening < base:
        unit = "pairs" if seat.opened is Opened.PAIRS else "points"
        raise invalid("opening_below_base", field, base=base, unit=unit)
    # A pairs opening leaves at least one tile in hand: at most tiles_dealt // 2 pairs.
    most_pairs = rules.tiles_dealt // 2
    if seat.opened is Opened.PAIRS and seat.opening > most_pairs:
        raise invalid("opening_above_max", field, max=most_pairs, tiles=rules.tiles_dealt)


def _validate_event(hand: Hand, rules: Ruleset, seat: int, event: PenaltyEvent, field: str) -> None:
    kind = event.kind
    if kind is PenaltyKind.CUSTOM:
        # The engine owns the bound (forms check only the type): far inside 32 bits.
        expect_int(event.points, f"{field}.points", -MAX_CUSTOM_POINTS, MAX_CUSTOM_POINTS)
        return
    if not rules.cezali:
        raise invalid("penalty_not_on_cezasiz", f"{field}.kind", kind_label=kind.value)
    if not penalty_enabled(rules, event):
        raise invalid("penalty_disabled", f"{field}.kind", kind_label=kind.value)
    if event.tile is not None and not 1 <= event.tile <= MAX_TILE:
        raise invalid("tile_out_of_range", f"{field}.tile")
    if event.tile is None and _tile_required(rules, event):
        raise invalid("tile_required", f"{field}.tile")
    if kind is PenaltyKind.OKEY_TAKEN:
        if event.by is None:
            raise invalid("missing_field", f"{field}.by")
        if not 0 <= event.by < len(hand.players):
            raise invalid("by_not_a_seat", f"{field}.by", n=len(hand.players))
        if event.by == seat:
            raise invalid("by_self", f"{field}.by")
    if kind is PenaltyKind.DISCARD_USED and event.used_for is None:
        raise invalid("missing_field", f"{field}.used_for")


def penalty_enabled(rules: Ruleset, event: PenaltyEvent) -> bool:
    """Whether this ruleset charges this event (custom always; nothing else on a cezasız table)."""
    kind = event.kind
    if kind is PenaltyKind.CUSTOM:
        return True
    if not rules.cezali:
        return False
    if kind is PenaltyKind.DISCARD_USED:
        return rules.discard_used is not None
    if kind is PenaltyKind.ISLEK_DISCARD and islek_by_tile(rules, event):
        return True
    return getattr(rules.penalties, kind.value) is not None


def islek_by_tile(rules: Ruleset, event: PenaltyEvent) -> bool:
    """An işlek discard the next player took costs tile × factor where the factor is set."""
    return event.taken and rules.penalties.islek_taken_factor is not None


def _tile_required(rules: Ruleset, event: PenaltyEvent) -> bool:
    if event.kind is PenaltyKind.ISLEK_DISCARD:
        return islek_by_tile(rules, event)
    # An okey's tile defaults to okey_number, checked with the other okey_number needs.
    return event.kind is PenaltyKind.DISCARD_USED and not event.okey


def _validate_okey_totals(hand: Hand) -> None:
    for attribute, what in (("okeys", "okey"), ("fake_okeys", "fake_okey")):
        total = 0
        for index, seat in enumerate(hand.players):
            total += getattr(seat, attribute)
            if total > MAX_OKEYS:
                raise invalid("too_many_okeys", f"hand.players[{index}].{attribute}", what=what)


def tiles_counted(hand: Hand, rules: Ruleset, index: int) -> bool:
    """Whether this seat's tiles are scored: an opened loser, not the partner who writes 0, on
    a row without a flat amount for losers who opened (that amount is their whole base)."""
    seat = hand.players[index]
    if seat.opened is Opened.NO or index == hand.finisher:
        return False
    if rules.finishes[finish_kind(hand, rules)].opened_flat is not None:
        return False
    return not partner_writes_zero(hand, rules, index)


def finish_kind(hand: Hand, rules: Ruleset | None = None) -> FinishKind:
    """RULES.md, "The finish kind": from the finisher's opening and the two flags (and, for
    elden + çift + okey, whether the ruleset has that row)."""
    if hand.finisher is None:
        return FinishKind.NONE
    if hand.players[hand.finisher].opened is Opened.PAIRS:
        if hand.kafa:  # a pairs kafa, okey or not, unless the ruleset has the okey row
            if hand.okey_finish and rules and FinishKind.PAIRS_OKEY_KAFA in rules.finishes:
                return FinishKind.PAIRS_OKEY_KAFA
            return FinishKind.PAIRS_KAFA
        return FinishKind.PAIRS_OKEY if hand.okey_finish else FinishKind.PAIRS
    if hand.okey_finish:
        return FinishKind.OKEY_KAFA if hand.kafa else FinishKind.OKEY
    return FinishKind.KAFA if hand.kafa else FinishKind.NORMAL


def partner_writes_zero(hand: Hand, rules: Ruleset, index: int) -> bool:
    return (
        hand.teams
        and hand.finisher is not None
        and partner_of(index) == hand.finisher
        and rules.teams.winner_partner_zero
    )


def _validate_okey_number_present(hand: Hand, rules: Ruleset) -> None:
    if hand.okey_number is not None:
        return
    for index, seat in enumerate(hand.players):
        reason = None
        if tiles_counted(hand, rules, index):
            if seat.fake_okeys:
                reason = "fake_counted"
            elif seat.okeys and rules.okey_counts_face():
                reason = "okey_counted"
        for event in seat.penalties:
            if event.kind is PenaltyKind.DISCARD_USED and event.okey and event.tile is None:
                reason = reason or "okey_discard_used"
        if reason:
            raise invalid("okey_number_required", "hand.okey_number", reason=(reason, index + 1))
