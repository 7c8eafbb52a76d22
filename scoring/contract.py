"""The stable JSON contract of RULES.md, "The interface": `score_json` and `resolve_rules`.

Request: {"rules": SLUG | RULESET | {"preset": SLUG, "override": PARTIAL}, "teams": bool,
"hand": HAND}. Result: {"finish", "scores", "team_scores", "breakdown"}.

`score_json` runs on every HTMX preview, so rulesets are cached: a preset slug is validated once
per process, and a ruleset given as an object is cached by its canonical JSON text (a match sends
its frozen copy of the ruleset with every hand).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from scoring.checks import check_keys, expect_bool, expect_object, expect_str
from scoring.engine import score_hand
from scoring.errors import InvalidHand, InvalidRuleset, invalid
from scoring.hands import parse_hand
from scoring.model import Ruleset
from scoring.presets import PRESETS
from scoring.rules import deep_merge, validate_ruleset

REQUEST_REQUIRED = ("rules", "hand")
REQUEST_OPTIONAL = ("teams",)


def score_json(request: Any) -> dict[str, Any]:
    """Score one JSON request; raises InvalidHand (code, field, message) when it is invalid."""
    data = expect_object(request, "request")
    check_keys(data, "", REQUEST_REQUIRED, REQUEST_OPTIONAL)
    teams = data.get("teams")
    teams = False if teams is None else expect_bool(teams, "teams")
    rules = ruleset_for(data["rules"])
    hand = parse_hand(data["hand"], teams)
    return score_hand(hand, rules).to_json()


def score_hand_json(hand: Any, rules: Ruleset, teams: bool = False) -> dict[str, Any]:
    """`score_json` for a ruleset already resolved (`ruleset_for`, `ruleset_from_text`): the
    same checks of the hand, the same result."""
    return score_hand(parse_hand(hand, teams), rules).to_json()


@lru_cache(maxsize=256)
def ruleset_from_text(text: str) -> Ruleset:
    """`ruleset_for` the JSON text of a ruleset (as a database keeps it), remembered by the text
    itself: `ruleset_for` serialises an object again to know it, which took a quarter of
    scoring a hand. Raises InvalidRuleset (also for text that is not JSON)."""
    try:
        spec = json.loads(text)
    except ValueError:
        error = invalid("wrong_type", "rules", expected="ruleset")
        raise InvalidRuleset.from_error(error) from None
    return ruleset_for(spec)


def resolve_rules(spec: Any) -> dict[str, Any]:
    """The request's "rules" member → the full, validated ruleset dict (a fresh copy).

    A slug names a preset; an object with "preset" merges its "override" into that preset
    (`deep_merge`); any other object is a full ruleset. Errors name paths like
    "rules.finishes.okey.winner" — the path in the merged ruleset, also for an override.
    """
    return ruleset_for(spec).to_json()


def ruleset_for(spec: Any) -> Ruleset:
    """Like `resolve_rules`, but the typed (and cached) Ruleset; raises InvalidRuleset."""
    try:
        return _ruleset_for(spec)
    except InvalidHand as error:  # an unknown slug, a malformed override: the ruleset's fault
        raise InvalidRuleset.from_error(error) from None


def _ruleset_for(spec: Any) -> Ruleset:
    if isinstance(spec, str):
        return _preset_ruleset(_known_slug(spec, "rules"))
    if not isinstance(spec, dict):
        raise invalid("wrong_type", "rules", expected="ruleset")
    key = _cache_key(spec)
    if key is None:  # not plain JSON (e.g. a Python caller's tuple): validate without the cache
        return _ruleset_from_object(spec)
    return _cached_ruleset(key)


def _known_slug(slug: str, field: str) -> str:
    if slug not in PRESETS:
        raise invalid("unknown_preset", field, slug=slug, choices=list(PRESETS))
    return slug


@lru_cache(maxsize=len(PRESETS))
def _preset_ruleset(slug: str) -> Ruleset:
    return validate_ruleset(PRESETS[slug].rules)


@lru_cache(maxsize=256)
def _cached_ruleset(key: str) -> Ruleset:
    # An InvalidHand raised here is not cached: an invalid ruleset is validated again each time.
    return _ruleset_from_object(json.loads(key))


def _cache_key(spec: dict) -> str | None:
    try:
        return json.dumps(spec, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None


def _ruleset_from_object(spec: dict) -> Ruleset:
    if "preset" not in spec:
        return validate_ruleset(spec, "rules")
    check_keys(spec, "rules", ("preset",), ("override",))
    slug = _known_slug(expect_str(spec["preset"], "rules.preset"), "rules.preset")
    override = spec.get("override")
    if override is None:
        return _preset_ruleset(slug)
    override = expect_object(override, "rules.override")
    return validate_ruleset(deep_merge(PRESETS[slug].rules, override), "rules")
