"""Rulesets from JSON: `deep_merge` for preset overrides and `validate_ruleset` for the result.

Custom rulesets come from players, so everything is checked — type, presence, unknown keys and
bounds — and every failure is an InvalidHand naming the path, e.g. "rules.finishes.okey.winner".
The bounds below are this package's decisions (RULES.md only asks for sane values):
multipliers and factors are 1..100, amounts 0..100000, a winner's points and bonus points
-100000..0. Together they keep any score far inside a 32-bit integer.
"""

from __future__ import annotations

import copy
from typing import Any

from scoring.checks import (
    check_keys,
    expect_bool,
    expect_choice,
    expect_int,
    expect_list,
    expect_object,
    expect_optional_int,
    expect_str,
    join,
)
from scoring.errors import invalid
from scoring.model import (
    FACE,
    MAX_REMAINING,
    PENALTY_AMOUNT_KEYS,
    BonusTier,
    DiscardUsed,
    FinishKind,
    FinishRow,
    OkeyLeft,
    OpeningRules,
    PairOpenerOver,
    Penalties,
    Raising,
    Ruleset,
    TeamRules,
)

MAX_MULTIPLIER = 100
MAX_AMOUNT = 100_000
MATCH_LENGTHS = (1, 3, 5, 7, 9, 11, 13)

RULESET_KEYS = (
    "name",
    "finishes",
    "kafa_requires_nobody_opened",
    "pair_opener_multiplier",
    "pair_opener_over",
    "okey_left",
    "teams",
    "cezali",
    "penalties",
    "discard_used",
    "cifte_devam_factor",
    "opening_bonus",
    "opening",
    "tiles_dealt",
    "hands",
)
# Every ruleset has these rows; `pairs_kafa` only where the table allows "çiftten kafa".
REQUIRED_FINISHES = tuple(kind.value for kind in FinishKind if kind is not FinishKind.PAIRS_KAFA)
OPTIONAL_FINISHES = (FinishKind.PAIRS_KAFA.value,)


def deep_merge(base: dict, override: dict) -> dict:
    """`base` with `override` merged in key by key: nested objects merge, anything else replaces.

    Neither argument is modified and the result shares no mutable part with them.
    """
    merged = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def validate_ruleset(data: Any, field: str = "rules") -> Ruleset:
    """A full ruleset dict (every key of presets.json) → Ruleset, or InvalidHand."""
    data = expect_object(data, field)
    check_keys(data, field, RULESET_KEYS)
    at = _path(field)
    name = expect_str(data["name"], at("name"))
    if not name.strip():
        raise invalid("empty_value", at("name"))
    return Ruleset(
        name=name,
        finishes=_finishes(data["finishes"], at("finishes")),
        kafa_requires_nobody_opened=expect_bool(
            data["kafa_requires_nobody_opened"], at("kafa_requires_nobody_opened")
        ),
        pair_opener_multiplier=_multiplier(
            data["pair_opener_multiplier"], at("pair_opener_multiplier")
        ),
        pair_opener_over=_pair_opener_over(data["pair_opener_over"], at("pair_opener_over")),
        okey_left=_okey_left(data["okey_left"], at("okey_left")),
        teams=_teams(data["teams"], at("teams")),
        cezali=expect_bool(data["cezali"], at("cezali")),
        penalties=_penalties(data["penalties"], at("penalties")),
        discard_used=_discard_used(data["discard_used"], at("discard_used")),
        cifte_devam_factor=(
            None
            if data["cifte_devam_factor"] is None
            else _multiplier(data["cifte_devam_factor"], at("cifte_devam_factor"))
        ),
        opening_bonus=_opening_bonus(data["opening_bonus"], at("opening_bonus")),
        opening=_opening(data["opening"], at("opening")),
        tiles_dealt=expect_choice(data["tiles_dealt"], at("tiles_dealt"), MAX_REMAINING),
        hands=_hands(data["hands"], at("hands")),
    )


def _path(field: str):
    return lambda key: join(field, key)


def _multiplier(value: Any, field: str) -> int:
    return expect_int(value, field, 1, MAX_MULTIPLIER)


def _amount(value: Any, field: str) -> int:
    return expect_int(value, field, 0, MAX_AMOUNT)


def _credit(value: Any, field: str) -> int:
    """Points written in the player's favour (a winner's, a bonus): never positive."""
    return expect_int(value, field, -MAX_AMOUNT, 0)


def _finishes(value: Any, field: str) -> dict[FinishKind, FinishRow]:
    table = expect_object(value, field)
    check_keys(table, field, REQUIRED_FINISHES, OPTIONAL_FINISHES)
    rows = {}
    for key, row in table.items():
        kind = FinishKind(key)
        row_field = join(field, key)
        at = _path(row_field)
        row = expect_object(row, row_field)
        # Nobody wins when nobody finished: the `none` row has no winner figure.
        keys = ("opened_multiplier", "not_opened")
        if kind is not FinishKind.NONE:
            keys += ("winner",)
        check_keys(row, row_field, keys)
        rows[kind] = FinishRow(
            opened_multiplier=_multiplier(row["opened_multiplier"], at("opened_multiplier")),
            not_opened=_amount(row["not_opened"], at("not_opened")),
            winner=_credit(row["winner"], at("winner")) if "winner" in keys else None,
        )
    return rows


