"""Rulesets in the shell: where a preset choice comes from, what differs from a base, and the
worked example the preset editor scores with the draft rules.

No score arithmetic here: the example's scores come from `scoring.score_json`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

import scoring
from cetele.models import HOUSE_PREFIX, HousePreset
from cetele.sharing.links import BadLink
from cetele.shell.language import engine_lang
from scoring import parameters

MAX_TOKEN_LENGTH = 64


@dataclass
class Choice:
    """A preset a match can start from: a built-in (by slug) or a house preset (by view token)."""

    value: str  # the form's value: "cetele-standart" or "house:<view token>"
    name: str
    rules: dict[str, Any]
    house: HousePreset | None = None

    @property
    def ruleset(self) -> scoring.Ruleset:
        """The engine's typed form of these rules (the engine keeps each one it has read)."""
        return scoring.ruleset_for(self.rules)


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


def house_by_token(field: str, token: str) -> HousePreset:
    """The house preset this link opens; a miss counts against the address like a match's."""
    try:
        house = HousePreset.objects.get(**{field: token})
    except HousePreset.DoesNotExist as error:
        raise BadLink() from error
    house.touch()  # at most one write a day: a preset people open is not forgotten
    return house


# --- A ruleset as the rules pages show it -----------------------------------------------------


@dataclass
class RuleRow:
    """One line of a rules page: a parameter's label, its value as text, and whether it differs
    from the base ruleset. (The one-line help is the editor's: it speaks of ticking boxes.)"""

    path: str
    label: str
    value: str
    changed: bool


@dataclass
class RulesSection:
    key: str
    title: str
    rows: list[RuleRow] = field(default_factory=list)
    # The finish table: (kind, [(text, changed) per column]) in RULES.md's order.
    finish_rows: list[tuple[str, list[tuple[str, bool]]]] = field(default_factory=list)


@dataclass
class ShownRules:
    sections: list[RulesSection]
    changed: bool  # anything differs from the base
    columns: list[str]  # the finish table's column headings


def differences(rules: Any, base: Any) -> frozenset[str]:
    """The declared paths whose values differ from `base` (none without a base); a parameter
    a stored ruleset predates counts at its default, so it never differs for that alone."""
    if not isinstance(rules, dict) or not isinstance(base, dict):
        return frozenset()
    return parameters.differences(rules, base)


def shown_rules(rules: dict[str, Any], base: dict[str, Any] | None = None) -> ShownRules:
    """Every section of the declaration, with each parameter's value as the page writes it and
    a mark where it differs from `base`. Built from the declaration only: a new parameter
    appears here without touching this function or the template."""
    lang = engine_lang()
    changed = differences(rules, base)
    sections = []
    for section, items in parameters.sections():
        if section.key == "name":
            continue  # the page's title
        shown = RulesSection(section.key, section.title[lang == "en"])
        for item in items:
            group = parameters.group_of(item.path)
            if group is not None or item.path.startswith("finishes."):
                continue  # shown by its group's summary, or in the finish table
            value = parameters.value_at(rules, item.path, None)
            differs = item.path in changed
            if isinstance(item, parameters.Group):
                differs = differs or any(path.startswith(item.path + ".") for path in changed)
            shown.rows.append(
                RuleRow(
                    item.path,
                    item.text("label", lang),
                    parameters.show(item, value, lang),
                    differs,
                )
            )
        if section.key == "finishes":
            shown.finish_rows = _finish_rows(rules, changed, lang)
            shown.rows = [
                RuleRow(
                    group.path,
                    group.text("label", lang),
                    parameters.show(group, parameters.value_at(rules, group.path, None), lang),
                    group.path in changed,
                )
                for group in parameters.GROUPS.values()
                if group.section == "finishes"
            ]
        sections.append(shown)
    finish_columns = parameters.shown_columns(rules.get("finishes") or {})
    columns = [parameters.COLUMN_LABELS[c][lang == "en"] for c in finish_columns]
    return ShownRules(sections, bool(changed), columns)


