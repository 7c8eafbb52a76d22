"""Çetele's scoring engine: 101 Okey hand scores, exactly as ../shared/RULES.md states them.

Plain Python, standard library only, no Django and no I/O. Every score the web app shows comes
from here.

Typed API
    score_hand(hand: Hand, rules: Ruleset) -> HandResult       validates, then scores
    validate_ruleset(data: dict) -> Ruleset                     a JSON ruleset, checked; keys it
                                                                predates filled in as off
    ruleset_for(spec) -> Ruleset                                like resolve_rules, typed, cached
    ruleset_from_text(text) -> Ruleset                          ruleset_for its JSON text, cached
                                                                by the text
    finish_kind(hand, rules=None) -> FinishKind                 rules: for elden + çift + okey
    Hand, SeatInput, PenaltyEvent, Opened, PenaltyKind, FinishKind (enums are StrEnums)
    HandResult(finish, scores, team_scores, breakdown), Step(rule, points, detail)

JSON contract (RULES.md, "The interface")
    score_json(request: dict) -> dict     {"finish", "scores", "team_scores", "breakdown"}
    score_hand_json(hand, rules: Ruleset, teams=False) -> dict   the same, rules resolved
    resolve_rules(spec) -> dict           slug | full ruleset | {"preset", "override"} → full dict
    deep_merge(base, override) -> dict    nested objects merge, everything else replaces
    InvalidHand                           .code (English), .field (JSON path), .message (Turkish),
                                          .message_in(lang) ("tr" | "en", rendered when shown),
                                          .page_message(lang, names): a page's sentence, the
                                          players by name, no JSON words
    InvalidRuleset(InvalidHand)           a bad ruleset: `except InvalidHand` still catches
                                          everything invalid in a request
    PRESETS                               slug → Preset(slug, name_tr, description_tr, name_en,
                                          description_en, rules)
    python -m scoring score [FILE] | presets | bench

The ruleset declaration (scoring.parameters)
    DECLARATION: every ruleset parameter once (Param: path, type, default, bounds, choices,
    section, Turkish and English label and help; Group: a rule that can be off as a whole).
    It drives validation (normalize), and gives the web its editor fields, rules pages and
    marks: sections(), value_at(rules, path), show(item, value, lang), differences(a, b).

Words for the UI, Turkish "tr" and English "en" (scoring.labels re-exports them)
    scoring.names: finish_name(kind, lang), penalty_name, colour_name
    scoring.sentences: describe_step(step, lang), format_breakdown(steps, lang)
    e.g. "107 × 2 (çift açtı) × 2 (okeyle bitiş) + 101 (100'ü geçti) = 529"
    scoring.messages: error messages (the field names re-exported from scoring.fields)
    scoring.fields: a field path or ruleset path in words, for the contract or a page
    scoring.turkish: suffixed(word or number, case), accusative, genitive, capitalize (i → İ)
    scoring.vocabulary: the game's words, one for each thing, and the variants retired

Breakdown steps: each rule's step, in order, with what its detail holds: scoring.engine.

Tournaments (draw, schedule, pairings, standings, knock-out, tek rounds) are not scored here: their
pure engine lives beside its concept, cetele.tournaments.engine.

Where RULES.md is ambiguous or silent — what this package decided
 1. pair_opener_over compares the raw tiles (okeys included, before any multiplier) and is added
    after the multipliers, never multiplied (RULES.md says so; the 529 vector agrees).
 2. The okey-left penalty is charged only to opened losers whose tiles are counted: a player who
    did not open pays the fixed not_opened amount and nothing for okeys in hand (RULES.md lists
    it under "a player who opened"). Their okeys still count toward "2 in the whole hand".
 3. The opening bonus goes to every seat that opened and entered `opening` — the finisher too,
    cezalı or not — but not to the finisher's partner who writes 0: that partner scores only
    their own penalty events ("writes 0 ... penalty events still count").
 4. With teams and winner_partner_zero false, the finisher's partner is an ordinary loser.
 5. Kafa halving applies to the whole not-opened amount, after a çifte devam factor
    ((202 × 2 + 1) // 2), and only to non-openers (RULES.md puts it in that bullet only).
    "The partner opened" counts either kind of opening, and the partner being the finisher.
 6. Çifte devam only changes the score of a player who did not open; declared by a pair opener
    (or by a finisher who opened pairs) it is allowed and changes nothing.
 7. `opening` may only be entered for a seat that opened (opening_not_opened otherwise); it must
    reach the opening base for that kind of opening; a pairs opening may not exceed the pairs
    that leave a tile in hand: tiles_dealt // 2 (10 with 21 tiles, 7 with 14; RULES.md's fix of
    the earlier (tiles_dealt + 1) // 2). Raising (`opening.raising`) is shown to players and not
    checked: the order of openings within a hand is not entered.
 8. Opening bonus tiers must strictly increase in both series and pairs, so "the highest tier
    reached" is simply the last one reached; bonus points and winner points are ≤ 0.
 9. `remaining` defaults to 0 like the other seat fields (the contract's defaults); RULES.md's
    "required for every non-finisher who opened" is left to the form. For a non-opener (and the
    partner who writes 0) it is still range-checked, then ignored. `finisher` is required in a
    hand (null for "kimse bitmedi"): a forgotten finisher would silently change every score.
10. okey_number is required only when a score needs it: a fake okey left in a counted hand, a real
    okey left in a counted hand when okeys count their face (always on a cezasız table), or an
    okey discard_used event without a tile. A hand is not counted on a row with `opened_flat`:
    that amount is an opened loser's whole base, whatever they hold. When given it must be 1–13
    even if unused.
11. islek_discard is allowed when the amount that applies is set: taken + islek_taken_factor →
    tile × factor (tile required), otherwise penalties.islek_discard. A tile given otherwise is
    range-checked and not used.
12. okey_taken needs `by` (another seat, 0-based like every seat in JSON); the partner exemption
    applies only with teams. The exempt event stays in the breakdown with 0 points.
13. Cezasız: only `custom` events are accepted (others are refused, not silently dropped); no
    okey-left penalty; okeys left count their face value; discard_used is off.
14. `custom` points may be any integer from −100000 to 100000 (negative too: a credit); the
    engine owns the bound, forms check only the type. `note` is optional text.
15. Nobody finished ("none"): pair openers still get pair_opener_multiplier and the over-100
    penalty, and okeys left their penalty, exactly as with any other finish row.
16. A pairs opener finishing kafa is `pairs_kafa` whatever okey_finish says ("pairs | any | yes").
    kafa_requires_nobody_opened counts every other seat, the partner included.
17. In JSON an optional field given as null is the same as omitted; booleans are not integers,
    and 2.0 is not an integer.
18. A ruleset given as {"preset", "override"}: errors name the path in the merged ruleset
    ("rules.finishes.okey.winner"), not "rules.override...". An override may replace a null
    section (e.g. discard_used) only with a complete object. finishes.none has no winner.
19. Custom ruleset bounds (not in RULES.md, except the extensions' 1–100): multipliers and
    factors 1–100, amounts 0–100000,
    winner and bonus points −100000–0, discard_used factors 0–100, match lengths from
    1, 3, 5, …, 13 without repeats. Scores then stay far inside 32 bits (custom penalties aside).
20. Messages name seats 1-based ("Oyuncu 3"); `field` paths are 0-based like the JSON
    ("hand.players[2].remaining"). A page names the players instead (`page_message`).
21. Errors are reported one at a time, in RULES.md's order (request shape, seats, teams,
    finisher, okey_number range, each seat, okey totals, okey_number presence).

22. Missing keys: the parameters every ruleset has had since the first version stay required
    (a hand-written ruleset that forgets one gets "missing_field"); every parameter added later
    declares its off value and is filled in when missing — null for riziko, colours and
    last_hand_multiplier, absent for the optional finish rows pairs_kafa and pairs_okey_kafa
    (null is accepted for those rows too, and means the row is off).
23. Riziko and colours (scope "finish") multiply the finish row's three figures by k before
    anything else, so çifte devam and kafa halving apply on top; flat amounts (penalty events,
    okey_left.penalty, pair_opener_over.penalty, the opening bonus) are never multiplied by k.
    Colours (scope "all") and the last hand multiply each seat's whole score, in that order,
    each as its own breakdown step; the finisher's partner who writes 0 stays 0 but their own
    penalty events are multiplied like any seat's.
24. The hand's riziko, colour and last_hand are always accepted and ignored where the ruleset
    lacks the rule; colour is required (colour_required) only when the ruleset has colours.
    A hand entered with okey_finish and kafa by a pairs opener is pairs_okey_kafa only where the
    ruleset has that row; the row is allowed only beside pairs_kafa
    (pairs_okey_kafa_without_pairs_kafa).
25. A bad ruleset raises InvalidRuleset, a subclass of InvalidHand, so RULES.md's contract
    (`except scoring.InvalidHand` catches whatever is invalid in a request) holds while the
    editor can tell a ruleset's mistake from a hand's. Messages are rendered when shown
    (message_in), never in both languages on every raise.

Speed: rulesets are cached (per preset slug, and per ruleset object by its canonical JSON), so
a preview costs one parse, one validation of the hand and the arithmetic: ~23 µs with a slug,
~36 µs with a match's frozen ruleset object (`python -m scoring bench`).
"""

