"""The house-rule editor's form, built from the engine's declaration of every ruleset parameter
(`scoring.parameters`): one field per parameter, a switch per rule that can be off as a whole.

Field names are the ruleset's paths joined by "__" ("finishes__okey__winner"), so an engine
error's path names its field. The form checks only shape and type (a number is a number, a
switched-on rule has its fields); the engine (`scoring.resolve_rules`) owns every bound and
rule, and its message is shown beside the field it names, in the page's language.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from django import forms
from django.utils.translation import gettext_lazy as _

import scoring
from cetele.shell.language import engine_lang
from cetele.shell.names import LinesField, NameField
from scoring import parameters as p
from scoring.labels import human_field
from scoring.turkish import capitalize

TIER_ROWS = 3  # the editor offers three opening-bonus tiers
SIGNED = {"autocomplete": "off", "class": "num"}  # a minus sign must be typeable
UNSIGNED = {"inputmode": "numeric", "autocomplete": "off", "class": "num"}
SWITCH, MODE = "on", "mode"


def rule_field(*path: object) -> str:
    """The editor's field name for a ruleset path: ("finishes", "okey", "winner") →
    "finishes__okey__winner", so that an engine error's path names its field."""
    return "__".join(str(part) for part in path)


def name_of(path: str, *suffix: object) -> str:
    return rule_field(*path.split("."), *suffix)


def _number(label, help_text="", *, required=True, signed=False, described_by=""):
    attrs = dict(SIGNED if signed else UNSIGNED)
    if described_by:  # a table cell: its column's explanation, shown once above the table
        attrs["aria-describedby"] = described_by
    return forms.IntegerField(
        label=label, help_text=help_text, required=required, widget=forms.NumberInput(attrs)
    )


def _switch(label, help_text="") -> forms.BooleanField:
    return forms.BooleanField(label=label, help_text=help_text, required=False)


def _fields_for(item: p.Param | p.Group, lang: str) -> dict[str, forms.Field]:
    """The form fields of one declared parameter (Group: its switch)."""
    label, help_text = item.text("label", lang), item.text("help", lang)
    name = name_of(item.path)
    if isinstance(item, p.Group):
        return {name_of(item.path, SWITCH): _switch(label, help_text)}
    # A field of a switched rule is required only when its switch is on (checked in clean).
    required = not item.nullable and p.group_of(item.path) is None
    if item.path.startswith("finishes."):
        column = item.key
        return {
            name: _number(
                label, required=required, signed=item.signed, described_by=f"help-{column}"
            )
        }
    kind = item.type
    if kind == p.INT:
        return {name: _number(label, help_text, required=required, signed=item.signed)}
    if kind == p.BOOL:
        return {name: _switch(label, help_text)}
    if kind == p.TEXT:
        return {name: NameField(label=label, help_text=help_text, max_length=80)}
    if kind == p.CHOICE:
        return {
            name: forms.TypedChoiceField(
                label=label,
                help_text=help_text,
                choices=[(choice, text[lang == "en"]) for choice, text in item.choices],
                coerce=type(item.choices[0][0]),
                empty_value=None,
                required=required,
                widget=forms.RadioSelect,
            )
        }
    if kind == p.COUNTS:
        ((face, face_text),) = item.choices
        fixed = _("Sabit bir değer")
        return {
            name_of(item.path) + "_" + MODE: forms.ChoiceField(
                label=label,
                help_text=help_text,
                choices=[(face, face_text[lang == "en"]), ("fixed", fixed)],
                widget=forms.RadioSelect,
            ),
            name: _number(
                _("Okeyin sabit değeri"), _("Yalnızca “sabit bir değer” seçiliyse."), required=False
            ),
        }
    if kind == p.LENGTHS:
        return {
            name: forms.TypedMultipleChoiceField(
                label=label,
                help_text=help_text,
                choices=[(choice, text[lang == "en"]) for choice, text in item.choices],
                coerce=int,
                widget=forms.CheckboxSelectMultiple,
                error_messages={"required": _("En az bir maç uzunluğu seçin.")},
            )
        }
    if kind == p.TIERS:
        return {
            rule_field(item.path, row, column): _number(
                f"{label} {row + 1}"
                if column == "points"  # the tier's bonus itself
                else f"{label} {row + 1} — {text[lang == 'en']}",
                required=False,
                signed=column == "points",
                described_by="help-bonus",
            )
            for row in range(TIER_ROWS)
            for column, text in p.TIER_COLUMNS.items()
        }
    raise AssertionError(f"no field for a {kind} parameter")


@dataclass
class EditorSection:
    """One fieldset of the editor: its plain fields, and the finish table or the tier table."""

    key: str
    title: str
    fields: list = field(default_factory=list)
    finish_rows: list = field(default_factory=list)  # (kind, explanation, [cells or None])
    tier_rows: list = field(default_factory=list)  # [[series, pairs, points] bound fields]
    tier_help: str = ""


