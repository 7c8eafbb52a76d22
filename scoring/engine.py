"""The arithmetic: one hand and one ruleset → each seat's score as ordered steps.

Follows RULES.md, "A player's hand score": base, then opening bonus, then penalty events; with
the house-rule extensions, the finish row's figures × k (riziko, colour on the finish) and the
seat's whole score × c (colour on everything) × N (last hand). Every step is kept, so the sum of
a seat's steps is its score and the UI can print the sentence, naming each multiplication.

Breakdown steps, in order, per seat (their points add up to the seat's score):
    winner             F.winner × k                              finish (+ factors)
    partner_zero       0 (teams: the finisher's partner)         finisher
    not_opened         F.not_opened × k                          finish (+ factors)
    cifte_devam        not_opened × (factor − 1)                 factor
    opened_flat        F.opened_flat × k, a loser who opened     finish (+ factors)
                       where the row has it (no tiles then)
    kafa_halving       the halving, a negative amount            before, after
    tiles              tiles × pair multiplier × F mult. × k     remaining, okeys, fake_okeys,
                                                                 okey_value, okey_number, tiles,
                                                                 pair_multiplier, multiplier, finish
                                                                 (+ factors)
    pair_opener_over   pair_opener_over.penalty                  tiles, threshold
    okey_left_penalty  count × okey_left.penalty                 okeys, fake_okeys, count, per
    opening_bonus      the highest tier's points                 opening, opened, threshold
    penalty            one per event, in the order entered       kind (+ taken, tile, factor, by,
                                                                 exempt, used_for, okey, note)
    colour             the whole score × (c − 1), scope "all"    colour, factor
    last_hand          the whole score × (N − 1)                 factor
    k is riziko × the colour's multiplier (scope "finish"); "factors" lists what made it:
    [{"reason": "riziko", "factor": 2}, {"reason": "colour", "colour": "blue", "factor": 4}],
    present only when a house rule multiplied the row.
"""

from __future__ import annotations

from scoring.hands import finish_kind, islek_by_tile, partner_writes_zero, validate_hand
from scoring.model import (
    Colours,
    FinishKind,
    FinishRow,
    Hand,
    HandResult,
    Opened,
    PenaltyEvent,
    PenaltyKind,
    Ruleset,
    SeatInput,
    Step,
    partner_of,
)


def score_hand(hand: Hand, rules: Ruleset) -> HandResult:
    """Validate the hand against the rules and score it; raises InvalidHand."""
    validate_hand(hand, rules)
    kind = finish_kind(hand, rules)
    factors = _row_factors(hand, rules)
    row = _scaled(rules.finishes[kind], factors)
    breakdown = tuple(
        tuple(_whole_score(hand, rules, _seat_steps(hand, rules, kind, row, factors, index)))
        for index in range(len(hand.players))
    )
    scores = tuple(sum(step.points for step in steps) for steps in breakdown)
    team_scores = (scores[0] + scores[2], scores[1] + scores[3]) if hand.teams else None
    return HandResult(kind, scores, team_scores, breakdown)


# --- House-rule multipliers -------------------------------------------------------------------


def _row_factors(hand: Hand, rules: Ruleset) -> tuple[dict, ...]:
    """What multiplies the finish row's three figures this hand: k = riziko × colour (finish
    scope). Each is a breakdown detail: {"reason", "factor"} (+ "colour")."""
    factors = []
    if rules.riziko is not None and hand.riziko:
        factors.append({"reason": "riziko", "factor": rules.riziko})
    colours = rules.colours
    if colours is not None and colours.scope == Colours.FINISH:
        factor = colours.multipliers[hand.colour]
        factors.append({"reason": "colour", "colour": hand.colour.value, "factor": factor})
    return tuple(factors)


def _scaled(row: FinishRow, factors: tuple[dict, ...]) -> FinishRow:
    k = 1
    for factor in factors:
        k *= factor["factor"]
    if k == 1:
        return row
    return FinishRow(
        opened_multiplier=row.opened_multiplier * k,
        not_opened=row.not_opened * k,
        winner=None if row.winner is None else row.winner * k,
        opened_flat=None if row.opened_flat is None else row.opened_flat * k,
    )


def _with_factors(detail: dict, factors: tuple[dict, ...]) -> dict:
    # Only a hand the house rules multiply carries the key: other breakdowns stay as they were.
    return {**detail, "factors": [dict(f) for f in factors]} if factors else detail


def _whole_score(hand: Hand, rules: Ruleset, steps):
    """The seat's steps, then × c (colours on everything) and × N (the match's last hand), each
    a step whose points are what the multiplication adds."""
    total = 0
    for step in steps:
        total += step.points
        yield step
    colours = rules.colours
    if colours is not None and colours.scope == Colours.ALL:
        factor = colours.multipliers[hand.colour]
        yield Step("colour", total * (factor - 1), {"colour": hand.colour.value, "factor": factor})
        total *= factor
    if rules.last_hand_multiplier is not None and hand.last_hand:
        factor = rules.last_hand_multiplier
        yield Step("last_hand", total * (factor - 1), {"factor": factor})


# --- One seat -------------------------------------------------------------------------------


