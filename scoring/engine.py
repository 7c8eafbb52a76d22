"""The arithmetic: one hand and one ruleset → each seat's score as ordered steps.

Follows RULES.md, "A player's hand score": base, then opening bonus, then penalty events.
Every step is kept, so the sum of a seat's steps is its score and the UI can print the sentence.
"""

from __future__ import annotations

from scoring.hands import islek_by_tile, partner_writes_zero, validate_hand
from scoring.model import (
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
    kind = finish_kind(hand)
    row = rules.finishes[kind]
    breakdown = tuple(
        tuple(_seat_steps(hand, rules, kind, row, index)) for index in range(len(hand.players))
    )
    scores = tuple(sum(step.points for step in steps) for steps in breakdown)
    team_scores = (scores[0] + scores[2], scores[1] + scores[3]) if hand.teams else None
    return HandResult(kind, scores, team_scores, breakdown)


def finish_kind(hand: Hand) -> FinishKind:
    """RULES.md, "The finish kind": from the finisher's opening and the two flags."""
    if hand.finisher is None:
        return FinishKind.NONE
    if hand.players[hand.finisher].opened is Opened.PAIRS:
        if hand.kafa:  # "pairs | any | yes": a pairs kafa, okey or not
            return FinishKind.PAIRS_KAFA
        return FinishKind.PAIRS_OKEY if hand.okey_finish else FinishKind.PAIRS
    if hand.okey_finish:
        return FinishKind.OKEY_KAFA if hand.kafa else FinishKind.OKEY
    return FinishKind.KAFA if hand.kafa else FinishKind.NORMAL


def _seat_steps(hand: Hand, rules: Ruleset, kind: FinishKind, row: FinishRow, index: int):
    seat = hand.players[index]
    if index == hand.finisher:
        yield Step("winner", row.winner, {"finish": kind.value})
        yield from _opening_bonus(rules, seat)
    elif partner_writes_zero(hand, rules, index):
        # The partner writes 0 and earns no bonus; only their own penalty events still count.
        yield Step("partner_zero", 0, {"finisher": hand.finisher})
    elif seat.opened is Opened.NO:
        yield from _not_opened(hand, rules, kind, row, index)
    else:
        yield from _opened_loser(hand, rules, kind, row, index)
        yield from _opening_bonus(rules, seat)
    for event in seat.penalties:
        yield _penalty(hand, rules, index, event)


def _not_opened(hand: Hand, rules: Ruleset, kind: FinishKind, row: FinishRow, index: int):
    seat = hand.players[index]
    amount = row.not_opened
    yield Step("not_opened", amount, {"finish": kind.value})
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


def _opened_loser(hand: Hand, rules: Ruleset, kind: FinishKind, row: FinishRow, index: int):
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
        "multiplier": row.opened_multiplier,
        "finish": kind.value,
    }
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