def _finish_rows(rules: dict, changed: frozenset[str], lang: str) -> list:
    finishes = rules.get("finishes") or {}
    rows = []
    for kind in parameters.FINISH_ORDER:
        row = finishes.get(kind)
        if not isinstance(row, dict):
            continue
        whole = f"finishes.{kind}" in changed  # an optional row switched on
        cells = []
        for column in parameters.shown_columns(finishes):
            path = f"finishes.{kind}.{column}"
            if path not in parameters.PARAMS:
                cells.append(("—", False))
                continue
            text = parameters.show(parameters.PARAMS[path], row.get(column), lang)
            if column == "opened_multiplier":
                text = f"×{text}"
            cells.append((text, whole or path in changed))
        rows.append((kind, cells))
    return rows


# --- The worked example ----------------------------------------------------------------------

SAMPLE_NAMES = ("Ayşe", "Burak", "Cem", "Deniz")
OKEY_NUMBER = 7
SAMPLE_COLOURS = ("blue", "red")
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
    rules (a full ruleset the engine has accepted) would refuse them (an opening value only with
    a bonus; penalty kinds it has)."""
    ruleset = scoring.ruleset_for(rules)
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
    if ruleset.opening_bonus:
        value = max(ruleset.opening_bonus[-1].series, ruleset.opening.series)
        players[2]["opening"] = value
        story[0] = _("%(name)s %(value)s puanla seri açtı ve normal bitirdi.") % {
            "name": cem,
            "value": value,
        }
    if ruleset.cezali:
        charged = [k for k in SAMPLE_PENALTY_KINDS if getattr(ruleset.penalties, k) is not None]
        kind = next(iter(charged), None)
        if kind is not None:
            event: dict[str, Any] = {"kind": kind}
            if kind == "islek_discard":
                event.update(taken=False, tile=5)
            players[1]["penalties"] = [event]
            story[2] = _("%(name)s seri açtı; elinde 12 kaldı. Ceza: %(what)s.") % {
                "name": burak,
                "what": scoring.labels.penalty_name(kind, engine_lang()),
            }
        if ruleset.discard_used is not None:
            players[3]["penalties"] = [{"kind": "discard_used", "used_for": "series", "tile": 9}]
            story[3] = _("%(name)s açamadı; attığı 9'u sonraki oyuncu seride kullandı.") % {
                "name": deniz
            }
    if ruleset.cifte_devam_factor:
        players[3]["cifte_devam"] = True
        story[3] += " " + _("Çifte devam demişti.")
    normal_hand = SampleHand(
        _("2. örnek: normal bitiş"),
        story,
        {"finisher": 2, "okey_finish": False, "kafa": False, "players": players},
    )
    _add_house_rules(ruleset, okey_hand, normal_hand)
    return [okey_hand, normal_hand]


def _add_house_rules(ruleset: scoring.Ruleset, first: SampleHand, second: SampleHand) -> None:
    """The house rules the draft has, shown in the samples: the first hand's indicator was a
    fake okey (riziko) and blue (colours); the second is the match's last hand."""
    if ruleset.riziko is not None:
        first.hand["riziko"] = True
        first.story.append(_("Gösterge sahte okeydi (riziko)."))
    if ruleset.colours is not None:
        first.hand["colour"] = SAMPLE_COLOURS[0]
        second.hand["colour"] = SAMPLE_COLOURS[1]
        first.story.append(_("Gösterge maviydi."))
        second.story.append(_("Gösterge kırmızıydı."))
    if ruleset.last_hand_multiplier:
        second.hand["last_hand"] = True
        second.story.append(_("Maçın son eliydi."))


def worked_example(rules: dict[str, Any]) -> list[SampleHand]:
    """The sample hands scored with `rules` (a full ruleset the engine has accepted)."""
    samples = sample_hands(rules)
    for sample in samples:
        try:
            sample.result = scoring.score_json({"rules": rules, "hand": sample.hand})
        except scoring.InvalidHand as error:
            sample.error = error.page_message(engine_lang(), SAMPLE_NAMES)
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
