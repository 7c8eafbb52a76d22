"""Forms: they own validation of everything a user types.

`HandEntry` is the hand sheet: hand-level fields, one `SeatForm` per seat and any number of
`PenaltyForm`s per seat. It turns the forms into the scoring engine's HAND object
(`to_inputs`) and back (`initial_from_inputs`), and maps the engine's `InvalidHand` to the
field it names, so game-rule errors show next to the field like any form error.
"""

import re
import secrets
from collections.abc import Mapping

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

import scoring
from cetele.language import engine_lang, engine_message, preset_name
from cetele.names import NameField
from cetele.rulesets import find_choice
from scoring.labels import PENALTY_NAMES

MAX_PENALTIES_PER_SEAT = 10
NOBODY = "none"  # the finisher choice "kimse bitmedi"
NUMERIC = {"inputmode": "numeric", "pattern": "-?[0-9]*", "autocomplete": "off"}
OPENED_CHOICES = [("no", _("Açmadı")), ("series", _("Seri açtı")), ("pairs", _("Çift açtı"))]
COUNT_CHOICES = [(0, "0"), (1, "1"), (2, "2")]
TILE_CHOICES = [("", "—")] + [(n, str(n)) for n in range(1, 14)]
# Which fields a penalty event of each kind carries (RULES.md, "Penalties").
PENALTY_FIELDS = {
    "islek_discard": ("taken", "tile"),
    "okey_taken": ("by",),
    "discard_used": ("okey", "used_for", "tile"),
    "custom": ("points", "note"),
}


def penalty_label(kind: str) -> str:
    return PENALTY_NAMES[engine_lang()][kind].capitalize()


def enabled_penalty_kinds(rules: Mapping) -> list[str]:
    """The penalty kinds this ruleset charges, in RULES.md's order (never the stored dict's:
    PostgreSQL's jsonb reorders keys); `custom` is allowed on every table."""
    if not rules.get("cezali", True):
        return ["custom"]
    amounts = rules.get("penalties") or {}

    def enabled(kind: str) -> bool:
        if kind == "custom":
            return True
        if kind == "discard_used":
            return bool(rules.get("discard_used"))
        amount = amounts.get(kind)
        return isinstance(amount, int) and not isinstance(amount, bool)

    return [kind for kind in PENALTY_NAMES["tr"] if enabled(kind)]


# --- Starting a match ---------------------------------------------------------------------


def preset_choices() -> list[tuple[str, str]]:
    return [(slug, preset_name(preset)) for slug, preset in scoring.PRESETS.items()]