def _pair_opener_over(value: Any, field: str) -> PairOpenerOver | None:
    if value is None:
        return None
    data = expect_object(value, field)
    check_keys(data, field, ("threshold", "penalty"))
    return PairOpenerOver(
        threshold=_amount(data["threshold"], join(field, "threshold")),
        penalty=_amount(data["penalty"], join(field, "penalty")),
    )


def _okey_left(value: Any, field: str) -> OkeyLeft:
    data = expect_object(value, field)
    check_keys(data, field, ("counts", "penalty", "fake_too"))
    counts = data["counts"]
    if isinstance(counts, str) and counts != FACE:
        raise invalid(
            "invalid_choice", join(field, "counts"), choices=[f"“{FACE}”", f"0–{MAX_AMOUNT}"]
        )
    if counts != FACE:
        counts = _amount(counts, join(field, "counts"))
    return OkeyLeft(
        counts=counts,
        penalty=_amount(data["penalty"], join(field, "penalty")),
        fake_too=expect_bool(data["fake_too"], join(field, "fake_too")),
    )


def _teams(value: Any, field: str) -> TeamRules:
    data = expect_object(value, field)
    check_keys(data, field, ("winner_partner_zero", "kafa_halving"))
    return TeamRules(
        winner_partner_zero=expect_bool(
            data["winner_partner_zero"], join(field, "winner_partner_zero")
        ),
        kafa_halving=expect_bool(data["kafa_halving"], join(field, "kafa_halving")),
    )


def _penalties(value: Any, field: str) -> Penalties:
    data = expect_object(value, field)
    check_keys(data, field, (*PENALTY_AMOUNT_KEYS, "okey_taken_partner_exempt"))
    amounts = {}
    for key in PENALTY_AMOUNT_KEYS:
        hi = MAX_MULTIPLIER if key == "islek_taken_factor" else MAX_AMOUNT
        lo = 1 if key == "islek_taken_factor" else 0
        amounts[key] = expect_optional_int(data[key], join(field, key), lo, hi)
    exempt = expect_bool(
        data["okey_taken_partner_exempt"], join(field, "okey_taken_partner_exempt")
    )
    return Penalties(**amounts, okey_taken_partner_exempt=exempt)


def _discard_used(value: Any, field: str) -> DiscardUsed | None:
    if value is None:
        return None
    data = expect_object(value, field)
    keys = ("series", "pairs", "okey_series", "okey_pairs")
    check_keys(data, field, keys)
    return DiscardUsed(
        **{key: expect_int(data[key], join(field, key), 0, MAX_MULTIPLIER) for key in keys}
    )


def _opening_bonus(value: Any, field: str) -> tuple[BonusTier, ...] | None:
    if value is None:
        return None
    tiers = []
    for index, item in enumerate(expect_list(value, field)):
        tier_field = f"{field}[{index}]"
        data = expect_object(item, tier_field)
        check_keys(data, tier_field, ("series", "pairs", "points"))
        tier = BonusTier(
            series=expect_int(data["series"], join(tier_field, "series"), 1, MAX_AMOUNT),
            pairs=expect_int(data["pairs"], join(tier_field, "pairs"), 1, MAX_AMOUNT),
            points=_credit(data["points"], join(tier_field, "points")),
        )
        # Increasing tiers make "the highest tier reached" mean the same for both openings.
        if tiers and (tier.series <= tiers[-1].series or tier.pairs <= tiers[-1].pairs):
            raise invalid("tiers_not_increasing", tier_field)
        tiers.append(tier)
    return tuple(tiers)


def _opening(value: Any, field: str) -> OpeningRules:
    data = expect_object(value, field)
    check_keys(data, field, ("series", "pairs", "raising"))
    raising = expect_choice(data["raising"], join(field, "raising"), [r.value for r in Raising])
    return OpeningRules(
        series=expect_int(data["series"], join(field, "series"), 1, MAX_AMOUNT),
        pairs=expect_int(data["pairs"], join(field, "pairs"), 1, MAX_AMOUNT),
        raising=Raising(raising),
    )


def _hands(value: Any, field: str) -> tuple[int, ...]:
    lengths = expect_list(value, field)
    if not lengths:
        raise invalid("empty_value", field)
    seen: set[int] = set()
    for index, length in enumerate(lengths):
        length = expect_choice(length, f"{field}[{index}]", MATCH_LENGTHS)
        if length in seen:
            raise invalid("duplicate_value", f"{field}[{index}]", value=length)
        seen.add(length)
    return tuple(lengths)