from scoring.contract import (
    resolve_rules,
    ruleset_for,
    ruleset_from_text,
    score_hand_json,
    score_json,
)
from scoring.engine import score_hand
from scoring.errors import InvalidHand, InvalidRuleset
from scoring.hands import finish_kind, parse_hand, validate_hand
from scoring.labels import describe_step, finish_name, format_breakdown
from scoring.model import (
    FinishKind,
    Hand,
    HandResult,
    Opened,
    PenaltyEvent,
    PenaltyKind,
    Ruleset,
    SeatInput,
    Step,
)
from scoring.presets import PRESETS, Preset
from scoring.rules import deep_merge, validate_ruleset

__all__ = [
    "PRESETS",
    "FinishKind",
    "Hand",
    "HandResult",
    "InvalidHand",
    "InvalidRuleset",
    "Opened",
    "PenaltyEvent",
    "PenaltyKind",
    "Preset",
    "Ruleset",
    "SeatInput",
    "Step",
    "deep_merge",
    "describe_step",
    "finish_kind",
    "finish_name",
    "format_breakdown",
    "parse_hand",
    "resolve_rules",
    "ruleset_for",
    "ruleset_from_text",
    "score_hand",
    "score_hand_json",
    "score_json",
    "validate_hand",
    "validate_ruleset",
]