class RulesetForm(forms.Form):
    """The house-rule editor: one field per declared ruleset parameter.

    `initial_from_rules` fills it from a ruleset; a valid form has `ruleset`, the full ruleset
    the engine accepted. The prefix keeps its names apart from the match form's.
    """

    prefix = "r"

    description = LinesField(
        label=_("Açıklama"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("İsteğe bağlı: masanızda neyin farklı olduğu."),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lang = engine_lang()
        declared: dict[str, forms.Field] = {}
        for item in p.DECLARATION:
            declared.update(_fields_for(item, self.lang))
        # The name first, then the description, then every other parameter in declared order.
        self.fields = {
            "name": declared.pop("name"),
            "description": self.fields["description"],
            **declared,
        }
        self.ruleset: dict | None = None
        self._tier_rows: list[int] = []

    # --- Layout (the template walks these) ---

    def sections(self) -> list[EditorSection]:
        result = []
        for section, items in p.sections():
            shown = EditorSection(section.key, section.title[self.lang == "en"])
            for item in items:
                if item.path.startswith("finishes.") and isinstance(item, p.Param):
                    continue  # a cell of the finish table
                if isinstance(item, p.Param) and item.type == p.TIERS:
                    shown.tier_rows = self._tier_table(item)
                    shown.tier_help = item.text("help", self.lang)
                    continue
                names = list(_fields_for(item, self.lang))
                shown.fields.extend(self[name] for name in names)
                if item.path == "name":
                    shown.fields.append(self["description"])
            if section.key == "finishes":
                shown.finish_rows = self.finish_rows()
            result.append(shown)
        return result

    def finish_rows(self) -> list[tuple[str, str, list]]:
        """(kind, explanation, [winner, multiplier, not opened] bound fields or None)."""
        rows = []
        for kind in p.FINISH_ORDER:
            cells = [
                self[name]
                if (name := rule_field("finishes", kind, column)) in self.fields
                else None
                for column in p.FINISH_COLUMNS
            ]
            explanation = p.FINISH_HELP[kind][self.lang == "en"]
            if kind in p.OPTIONAL_FINISHES:
                switch = p.GROUPS[f"finishes.{kind}"].text("label", self.lang)
                explanation = _("%(what)s — yalnızca “%(switch)s” işaretliyse") % {
                    "what": explanation,
                    "switch": switch,
                }
            rows.append((kind, explanation, cells))
        return rows

    def finish_columns(self) -> list[tuple[str, str, str]]:
        """(column, heading, explanation) of the finish table."""
        en = self.lang == "en"
        return [(c, p.COLUMN_LABELS[c][en], p.COLUMN_HELP[c][en]) for c in p.FINISH_COLUMNS]

    def tier_columns(self) -> list[str]:
        return [text[self.lang == "en"] for text in p.TIER_COLUMNS.values()]

    def _tier_table(self, item: p.Param) -> list[list]:
        return [
            [self[rule_field(item.path, row, column)] for column in p.TIER_COLUMNS]
            for row in range(TIER_ROWS)
        ]

    # --- From a ruleset and back ---

    @staticmethod
    def initial_from_rules(rules: Mapping, *, name: str | None = None) -> dict:
        """Initial values from a ruleset dict (a preset's, a house preset's, a match's); a
        parameter the ruleset predates shows its default (off)."""
        initial: dict = {}
        for item in p.DECLARATION:
            value = p.value_at(rules, item.path, None)
            if isinstance(item, p.Group):
                initial[name_of(item.path, SWITCH)] = value is not None
            elif item.type == p.COUNTS:
                fixed = value is not None and value != p.FACE
                initial[name_of(item.path) + "_" + MODE] = "fixed" if fixed else p.FACE
                initial[name_of(item.path)] = value if fixed else None
            elif item.type == p.TIERS:
                for row, tier in enumerate((value or [])[:TIER_ROWS]):
                    for column in p.TIER_COLUMNS:
                        initial[rule_field(item.path, row, column)] = tier.get(column)
            elif item.type == p.LENGTHS:
                initial[name_of(item.path)] = list(value or [])
            else:
                initial[name_of(item.path)] = value
        if name is not None:
            initial["name"] = name
        return initial

    def clean(self) -> dict:
        cleaned = super().clean()
        for group in p.GROUPS.values():
            if cleaned.get(name_of(group.path, SWITCH)):
                self._require(
                    [name_of(item.path) for item in p.params_of(group) if not item.nullable]
                )
        for item in p.PARAMS.values():
            if item.type == p.COUNTS and cleaned.get(name_of(item.path) + "_" + MODE) == "fixed":
                self._require([name_of(item.path)])
        self._tier_rows = self._filled_tier_rows()
        if self.errors:
            return cleaned
        try:
            self.ruleset = scoring.resolve_rules(self.build_rules(cleaned))
        except scoring.InvalidHand as error:
            self.add_engine_error(error)
        return cleaned

    def _require(self, names: list[str]) -> None:
        for name in names:
            if name not in self.errors and self.cleaned_data.get(name) is None:
                self.add_error(name, self.fields[name].error_messages["required"])

    def _filled_tier_rows(self) -> list[int]:
        """Indexes of the tier rows filled in; a half-filled row is an error."""
        filled = []
        for row in range(TIER_ROWS):
            names = [rule_field("opening_bonus", row, column) for column in p.TIER_COLUMNS]
            if any(name in self.errors for name in names):
                continue
            values = [self.cleaned_data.get(name) for name in names]
            if all(value is None for value in values):
                continue
            if any(value is None for value in values):
                for name, value in zip(names, values, strict=True):
                    if value is None:
                        self.add_error(
                            name,
                            _("Bu kademenin üç değerini de girin ya da hepsini boş bırakın."),
                        )
                continue
            filled.append(row)
        return filled

    def build_rules(self, cleaned: dict) -> dict:
        """The full ruleset dict the fields describe (not yet validated by the engine)."""
        rules: dict = {}
        for item in p.DECLARATION:
            group = p.group_of(item.path)
            if group is not None and not cleaned.get(name_of(group.path, SWITCH)):
                continue  # a field of a rule that is off
            if isinstance(item, p.Group):
                if cleaned.get(name_of(item.path, SWITCH)):
                    _put(rules, item.path, {})
                elif item.off_value is not p.ABSENT:
                    _put(rules, item.path, None)
            elif item.type == p.COUNTS:
                face = cleaned.get(name_of(item.path) + "_" + MODE) == p.FACE
                _put(rules, item.path, p.FACE if face else cleaned.get(name_of(item.path)))
            elif item.type == p.TIERS:
                tiers = [
                    {c: cleaned[rule_field(item.path, row, c)] for c in p.TIER_COLUMNS}
                    for row in self._tier_rows
                ]
                _put(rules, item.path, tiers or None)
            elif item.type == p.LENGTHS:
                _put(rules, item.path, sorted(cleaned.get(name_of(item.path)) or []))
            else:
                value = cleaned.get(name_of(item.path))
                if value is None and item.default is p.ABSENT:
                    continue  # an optional figure left empty stays out, as the presets have it
                _put(rules, item.path, value)
        return rules

    def field_for_path(self, path: str) -> str | None:
        """The field an engine error path names: "rules.finishes.okey.winner" →
        "finishes__okey__winner"; "rules.opening_bonus[1].series" → the form row it came from;
        a rule that is off or on as a whole → its switch."""
        path = path.removeprefix("rules").removeprefix(".")
        tier = re.fullmatch(r"opening_bonus\[(\d+)\](?:\.(\w+))?", path)
        if tier and int(tier[1]) < len(self._tier_rows):
            column = tier[2] if tier[2] in p.TIER_COLUMNS else "series"
            return rule_field("opening_bonus", self._tier_rows[int(tier[1])], column)
        name = re.sub(r"\[\d+\]", "", path).replace(".", "__")
        while name:
            for candidate in (name, rule_field(name, SWITCH), f"{name}_{MODE}"):
                if candidate in self.fields:
                    return candidate
            name = name.rpartition("__")[0]
        return None

    def add_engine_error(self, error) -> None:
        """Show the engine's message next to the field it names (without naming it again)."""
        message = error.page_message(self.lang)
        where = human_field(error.field, self.lang, page=True)
        question = where.endswith("?") and message.startswith(where + " ")
        if message.startswith(where + ": ") or question:
            message = capitalize(message[len(where) :].lstrip(": "), self.lang)
        elif message.startswith(where + " "):
            message = _("Bu değer") + message[len(where) :]
        self.add_error(self.field_for_path(error.field), message)

    def error_lines(self) -> list[str]:
        """Every error as "Label: message", for the summary above the form."""
        lines = [str(error) for error in self.non_field_errors()]
        for name, errors in self.errors.items():
            if name in self.fields:
                label = str(self.fields[name].label)
                lines.extend(f"{label_before(label)} {error}" for error in errors)
        return lines


def label_before(label: str) -> str:
    """A label before what follows it: "Sınır:", but a question keeps its own mark ("Maç kaç el
    olabilir?", never "…?:")."""
    return label if label.endswith(("?", ":", "!")) else f"{label}:"


def _put(rules: dict, path: str, value) -> None:
    """rules[a][b][c] = value for the path "a.b.c", making the objects on the way."""
    *heads, last = path.split(".")
    node = rules
    for head in heads:
        node = node.setdefault(head, {})
    node[last] = value


class SeenForm(forms.Form):
    """The preset as the editor page showed it (HousePreset.seen), sent back with a save."""

    prefix = "r"

    seen = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