class MatchForm(forms.Form):
    name_1 = NameField(label=_("1. oyuncu"), max_length=30, initial=_("Oyuncu 1"))
    name_2 = NameField(label=_("2. oyuncu"), max_length=30, initial=_("Oyuncu 2"))
    name_3 = NameField(
        label=_("3. oyuncu"), max_length=30, required=False, initial=_("Oyuncu 3")
    )
    name_4 = NameField(
        label=_("4. oyuncu"), max_length=30, required=False, initial=_("Oyuncu 4")
    )
    teams = forms.BooleanField(
        label=_("Eşli (1. ve 3. oyuncu bir takım, 2. ve 4. oyuncu öteki)"), required=False
    )
    preset = forms.ChoiceField(label=_("Kurallar"), initial="cetele-standart")
    cezali = forms.TypedChoiceField(
        label=_("Ceza"),
        choices=[("1", _("Cezalı")), ("0", _("Cezasız"))],
        coerce=lambda value: value == "1",
        initial="1",
        widget=forms.RadioSelect,
    )
    planned_hands = forms.TypedChoiceField(
        label=_("El sayısı"),
        coerce=int,
        choices=[(n, str(n)) for n in (1, 3, 5, 7, 9, 11, 13)],
        initial=5,
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A house preset is offered only when the form names it (a link's ?preset=, a choice
        # this phone remembered): there is no list of other people's presets.
        value = self.data.get("preset") if self.is_bound else self.initial.get("preset")
        self.choice = find_choice(value) if isinstance(value, str) else None
        choices = preset_choices()
        if self.choice and self.choice.house:
            choices = [
                (_("Ev kuralı"), [(self.choice.value, self.choice.name)]),
                (_("Hazır kurallar"), choices),
            ]
        self.fields["preset"].choices = choices
        # app.js lists this phone's recent presets first, and picks the latest one when no link
        # named a preset.
        attrs = {
            "data-recent-presets": "",
            "data-recent-label": _("Bu telefonda son kullanılanlar"),
        }
        if not self.is_bound and not self.initial.get("preset"):
            attrs["data-prefer-recent"] = ""
        self.fields["preset"].widget.attrs.update(attrs)

    @staticmethod
    def initial_for(value: str | None) -> dict:
        """Initial values when a link names the preset to start with (?preset=)."""
        choice = find_choice(value)
        if choice is None:
            return {}
        hands = choice.rules.get("hands") or [5]
        return {
            "preset": choice.value,
            "cezali": "1" if choice.rules.get("cezali", True) else "0",
            "planned_hands": 5 if 5 in hands else hands[len(hands) // 2],
        }

    def names(self) -> list[str]:
        names = [self.cleaned_data.get(f"name_{n}", "").strip() for n in range(1, 5)]
        return [name for name in names if name]

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        seats = [bool(cleaned.get(f"name_{n}", "").strip()) for n in range(1, 5)]
        if seats[3] and not seats[2]:
            self.add_error("name_3", _("Oyuncuları sırayla yazın: 4. oyuncudan önce 3. oyuncu."))
        if cleaned.get("teams") and sum(seats) != 4:
            self.add_error("teams", _("Eşli oyun tam 4 oyuncuyla oynanır."))
        allowed = self.choice.rules["hands"]
        if cleaned["planned_hands"] not in allowed:
            self.add_error(
                "planned_hands",
                _("Bu kurallarda maç %(hands)s el olabilir.")
                % {"hands": ", ".join(str(n) for n in allowed)},
            )
        return cleaned

    def rules(self) -> tuple[str, dict, dict]:
        """(where the rules come from: a slug or "house:<view token>", the preset's ruleset,
        the match's frozen ruleset with the cezalı/cezasız choice)."""
        base = scoring.resolve_rules(self.choice.rules)
        rules = scoring.resolve_rules(
            scoring.deep_merge(base, {"cezali": self.cleaned_data["cezali"]})
        )
        return self.choice.value, base, rules


class PlayerNamesForm(forms.Form):
    def __init__(self, *args, players, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for player in players:
            self.fields[f"seat_{player.seat}"] = NameField(
                label=_("%(seat)s. oyuncu") % {"seat": player.seat + 1},
                max_length=30,
                initial=player.name,
            )

    def names(self) -> list[str]:
        return [self.cleaned_data[name].strip() for name in self.fields]


class RotateLinkForm(forms.Form):
    """Which of a match's two links gets a new token."""

    kind = forms.ChoiceField(choices=[("edit", _("Düzenleme")), ("view", _("İzleme"))])


# --- Entering a hand ------------------------------------------------------------------------


class HandLevelForm(forms.Form):
    # Required, with "nobody" as an explicit choice: a forgotten tap must not save a hand
    # as "kimse bitmedi".
    finisher = forms.TypedChoiceField(
        label=_("Kim bitti?"),
        coerce=lambda value: None if value == NOBODY else int(value),
        widget=forms.RadioSelect,
        error_messages={"required": _("Kimin bittiğini seçin (ya da “Kimse bitmedi”).")},
    )
    okey_finish = forms.BooleanField(label=_("Okeyle bitti"), required=False)
    kafa = forms.BooleanField(label=_("Kafa (elden bitti)"), required=False)
    okey_number = forms.TypedChoiceField(
        label=_("Okey kaç?"),
        help_text=_("Yalnızca elde okey veya sahte okey kaldıysa gerekir."),
        choices=TILE_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
    )
    request_token = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)

    def __init__(self, *args, players, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["finisher"].choices = [(p.seat, p.name) for p in players] + [
            (NOBODY, _("Kimse bitmedi"))
        ]


class SeatForm(forms.Form):
    opened = forms.ChoiceField(
        label=_("Açtı mı?"), choices=OPENED_CHOICES, initial="no", widget=forms.RadioSelect
    )
    remaining = forms.IntegerField(
        label=_("Eldeki taşlar"),
        help_text=_("Okeyler hariç sayıların toplamı"),
        min_value=0,
        max_value=255,
        required=False,
        widget=forms.NumberInput(attrs=NUMERIC),
    )
    okeys = forms.TypedChoiceField(
        label=_("Okey"), choices=COUNT_CHOICES, coerce=int, initial=0, widget=forms.RadioSelect
    )
    fake_okeys = forms.TypedChoiceField(
        label=_("Sahte okey"),
        choices=COUNT_CHOICES,
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
    )
    opening = forms.IntegerField(
        label=_("Açış değeri"),
        help_text=_("Seri açtıysa puanı, çift açtıysa çift sayısı (açış primi için)"),
        min_value=0,
        max_value=999,
        required=False,
        widget=forms.NumberInput(attrs=NUMERIC),
    )
    cifte_devam = forms.BooleanField(label=_("Çifte devam dedi"), required=False)
    penalty_count = forms.IntegerField(
        widget=forms.HiddenInput, min_value=0, max_value=MAX_PENALTIES_PER_SEAT, initial=0
    )

    def __init__(self, *args, rules, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not rules.get("opening_bonus"):
            del self.fields["opening"]
        if not rules.get("cifte_devam_factor"):
            del self.fields["cifte_devam"]
        self.fields["remaining"].max_value = 255 if rules.get("tiles_dealt", 21) == 21 else 176


class PenaltyForm(forms.Form):
    kind = forms.ChoiceField(label=_("Ceza"))
    taken = forms.BooleanField(label=_("Sonraki oyuncu aldı"), required=False)
    tile = forms.TypedChoiceField(
        label=_("Taş"), choices=TILE_CHOICES, coerce=int, empty_value=None, required=False
    )
    by = forms.TypedChoiceField(label=_("Kim aldı?"), coerce=int, empty_value=None, required=False)
    used_for = forms.ChoiceField(
        label=_("Ne için işlendi?"),
        choices=[("series", _("Seri")), ("pairs", _("Çift"))],
        initial="series",
        required=False,
    )
    okey = forms.BooleanField(label=_("Okeydi"), required=False)
    points = forms.IntegerField(
        label=_("Puan"),
        min_value=-10000,
        max_value=10000,
        required=False,
        widget=forms.NumberInput(attrs=NUMERIC),
    )
    note = forms.CharField(label=_("Not"), max_length=60, required=False)

    def __init__(self, *args, kinds, players, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(kind, penalty_label(kind)) for kind in kinds]
        self.fields["by"].choices = [("", "—")] + [(p.seat, p.name) for p in players]

    def clean(self) -> dict:
        cleaned = super().clean()
        if cleaned.get("kind") == "custom" and cleaned.get("points") is None:
            self.add_error("points", _("Serbest cezanın puanını yazın."))
        return cleaned

    def to_event(self) -> dict:
        kind = self.cleaned_data["kind"]
        event: dict = {"kind": kind}
        for name in PENALTY_FIELDS.get(kind, ()):
            value = self.cleaned_data.get(name)
            if value is None or value == "":
                continue
            event[name] = value
        return event


SEAT_PREFIX = "p{seat}"
PENALTY_PREFIX = "p{seat}-pen{index}"
FIELD_PATH = re.compile(
    r"^hand\.(?:players\[(?P<seat>\d+)\]\.(?:penalties\[(?P<pen>\d+)\]\.?)?)?(?P<name>[a-z_]*)"
)


def new_request_token() -> str:
    return secrets.token_urlsafe(16)


def rewrite_penalties(data: QueryDict, seats: int, action: str) -> QueryDict:
    """Apply an "add" or "remove" penalty button to the submitted data (works without JS)."""
    data = data.copy()
    match = re.fullmatch(r"(add|remove)-penalty-(\d+)(?:-(\d+))?", action or "")
    if not match or int(match[2]) >= seats:
        return data
    seat = int(match[2])
    count_key = f"{SEAT_PREFIX.format(seat=seat)}-penalty_count"
    try:
        count = max(0, min(int(data.get(count_key, 0)), MAX_PENALTIES_PER_SEAT))
    except ValueError:
        count = 0
    if match[1] == "add":
        data[count_key] = str(min(count + 1, MAX_PENALTIES_PER_SEAT))
        return data
    removed = int(match[3] or 0)
    if removed >= count:
        return data
    # Shift the later penalty rows down by one so that the prefixes stay contiguous.
    for index in range(removed, count):
        old = PENALTY_PREFIX.format(seat=seat, index=index + 1) + "-"
        new = PENALTY_PREFIX.format(seat=seat, index=index) + "-"
        for name in PenaltyForm.base_fields:
            if old + name in data:
                data.setlist(new + name, data.getlist(old + name))
            elif new + name in data:
                del data[new + name]
    data[count_key] = str(count - 1)
    return data


class HandEntry:
    """The whole hand sheet for one match, bound to submitted data or to a stored hand."""

    def __init__(self, match, players, data=None, inputs: dict | None = None, version=None):
        self.match = match
        self.players = list(players)
        self.rules = match.rules
        self.kinds = enabled_penalty_kinds(self.rules)
        self.result: dict | None = None
        self.inputs: dict | None = None
        self.notices: list[str] = []  # messages about the sheet as a whole (e.g. a conflict)
        initial = initial_from_inputs(inputs) if inputs else {}
        hand_initial = {
            "request_token": new_request_token(),
            "version": version,
            **initial.get("hand", {}),
        }
        self.hand_form = HandLevelForm(data, players=self.players, initial=hand_initial)
        self.seat_forms = []
        for player in self.players:
            seat_initial = initial.get("seats", {}).get(player.seat, {})
            form = SeatForm(
                data,
                rules=self.rules,
                prefix=SEAT_PREFIX.format(seat=player.seat),
                initial=seat_initial,
            )
            form.player = player
            form.penalty_forms = [
                PenaltyForm(
                    data,
                    kinds=self.kinds,
                    players=[p for p in self.players if p.seat != player.seat],
                    prefix=PENALTY_PREFIX.format(seat=player.seat, index=index),
                    initial=penalty_initial,
                )
                for index, penalty_initial in enumerate(
                    self._penalty_initials(form, data, seat_initial)
                )
            ]
            for penalty_form in form.penalty_forms:
                penalty_form.player = player
            self.seat_forms.append(form)

    @staticmethod
    def _penalty_initials(form: SeatForm, data, seat_initial: dict) -> list[dict]:
        if data is None:
            return seat_initial.get("penalties", [])
        try:
            count = int(data.get(form.add_prefix("penalty_count"), 0))
        except (TypeError, ValueError):
            count = 0
        return [{}] * max(0, min(count, MAX_PENALTIES_PER_SEAT))

    def forms(self):
        yield self.hand_form
        for seat_form in self.seat_forms:
            yield seat_form
            yield from seat_form.penalty_forms

    @property
    def request_token(self) -> str:
        return self.hand_form["request_token"].value() or ""

    def is_valid(self) -> bool:
        """Forms valid and the engine accepts the hand: then `inputs` and `result` are set."""
        if not all(form.is_valid() for form in self.forms()):
            return False
        inputs = self.to_inputs()
        try:
            self.result = self.match.score(inputs)
        except scoring.InvalidHand as error:
            self.add_engine_error(error)
            return False
        self.inputs = inputs
        return True

    def to_inputs(self) -> dict:
        """The scoring engine's HAND object (RULES.md's JSON contract)."""
        hand = self.hand_form.cleaned_data
        inputs: dict = {
            "finisher": hand["finisher"],
            "okey_finish": hand["okey_finish"],
            "kafa": hand["kafa"],
            "players": [],
        }
        if hand["okey_number"] is not None:
            inputs["okey_number"] = hand["okey_number"]
        for form in self.seat_forms:
            seat = form.cleaned_data
            opened = seat["opened"]
            # The finisher opened by definition: a tap on "who finished" is enough for a series
            # finish; a pairs finish is chosen with "çift açtı" as usual.
            if form.player.seat == hand["finisher"] and opened == "no":
                opened = "series"
            entry: dict = {
                "opened": opened,
                "okeys": seat["okeys"],
                "fake_okeys": seat["fake_okeys"],
            }
            if seat["remaining"] is not None:
                entry["remaining"] = seat["remaining"]
            if seat.get("opening") is not None:
                entry["opening"] = seat["opening"]
            if seat.get("cifte_devam"):
                entry["cifte_devam"] = True
            entry["penalties"] = [pen.to_event() for pen in form.penalty_forms]
            inputs["players"].append(entry)
        return inputs

    def add_engine_error(self, error) -> None:
        """Show the engine's message next to the field it names."""
        form, name = self._form_for_path(error.field or "")
        message = engine_message(error)
        if form is not None and name in form.fields:
            form.add_error(name, message)
        else:
            self.hand_form.add_error(None, message)

    def _form_for_path(self, path: str):
        match = FIELD_PATH.match(path)
        if not match:
            return None, None
        if match["seat"] is None:
            return self.hand_form, match["name"]
        seat = int(match["seat"])
        if seat >= len(self.seat_forms):
            return None, None
        seat_form = self.seat_forms[seat]
        if match["pen"] is None:
            return seat_form, match["name"]
        index = int(match["pen"])
        if index >= len(seat_form.penalty_forms):
            return seat_form, None
        return seat_form.penalty_forms[index], match["name"] or "kind"

    @property
    def is_bound(self) -> bool:
        return self.hand_form.is_bound

    def all_errors(self) -> list[str]:
        """Every error of the sheet as one line each, naming the player and the field."""
        lines = []
        for form in self.forms():
            owner = getattr(form, "player", None)
            for name, errors in form.errors.items():
                label = form.fields[name].label if name in form.fields else ""
                where = " — ".join(str(part) for part in (owner, label) if part)
                lines.extend(f"{where}: {error}" if where else str(error) for error in errors)
        return lines

    @property
    def non_field_errors(self) -> list[str]:
        errors = self.hand_form.non_field_errors() if self.hand_form.is_bound else []
        return [*self.notices, *errors]


def initial_from_inputs(inputs: dict) -> dict:
    """Initial form values from a stored HAND object (to correct a past hand)."""
    finisher = inputs.get("finisher")
    hand = {
        "finisher": NOBODY if finisher is None else finisher,
        "okey_finish": inputs.get("okey_finish", False),
        "kafa": inputs.get("kafa", False),
        "okey_number": inputs.get("okey_number"),
    }
    seats = {}
    for seat, entry in enumerate(inputs.get("players", [])):
        penalties = entry.get("penalties", [])
        seats[seat] = {
            "opened": entry.get("opened", "no"),
            "remaining": entry.get("remaining"),
            "okeys": entry.get("okeys", 0),
            "fake_okeys": entry.get("fake_okeys", 0),
            "opening": entry.get("opening"),
            "cifte_devam": entry.get("cifte_devam", False),
            "penalty_count": len(penalties),
            "penalties": [dict(event) for event in penalties],
        }
    return {"hand": hand, "seats": seats}
