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
from cetele.rulesets import find_choice
from scoring import labels
from scoring.labels import PENALTY_NAMES
from scoring.model import PENALTY_AMOUNT_KEYS as PENALTY_KEYS

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
    name_1 = forms.CharField(label=_("1. oyuncu"), max_length=30, initial=_("Oyuncu 1"))
    name_2 = forms.CharField(label=_("2. oyuncu"), max_length=30, initial=_("Oyuncu 2"))
    name_3 = forms.CharField(
        label=_("3. oyuncu"), max_length=30, required=False, initial=_("Oyuncu 3")
    )
    name_4 = forms.CharField(
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
            self.fields[f"seat_{player.seat}"] = forms.CharField(
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


# --- The preset editor ----------------------------------------------------------------------

# Finish rows every ruleset has, in RULES.md's order; `pairs_kafa` only where a table allows it.
FINISH_KINDS = ("normal", "kafa", "pairs", "okey", "okey_kafa", "pairs_okey", "none")
PAIRS_KAFA = "pairs_kafa"
FINISH_COLUMNS = ("winner", "opened_multiplier", "not_opened")
DISCARD_USED_KEYS = ("series", "pairs", "okey_series", "okey_pairs")
BONUS_COLUMNS = ("series", "pairs", "points")
BONUS_ROWS = 3
MATCH_LENGTHS = (1, 3, 5, 7, 9, 11, 13)
SIGNED = {"autocomplete": "off", "class": "num"}  # a minus sign must be typeable
UNSIGNED = {"inputmode": "numeric", "autocomplete": "off", "class": "num"}

FINISH_HELP = {
    "normal": _("Seri açıp biten"),
    "kafa": _("Açtığı elde biten (elden)"),
    "pairs": _("Çift açıp biten"),
    "okey": _("Son taş olarak okey atan"),
    "okey_kafa": _("Elden ve okey atarak biten"),
    "pairs_okey": _("Çift açıp okey atarak biten"),
    "pairs_kafa": _("Çift açıp açtığı elde biten"),
    "none": _("Taşlar bitti, kimse bitmedi"),
}
FINISH_COLUMN_LABELS = {
    "winner": _("Bitiren"),
    "opened_multiplier": _("Açan ×"),
    "not_opened": _("Açamayan"),
}
FINISH_COLUMN_HELP = {
    "winner": _("Bitirenin yazdığı (0 ya da eksi)."),
    "opened_multiplier": _("Açıp kaybedenin eldeki taşları bu sayıyla çarpılır."),
    "not_opened": _("Açamayanın yazdığı sabit ceza."),
}
PENALTY_LABELS = {
    "okey_discard": (_("Okey atmak"), _("Okeyi bitiş taşı olmadan yere atmak.")),
    "islek_discard": (_("İşlek taş atmak"), _("Masadaki bir pere işlenebilecek taşı atmak.")),
    "islek_taken_factor": (
        _("İşlek taş alınırsa taş ×"),
        _("Sonraki oyuncu işlek taşı aldıysa ceza taş × bu sayı olur. Boş = hep sabit ceza."),
    ),
    "take_back": (_("Taş geri almak"), _("Açtığı perleri ya da işlediği taşları geri almak.")),
    "failed_open": (_("Açış tutmadı"), _("Yetmeyen açışı geri toplamak.")),
    "okey_taken": (_("Okeyi aldırmak"), _("Perdeki okeyini başka bir oyuncuya aldırmak.")),
    "side_take_unused": (
        _("Yandan alıp kullanmamak"),
        _("Soldakinin attığı taşı alıp o el kullanmamak."),
    ),
    "okey_from_per_unused": (
        _("Perden okey alıp işlememek"),
        _("Perden aldığı okeyi o el yere koymamak."),
    ),
}
DISCARD_USED_LABELS = {
    "series": _("Taş seriye işlenirse ×"),
    "pairs": _("Taş çifte işlenirse ×"),
    "okey_series": _("Okey seriye işlenirse ×"),
    "okey_pairs": _("Okey çifte işlenirse ×"),
}
BONUS_LABELS = {"series": _("Puanla"), "pairs": _("Çiftle"), "points": _("Prim")}
BLANK_IS_OFF = _("Boş bırakılırsa bu ceza yok.")


def rule_field(*path: object) -> str:
    """The editor's field name for a ruleset path: ("finishes", "okey", "winner") →
    "finishes__okey__winner", so that an engine error's path names its field."""
    return "__".join(str(part) for part in path)


def number(
    label, help_text="", *, required=True, signed=False, described_by=""
) -> forms.IntegerField:
    attrs = dict(SIGNED if signed else UNSIGNED)
    if described_by:  # a table cell: its column's explanation, shown once above the table
        attrs["aria-describedby"] = described_by
    return forms.IntegerField(
        label=label,
        help_text=help_text,
        required=required,
        widget=forms.NumberInput(attrs=attrs),
    )


def switch(label, help_text="") -> forms.BooleanField:
    return forms.BooleanField(label=label, help_text=help_text, required=False)


class RulesetForm(forms.Form):
    """The preset editor: one field per parameter of RULES.md's "Ruleset parameters".

    `initial_from_rules` fills it from a full ruleset; a valid form has `ruleset`, the full
    ruleset the engine accepted (`scoring.resolve_rules` decides; its errors are shown next to
    the field they name). The prefix keeps its names apart from the match form's.
    """

    prefix = "r"

    name = forms.CharField(
        label=_("Adı"),
        max_length=80,
        help_text=_("Maçta ve paylaştığınız bağlantıda görünür."),
    )
    description = forms.CharField(
        label=_("Açıklama"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("İsteğe bağlı: masanızda neyin farklı olduğu."),
    )
    kafa_requires_nobody_opened = switch(
        _("Kafa için kimse açmamış olmalı"),
        _("İşaretliyse başka bir oyuncu açmışken kafa (elden) bitiş olmaz."),
    )
    pair_opener_multiplier = number(
        _("Çift açanın katı"), _("Çift açıp kaybedenin taşları ayrıca bu sayıyla çarpılır.")
    )
    pair_opener_over__on = switch(
        _("Çift açan sınırı geçerse ceza"),
        _("Çift açanın taş toplamı (çarpmadan önce) sınırı geçerse üstüne ceza yazılır."),
    )
    pair_opener_over__threshold = number(
        _("Sınır"), _("Örneğin 100: 100'ü geçen toplam cezalıdır."), required=False
    )
    pair_opener_over__penalty = number(
        _("Sınırı geçme cezası"), _("Çarpılmadan eklenir."), required=False
    )
    okey_left__counts_mode = forms.ChoiceField(
        label=_("Elde kalan okey nasıl sayılır?"),
        choices=[("face", _("Üstündeki sayı kadar")), ("fixed", _("Sabit bir değer"))],
        widget=forms.RadioSelect,
        help_text=_("Sayılan değer eldeki taşlara eklenir ve onlarla birlikte çarpılır."),
    )
    okey_left__counts = number(
        _("Okeyin sabit değeri"),
        _("Yalnızca “sabit bir değer” seçiliyse: örneğin 101, ya da hiç sayılmasın diye 0."),
        required=False,
    )
    okey_left__penalty = number(
        _("Elde kalan okey cezası"),
        _("Cezalı masada elde kalan her okey için üstüne eklenir, çarpılmaz. 0 = yok."),
    )
    okey_left__fake_too = switch(
        _("Sahte okey de cezalı"), _("İşaretliyse elde kalan sahte okeye de bu ceza yazılır.")
    )
    teams__winner_partner_zero = switch(
        _("Eşlide bitirenin eşi 0 yazar"),
        _("İşaretli değilse bitirenin eşi de kaybeden gibi yazar."),
    )
    teams__kafa_halving = switch(
        _("Eşlide kafada yarım ceza"),
        _("Kafa bitişte eşi açmış olan açamayanın cezası yarıya iner."),
    )
    cezali = switch(
        _("Cezalı masa"),
        _("İşaretli değilse yalnızca serbest cezalar yazılır ve elde kalan okey cezası olmaz."),
    )
    penalties__okey_taken_partner_exempt = switch(
        _("Okeyi eşi alırsa ceza yok"), _("Eşli oyunda okeyi eşi aldıysa ceza yazılmaz.")
    )
    discard_used__on = switch(
        _("Attığı taş işlenirse ceza"),
        _("Attığı taşı sonraki oyuncu işlerse taş × aşağıdaki sayı ceza (Zorlu)."),
    )
    cifte_devam_factor = number(
        _("Çifte devam katı"),
        _("Çifte devam deyip açamayanın cezası bu sayıyla çarpılır. Boş = çifte devam yok."),
        required=False,
    )
    opening__series = number(
        _("Seri açılış en az"), _("Seri ya da grup perlerle açmak için gereken puan.")
    )
    opening__pairs = number(_("Çift açılış en az"), _("Çiftle açmak için gereken çift sayısı."))
    opening__raising = forms.ChoiceField(
        label=_("Açılış yükseltme"),
        choices=[
            ("none", _("Yok")),
            ("series", _("Yalnızca seri")),
            ("both", _("Seri ve çift")),
        ],
        widget=forms.RadioSelect,
        help_text=_("Her açılış bir öncekini geçmeli mi (oyunculara gösterilir)."),
    )
    tiles_dealt = forms.TypedChoiceField(
        label=_("Dağıtılan taş"),
        choices=[(21, "21"), (14, "14")],
        coerce=int,
        widget=forms.RadioSelect,
        help_text=_("Kalan taş toplamı 21 taşta en fazla 255, 14 taşta 176 olur."),
    )
    hands = forms.TypedMultipleChoiceField(
        label=_("Maç kaç el olabilir?"),
        choices=[(n, str(n)) for n in MATCH_LENGTHS],
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Maçı başlatırken bunlardan biri seçilir."),
        error_messages={"required": _("En az bir maç uzunluğu seçin.")},
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for kind in (*FINISH_KINDS, PAIRS_KAFA):
            for column in FINISH_COLUMNS:
                if kind == "none" and column == "winner":
                    continue  # nobody wins when nobody finished
                self.fields[rule_field("finishes", kind, column)] = number(
                    f"{labels.finish_name(kind, engine_lang())} — {FINISH_COLUMN_LABELS[column]}",
                    required=kind != PAIRS_KAFA,
                    signed=column == "winner",
                    described_by=f"help-{column}",
                )
        self.fields[rule_field("finishes", PAIRS_KAFA, "on")] = switch(
            _("Çiftten kafa olur"),
            _("Çift açan, açtığı elde bitebilir (hazır kuralların hiçbirinde yok)."),
        )
        for key in PENALTY_KEYS:
            label, help_text = PENALTY_LABELS[key]
            if key != "islek_taken_factor":
                help_text = f"{help_text} {BLANK_IS_OFF}"
            self.fields[rule_field("penalties", key)] = number(label, help_text, required=False)
        for key in DISCARD_USED_KEYS:
            self.fields[rule_field("discard_used", key)] = number(
                DISCARD_USED_LABELS[key],
                _("Ceza: attığı taşın sayısı × bu sayı (okeyde okeyin sayısı)."),
                required=False,
            )
        for row in range(BONUS_ROWS):
            for column in BONUS_COLUMNS:
                self.fields[rule_field("opening_bonus", row, column)] = number(
                    f"{_('Açış primi')} {row + 1} — {BONUS_LABELS[column]}",
                    required=False,
                    signed=column == "points",
                    described_by="help-bonus",
                )
        self.ruleset: dict | None = None
        self._bonus_rows: list[int] = []

    # --- Layout (the template walks these) ---

    def finish_rows(self) -> list[tuple[str, str, list]]:
        """(kind, explanation, [winner, multiplier, not opened] bound fields or None)."""
        return [
            (
                kind,
                FINISH_HELP[kind],
                [
                    self[name]
                    if (name := rule_field("finishes", kind, column)) in self.fields
                    else None
                    for column in FINISH_COLUMNS
                ],
            )
            for kind in (*FINISH_KINDS[:-1], PAIRS_KAFA, FINISH_KINDS[-1])
        ]

    def finish_columns(self) -> list[tuple[str, str, str]]:
        """(column, heading, explanation) of the finish table."""
        return [(c, FINISH_COLUMN_LABELS[c], FINISH_COLUMN_HELP[c]) for c in FINISH_COLUMNS]

    def bonus_columns(self) -> list[str]:
        return [BONUS_LABELS[column] for column in BONUS_COLUMNS]

    def bonus_rows(self) -> list[list]:
        return [
            [self[rule_field("opening_bonus", row, column)] for column in BONUS_COLUMNS]
            for row in range(BONUS_ROWS)
        ]

    def sections(self) -> list[tuple[str, str, list]]:
        """(key, title, bound fields) for each group of the editor below the finish table."""
        groups = [
            ("name", _("Ad"), ["name", "description"]),
            (
                "kafa",
                _("Kafa"),
                ["kafa_requires_nobody_opened", rule_field("finishes", PAIRS_KAFA, "on")],
            ),
            (
                "pairs",
                _("Çift açan"),
                [
                    "pair_opener_multiplier",
                    "pair_opener_over__on",
                    "pair_opener_over__threshold",
                    "pair_opener_over__penalty",
                ],
            ),
            (
                "okey_left",
                _("Elde kalan okey"),
                [
                    "okey_left__counts_mode",
                    "okey_left__counts",
                    "okey_left__penalty",
                    "okey_left__fake_too",
                ],
            ),
            ("teams", _("Eşli oyun"), ["teams__winner_partner_zero", "teams__kafa_halving"]),
            (
                "penalties",
                _("Cezalar"),
                [
                    "cezali",
                    *(rule_field("penalties", key) for key in PENALTY_KEYS),
                    "penalties__okey_taken_partner_exempt",
                    "discard_used__on",
                    *(rule_field("discard_used", key) for key in DISCARD_USED_KEYS),
                    "cifte_devam_factor",
                ],
            ),
            ("opening", _("Açılış"), ["opening__series", "opening__pairs", "opening__raising"]),
            ("match", _("Taş ve maç"), ["tiles_dealt", "hands"]),
        ]
        return [(key, title, [self[name] for name in names]) for key, title, names in groups]

    # --- From a ruleset and back ---

    @staticmethod
    def initial_from_rules(rules: Mapping, *, name: str | None = None) -> dict:
        """Initial values from a full ruleset dict (a preset's or a house preset's)."""
        initial: dict = {"name": rules.get("name", "") if name is None else name}
        finishes = rules.get("finishes", {})
        for kind, row in finishes.items():
            for column, value in row.items():
                initial[rule_field("finishes", kind, column)] = value
        initial[rule_field("finishes", PAIRS_KAFA, "on")] = PAIRS_KAFA in finishes
        initial["kafa_requires_nobody_opened"] = rules.get("kafa_requires_nobody_opened")
        initial["pair_opener_multiplier"] = rules.get("pair_opener_multiplier")
        over = rules.get("pair_opener_over")
        initial["pair_opener_over__on"] = bool(over)
        if over:
            initial["pair_opener_over__threshold"] = over.get("threshold")
            initial["pair_opener_over__penalty"] = over.get("penalty")
        okey_left = rules.get("okey_left", {})
        counts = okey_left.get("counts", "face")
        initial["okey_left__counts_mode"] = "face" if counts == "face" else "fixed"
        initial["okey_left__counts"] = None if counts == "face" else counts
        initial["okey_left__penalty"] = okey_left.get("penalty")
        initial["okey_left__fake_too"] = okey_left.get("fake_too")
        for key, value in rules.get("teams", {}).items():
            initial[rule_field("teams", key)] = value
        initial["cezali"] = rules.get("cezali")
        for key, value in rules.get("penalties", {}).items():
            initial[rule_field("penalties", key)] = value
        discard_used = rules.get("discard_used")
        initial["discard_used__on"] = bool(discard_used)
        for key, value in (discard_used or {}).items():
            initial[rule_field("discard_used", key)] = value
        initial["cifte_devam_factor"] = rules.get("cifte_devam_factor")
        for row, tier in enumerate((rules.get("opening_bonus") or [])[:BONUS_ROWS]):
            for column in BONUS_COLUMNS:
                initial[rule_field("opening_bonus", row, column)] = tier.get(column)
        for key, value in rules.get("opening", {}).items():
            initial[rule_field("opening", key)] = value
        initial["tiles_dealt"] = rules.get("tiles_dealt")
        initial["hands"] = list(rules.get("hands", []))
        return initial

    def clean(self) -> dict:
        cleaned = super().clean()
        pairs_kafa = [rule_field("finishes", PAIRS_KAFA, c) for c in FINISH_COLUMNS]
        self._require_if(rule_field("finishes", PAIRS_KAFA, "on"), pairs_kafa)
        self._require_if(
            "pair_opener_over__on", ["pair_opener_over__threshold", "pair_opener_over__penalty"]
        )
        self._require_if(
            "discard_used__on", [rule_field("discard_used", key) for key in DISCARD_USED_KEYS]
        )
        if cleaned.get("okey_left__counts_mode") == "fixed":
            self._require(["okey_left__counts"])
        self._bonus_rows = self._filled_bonus_rows()
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

    def _require_if(self, switch_name: str, names: list[str]) -> None:
        if self.cleaned_data.get(switch_name):
            self._require(names)

    def _filled_bonus_rows(self) -> list[int]:
        """Indexes of the tier rows filled in; a half-filled row is an error."""
        filled = []
        for row in range(BONUS_ROWS):
            names = [rule_field("opening_bonus", row, column) for column in BONUS_COLUMNS]
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

    def build_rules(self, c: dict) -> dict:
        """The full ruleset dict the fields describe (not yet validated)."""
        kinds = [*FINISH_KINDS]
        if c.get(rule_field("finishes", PAIRS_KAFA, "on")):
            kinds.append(PAIRS_KAFA)
        finishes = {
            kind: {
                column: c[rule_field("finishes", kind, column)]
                for column in FINISH_COLUMNS
                if rule_field("finishes", kind, column) in self.fields
            }
            for kind in kinds
        }
        counts_face = c["okey_left__counts_mode"] == "face"
        tiers = [
            {column: c[rule_field("opening_bonus", row, column)] for column in BONUS_COLUMNS}
            for row in self._bonus_rows
        ]
        return {
            "name": c["name"],
            "finishes": finishes,
            "kafa_requires_nobody_opened": c["kafa_requires_nobody_opened"],
            "pair_opener_multiplier": c["pair_opener_multiplier"],
            "pair_opener_over": (
                {
                    "threshold": c["pair_opener_over__threshold"],
                    "penalty": c["pair_opener_over__penalty"],
                }
                if c["pair_opener_over__on"]
                else None
            ),
            "okey_left": {
                "counts": "face" if counts_face else c["okey_left__counts"],
                "penalty": c["okey_left__penalty"],
                "fake_too": c["okey_left__fake_too"],
            },
            "teams": {
                "winner_partner_zero": c["teams__winner_partner_zero"],
                "kafa_halving": c["teams__kafa_halving"],
            },
            "cezali": c["cezali"],
            "penalties": {
                **{key: c[rule_field("penalties", key)] for key in PENALTY_KEYS},
                "okey_taken_partner_exempt": c["penalties__okey_taken_partner_exempt"],
            },
            "discard_used": (
                {key: c[rule_field("discard_used", key)] for key in DISCARD_USED_KEYS}
                if c["discard_used__on"]
                else None
            ),
            "cifte_devam_factor": c["cifte_devam_factor"],
            "opening_bonus": tiers or None,
            "opening": {
                "series": c["opening__series"],
                "pairs": c["opening__pairs"],
                "raising": c["opening__raising"],
            },
            "tiles_dealt": c["tiles_dealt"],
            "hands": sorted(c["hands"]),
        }

    def field_for_path(self, path: str) -> str | None:
        """The field an engine error path names: "rules.finishes.okey.winner" →
        "finishes__okey__winner"; "rules.opening_bonus[1].series" → the form row it came from."""
        path = path.removeprefix("rules").removeprefix(".")
        tier = re.fullmatch(r"opening_bonus\[(\d+)\](?:\.(\w+))?", path)
        if tier and int(tier[1]) < len(self._bonus_rows):
            column = tier[2] if tier[2] in BONUS_COLUMNS else "series"
            return rule_field("opening_bonus", self._bonus_rows[int(tier[1])], column)
        name = re.sub(r"\[\d+\]", "", path).replace(".", "__")
        while name and name not in self.fields:
            name = name.rpartition("__")[0]
        return name or None

    def add_engine_error(self, error) -> None:
        """Show the engine's message next to the field it names (without the path prefix)."""
        lang = engine_lang()
        message = error.message_en if lang == "en" else error.message
        where = labels.human_field(error.field, lang)
        if message.startswith(where + ": "):
            message = message[len(where) + 2 :]
            message = message[:1].upper() + message[1:]
        elif message.startswith(where + " "):
            message = _("Bu değer") + message[len(where) :]
        self.add_error(self.field_for_path(error.field), message)

    def error_lines(self) -> list[str]:
        """Every error as "Label: message", for the summary above the form."""
        lines = [str(error) for error in self.non_field_errors()]
        for name, errors in self.errors.items():
            if name in self.fields:
                lines.extend(f"{self.fields[name].label}: {error}" for error in errors)
        return lines