def _seat_steps(
    hand: Hand,
    rules: Ruleset,
    kind: FinishKind,
    row: FinishRow,
    factors: tuple[dict, ...],
    index: int,
):
    seat = hand.players[index]
    if index == hand.finisher:
        yield Step("winner", row.winner, _with_factors({"finish": kind.value}, factors))
        yield from _opening_bonus(rules, seat)
    elif partner_writes_zero(hand, rules, index):
        # The partner writes 0 and earns no bonus; only their own penalty events still count.
        yield Step("partner_zero", 0, {"finisher": hand.finisher})
    elif seat.opened is Opened.NO:
        yield from _not_opened(hand, rules, kind, row, factors, index)
    elif row.opened_flat is not None:
        # The row's flat amount is the whole base: no tiles, multipliers or okey penalty.
        yield Step("opened_flat", row.opened_flat, _with_factors({"finish": kind.value}, factors))
        yield from _opening_bonus(rules, seat)
    else:
        yield from _opened_loser(hand, rules, kind, row, factors, index)
        yield from _opening_bonus(rules, seat)
    for event in seat.penalties:
        yield _penalty(hand, rules, index, event)


def _not_opened(
    hand: Hand, rules: Ruleset, kind: FinishKind, row: FinishRow, factors: tuple, index: int
):
    seat = hand.players[index]
    amount = row.not_opened  # already × k: çifte devam and kafa halving apply on top
    yield Step("not_opened", amount, _with_factors({"finish": kind.value}, factors))
    if seat.cifte_devam:
        factor = rules.cifte_devam_factor
        yield Step("cifte_devam", amount * (factor - 1), {"factor": factor})
        amount *= factor
    if (
        hand.teams
        and rules.teams.kafa_halving
        and kind.is_kafa
        and hand.players[partner_of(index)].opened is not Opened.NO
    ):
        halved = (amount + 1) // 2  # halving rounds half up
        yield Step("kafa_halving", halved - amount, {"before": amount, "after": halved})


def _opened_loser(
    hand: Hand, rules: Ruleset, kind: FinishKind, row: FinishRow, factors: tuple, index: int
):
    seat = hand.players[index]
    okey_value = _okey_value(hand, rules) if seat.okeys else None
    fake_value = hand.okey_number if seat.fake_okeys else None
    tiles = seat.remaining + seat.okeys * (okey_value or 0) + seat.fake_okeys * (fake_value or 0)
    pair_multiplier = rules.pair_opener_multiplier if seat.opened is Opened.PAIRS else 1
    detail = {
        "remaining": seat.remaining,
        "okeys": seat.okeys,
        "fake_okeys": seat.fake_okeys,
        "okey_value": okey_value,
        "okey_number": fake_value,
        "tiles": tiles,
        "pair_multiplier": pair_multiplier,
        "multiplier": rules.finishes[kind].opened_multiplier,  # the table's, before k
        "finish": kind.value,
    }
    detail = _with_factors(detail, factors)
    yield Step("tiles", tiles * pair_multiplier * row.opened_multiplier, detail)
    over = rules.pair_opener_over
    # Compared with the raw tiles, added after the multipliers (and never multiplied).
    if seat.opened is Opened.PAIRS and over is not None and tiles > over.threshold:
        yield Step("pair_opener_over", over.penalty, {"tiles": tiles, "threshold": over.threshold})
    yield from _okey_left_penalty(rules, seat)


def _okey_value(hand: Hand, rules: Ruleset) -> int:
    return hand.okey_number if rules.okey_counts_face() else rules.okey_left.counts


def _okey_left_penalty(rules: Ruleset, seat: SeatInput):
    if not rules.cezali or not rules.okey_left.penalty:
        return
    fake = seat.fake_okeys if rules.okey_left.fake_too else 0
    count = seat.okeys + fake
    if count:
        per = rules.okey_left.penalty
        yield Step(
            "okey_left_penalty",
            count * per,
            {"okeys": seat.okeys, "fake_okeys": fake, "count": count, "per": per},
        )


def _opening_bonus(rules: Ruleset, seat: SeatInput):
    if seat.opening is None or not rules.opening_bonus:
        return
    reached = None
    for tier in rules.opening_bonus:  # tiers increase, so the last one reached is the highest
        if seat.opening >= tier.threshold(seat.opened):
            reached = tier
    if reached is not None:
        detail = {
            "opening": seat.opening,
            "opened": seat.opened.value,
            "threshold": reached.threshold(seat.opened),
        }
        yield Step("opening_bonus", reached.points, detail)


def _penalty(hand: Hand, rules: Ruleset, index: int, event: PenaltyEvent) -> Step:
    kind = event.kind
    amounts = rules.penalties
    detail: dict = {"kind": kind.value}
    if kind is PenaltyKind.CUSTOM:
        detail["note"] = event.note
        return Step("penalty", event.points, detail)
    if kind is PenaltyKind.ISLEK_DISCARD:
        detail["taken"] = event.taken
        if islek_by_tile(rules, event):
            detail.update(tile=event.tile, factor=amounts.islek_taken_factor)
            return Step("penalty", event.tile * amounts.islek_taken_factor, detail)
        return Step("penalty", amounts.islek_discard, detail)
    if kind is PenaltyKind.OKEY_TAKEN:
        exempt = hand.teams and amounts.okey_taken_partner_exempt and event.by == partner_of(index)
        detail.update(by=event.by, exempt=exempt)
        return Step("penalty", 0 if exempt else amounts.okey_taken, detail)
    if kind is PenaltyKind.DISCARD_USED:
        tile = event.tile if event.tile is not None else hand.okey_number
        factor = rules.discard_used.factor(event.used_for, event.okey)
        detail.update(tile=tile, used_for=event.used_for.value, okey=event.okey, factor=factor)
        return Step("penalty", tile * factor, detail)
    return Step("penalty", getattr(amounts, kind.value), detail)
