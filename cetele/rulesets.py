"""Rulesets in the shell: where a preset choice comes from, what differs from a base, and the
worked example the preset editor scores with the draft rules.

No score arithmetic here: the example's scores come from `scoring.score_json`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

import scoring
from cetele.language import engine_lang, engine_message
from cetele.models import HOUSE_PREFIX, HousePreset

MAX_TOKEN_LENGTH = 64


@dataclass
class Choice:
    """A preset a match can start from: a built-in (by slug) or a house preset (by view token)."""

    value: str  # the form's value: "cetele-standart" or "house:<view token>"
    name: str
    rules: dict[str, Any]
    house: HousePreset | None = None


def find_choice(value: str | None) -> Choice | None:
    """The built-in or house preset a form value names, or None (unknown, malformed)."""
    if not value or not isinstance(value, str):
        return None
    if value in scoring.PRESETS:
        preset = scoring.PRESETS[value]
        return Choice(value, preset.name_tr, preset.rules)
    if value.startswith(HOUSE_PREFIX):
        house = find_house(value.removeprefix(HOUSE_PREFIX))
        if house is not None:
            return Choice(house.choice_value, house.name, house.rules, house)
    return None


def find_house(view_token: str) -> HousePreset | None:
    if not view_token or len(view_token) > MAX_TOKEN_LENGTH:
        return None
    return HousePreset.objects.filter(view_token=view_token).first()


# --- Differences from a base ruleset ---------------------------------------------------------


def changes(rules: Any, base: Any) -> Any:
    """`rules` shaped as a tree of booleans: True where a value differs from `base`.

    Objects are compared key by key (a key missing from `base` counts as changed); anything
    else — numbers, lists such as `hands` or `opening_bonus`, null — is compared whole. With no
    base at all, nothing is marked. The tree always has the shape of `rules`, so a template can
    look up any key of the rules in it (a failed lookup in a filter argument is an error).
    """
    return _changes(rules, base, compare=isinstance(base, dict))


def _changes(rules: Any, base: Any, *, compare: bool) -> Any:
    if isinstance(rules, dict):
        base = base if isinstance(base, dict) else {}
        return {
            key: _changes(value, base.get(key, _MISSING), compare=compare)
            for key, value in rules.items()
        }
    return compare and rules != base


_MISSING = object()


def any_change(tree: Any) -> bool:
    if isinstance(tree, dict):
        return any(any_change(value) for value in tree.values())
    return bool(tree)


# --- The worked example ----------------------------------------------------------------------

SAMPLE_NAMES = ("Ayşe", "Burak", "Cem", "Deniz")
OKEY_NUMBER = 7
# Kinds the sample hand charges, the first one this ruleset has (simple events, no extra fields).
SAMPLE_PENALTY_KINDS = (
    "islek_discard",
    "okey_discard",
    "take_back",
    "failed_open",
    "side_take_unused",
    "okey_from_per_unused",
)


@dataclass
class SampleHand:
    title: str
    story: list[str]
    hand: dict[str, Any]
    result: dict[str, Any] | None = None
    error: str = ""
    seats: list[tuple[str, int, list]] = field(default_factory=list)


def sample_hands(rules: dict[str, Any]) -> list[SampleHand]:
    """Two fixed hands of four players that touch many rules, adapted only where the draft
    rules would refuse them (an opening value only with a bonus; penalty kinds it has)."""
    ayse, burak, cem, deniz = SAMPLE_NAMES
    okey_hand = SampleHand(
        _("1. örnek: okeyle bitiş"),
        [
            _("%(name)s seri açtı ve okey atarak bitirdi. Okey: %(okey)s.")
            % {"name": ayse, "okey": OKEY_NUMBER},
            _("%(name)s çift açtı; elinde 23 ve bir sahte okey kaldı.") % {"name": burak},
            _("%(name)s seri açtı; elinde 41 ve bir okey kaldı.") % {"name": cem},
            _("%(name)s açamadı.") % {"name": deniz},
        ],
        {
            "finisher": 0,
            "okey_finish": True,
            "kafa": False,
            "okey_number": OKEY_NUMBER,
            "players": [
                {"opened": "series"},
                {"opened": "pairs", "remaining": 23, "fake_okeys": 1},
                {"opened": "series", "remaining": 41, "okeys": 1},
                {"opened": "no"},
            ],
        },
    )

    players: list[dict[str, Any]] = [
        {"opened": "pairs", "remaining": 107},
        {"opened": "series", "remaining": 12},
        {"opened": "series"},
        {"opened": "no"},
    ]
    story = [
        _("%(name)s seri açtı ve normal bitirdi.") % {"name": cem},
        _("%(name)s çift açtı; elinde 107 kaldı.") % {"name": ayse},
        _("%(name)s seri açtı; elinde 12 kaldı.") % {"name": burak},
        _("%(name)s açamadı.") % {"name": deniz},
    ]
    tiers = rules.get("opening_bonus") or []
    opening = rules.get("opening") or {}
    if tiers and isinstance(tiers[0], dict):
        value = max(tiers[-1].get("series", 0), opening.get("series", 0))
        players[2]["opening"] = value
        story[0] = _("%(name)s %(value)s puanla seri açtı ve normal bitirdi.") % {
            "name": cem,
            "value": value,
        }
    penalties = rules.get("penalties") or {}
    if rules.get("cezali"):
        kind = next((k for k in SAMPLE_PENALTY_KINDS if penalties.get(k) is not None), None)
        if kind is not None:
            event: dict[str, Any] = {"kind": kind}
            if kind == "islek_discard":
                event.update(taken=False, tile=5)
            players[1]["penalties"] = [event]
            story[2] = _("%(name)s seri açtı; elinde 12 kaldı. Ceza: %(what)s.") % {
                "name": burak,
                "what": scoring.labels.penalty_name(kind, engine_lang()),
            }
        if rules.get("discard_used"):
            players[3]["penalties"] = [{"kind": "discard_used", "used_for": "series", "tile": 9}]
            story[3] = _("%(name)s açamadı; attığı 9'u sonraki oyuncu seriye işledi.") % {
                "name": deniz
            }
    if rules.get("cifte_devam_factor"):
        players[3]["cifte_devam"] = True
        story[3] += " " + _("Çifte devam demişti.")
    normal_hand = SampleHand(
        _("2. örnek: normal bitiş"),
        story,
        {"finisher": 2, "okey_finish": False, "kafa": False, "players": players},
    )
    return [okey_hand, normal_hand]


def worked_example(rules: dict[str, Any]) -> list[SampleHand]:
    """The sample hands scored with `rules` (a full ruleset the engine has accepted)."""
    samples = sample_hands(rules)
    for sample in samples:
        try:
            sample.result = scoring.score_json({"rules": rules, "hand": sample.hand})
        except scoring.InvalidHand as error:
            sample.error = engine_message(error)
            continue
        sample.seats = list(
            zip(
                SAMPLE_NAMES,
                sample.result["scores"],
                sample.result["breakdown"],
                strict=True,
            )
        )
    return samples
