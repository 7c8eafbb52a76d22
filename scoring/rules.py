"""Rulesets from JSON: `deep_merge` for preset overrides and `validate_ruleset` for the result.

The shape, types and bounds of every parameter come from its declaration
(`scoring.parameters`); the rules that span parameters are the named checks below. Every
failure is an InvalidRuleset naming the path, e.g. "rules.finishes.okey.winner".
"""

from __future__ import annotations

import copy
from typing import Any

from scoring.errors import InvalidHand, InvalidRuleset, invalid
from scoring.model import (
    BonusTier,
    Colour,
    Colours,
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
from scoring.normalize import normalize


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
    """A ruleset dict → Ruleset, or InvalidRuleset. Keys added after a ruleset was stored are
    filled with their defaults (the rule is off)."""
    try:
        rules = normalize(data, field)
        _check_spanning_rules(rules, field)
    except InvalidHand as error:
        raise InvalidRuleset.from_error(error) from None
    return _typed(rules)


def _check_spanning_rules(rules: dict[str, Any], field: str) -> None:
    """The rules no single parameter's declaration can state."""
    finishes = rules["finishes"]
    # Elden + çift + okey refines çiftten kafa: without pairs_kafa a pairs opener cannot
    # finish kafa at all, so the row would never be used.
    if FinishKind.PAIRS_OKEY_KAFA in finishes and FinishKind.PAIRS_KAFA not in finishes:
        raise invalid("pairs_okey_kafa_without_pairs_kafa", f"{field}.finishes.pairs_okey_kafa")


def _typed(rules: dict[str, Any]) -> Ruleset:
    over = rules["pair_opener_over"]
    discard_used = rules["discard_used"]
    bonus = rules["opening_bonus"]
    colours = rules["colours"]
    riziko = rules["riziko"]
    penalties = rules["penalties"]
    return Ruleset(
        name=rules["name"],
        finishes={FinishKind(kind): FinishRow(**row) for kind, row in rules["finishes"].items()},
        kafa_requires_nobody_opened=rules["kafa_requires_nobody_opened"],
        pair_opener_multiplier=rules["pair_opener_multiplier"],
        pair_opener_over=None if over is None else PairOpenerOver(**over),
        okey_left=OkeyLeft(**rules["okey_left"]),
        teams=TeamRules(**rules["teams"]),
        cezali=rules["cezali"],
        penalties=Penalties(**penalties),
        discard_used=None if discard_used is None else DiscardUsed(**discard_used),
        cifte_devam_factor=rules["cifte_devam_factor"],
        opening_bonus=None if bonus is None else tuple(BonusTier(**tier) for tier in bonus),
        opening=OpeningRules(
            series=rules["opening"]["series"],
            pairs=rules["opening"]["pairs"],
            raising=Raising(rules["opening"]["raising"]),
        ),
        tiles_dealt=rules["tiles_dealt"],
        hands=tuple(rules["hands"]),
        riziko=None if riziko is None else riziko["multiplier"],
        colours=(
            None
            if colours is None
            else Colours(
                {Colour(c): n for c, n in colours["multipliers"].items()}, colours["scope"]
            )
        ),
        last_hand_multiplier=rules["last_hand_multiplier"],
        json=rules,
    )
