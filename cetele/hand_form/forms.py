"""The hand form's forms: the hand's own facts, one player's row, a penalty row and their formset.

Forms check shape and type only; the scoring engine owns every limit and game rule, and its
message is shown beside the field it names (cetele.hand_form.entry). The gösterge's fields are
the deal's (cetele.deal.forms), taken as they are.
"""

import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property

from django import forms
from django.forms.formsets import (
    INITIAL_FORM_COUNT,
    MAX_NUM_FORM_COUNT,
    MIN_NUM_FORM_COUNT,
    TOTAL_FORM_COUNT,
)
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cetele.deal.forms import COLOUR_CHOICES, IndicatorForm
from cetele.shell.language import engine_lang
from cetele.shell.names import TextField
from scoring import Ruleset
from scoring.labels import PENALTY_NAMES
from scoring.turkish import capitalize

NOBODY = "none"  # the finisher choice "kimse bitmedi"
ROW_STAMP = re.compile(r"\d{1,2}-[0-9a-f]{12}")  # cetele.seats.drafts.SeatState.stamp
MAX_ROWS_SEEN_CHARS = 400  # far past a table's rows: a longer field holds no more of them
MAX_PENALTIES_PER_SEAT = 10
NUMERIC = {"inputmode": "numeric", "pattern": "-?[0-9]*", "autocomplete": "off"}
OPENED_CHOICES = [("no", _("Açmadı")), ("series", _("Seri")), ("pairs", _("Çift"))]
COUNT_CHOICES = [(0, "0"), (1, "1"), (2, "2")]
TILE_CHOICES = [("", "—")] + [(n, str(n)) for n in range(1, 14)]
SEAT_PREFIX = "p{seat}"
PENALTY_PREFIX = "p{seat}-pen"
ADD_PENALTY = re.compile(r"add-penalty-(\d)")


def penalty_label(kind: str) -> str:
    """ "İşlek taş attı": capitalised by the page's language's rules (Turkish i → İ)."""
    lang = engine_lang()
    return capitalize(PENALTY_NAMES[lang][kind], lang)


def name_the_player(fields: Mapping[str, forms.Field], name: str) -> None:
    """Django's own messages beside a player's fields ("Geçerli bir seçim yapın") name the
    player too, like every other message of the form."""
    messages = {
        "required": gettext("%(name)s: bu alanı doldurun.") % {"name": name},
        "invalid": gettext("%(name)s: bir tam sayı yazın.") % {"name": name},
        # Django formats this one with % (its "value"): a "%" in a name must stay a "%".
        "invalid_choice": gettext("%(name)s: listeden birini seçin.")
        % {"name": name.replace("%", "%%")},
    }
    for field in fields.values():
        field.error_messages = {
            **field.error_messages,
            **{key: text for key, text in messages.items() if key in field.error_messages},
        }


def enabled_penalty_kinds(ruleset: Ruleset) -> list[str]:
    """The penalty kinds this ruleset charges, in RULES.md's order; `custom` is allowed on
    every table."""
    if not ruleset.cezali:
        return ["custom"]

    def enabled(kind: str) -> bool:
        if kind == "custom":
            return True
        if kind == "discard_used":
            return ruleset.discard_used is not None
        return getattr(ruleset.penalties, kind) is not None

    return [kind for kind in PENALTY_NAMES["tr"] if enabled(kind)]


def new_request_token() -> str:
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class HouseFact:
    """A hand fact that only some house rules ask for (RULES.md, "House-rule extensions")."""

    asked: Callable[[Ruleset], bool]  # whether the match's ruleset has the rule
    absent: object  # its value in a stored hand without it


# Each fact's form field of the same name (HandLevelForm) is there only when the ruleset asks for
# it, then goes to the engine's HAND object as it is, and comes back from a stored hand to be
# corrected. A new house rule whose hand carries a new fact adds its field and one line here.
# (The indicator's colour is asked at every table, as part of the gösterge, and required where
# the rules have colours: HandLevelForm.)
HOUSE_FACTS = {
    "riziko": HouseFact(asked=lambda ruleset: ruleset.riziko is not None, absent=False),
}


class RowStampsField(forms.Field):
    """The stamps of the phones' rows a form has shown, as a set. Whatever else is sent is no
    stamp and is dropped, never an error: this hidden field would have nowhere to show one."""

    def to_python(self, value) -> frozenset[str]:
        sent = str(value or "")[:MAX_ROWS_SEEN_CHARS].split()
        return frozenset(stamp for stamp in sent if ROW_STAMP.fullmatch(stamp))


class HandLevelForm(forms.Form):
    """The hand's own facts; "Kim bitirdi?" lists the players and its message names them."""

    # Required, with "nobody" as an explicit choice: a forgotten tap must not save a hand
    # as "kimse bitmedi".
    finisher = forms.TypedChoiceField(
        label=_("Kim bitirdi?"),
        coerce=lambda value: None if value == NOBODY else int(value),
        widget=forms.RadioSelect,
    )
    okey_finish = forms.BooleanField(label=_("Okeyle bitti"), required=False)
    kafa = forms.BooleanField(label=_("Kafa (elden bitti)"), required=False)
    # The gösterge (the tile turned up after the deal): its colour, its number, or "sahte okey".
    # The hand's facts follow from it: its colour is `colour`, the okey's number is the next one
    # (13 makes 1), a fake okey is riziko (cetele.deal.tiles).
    indicator = IndicatorForm.base_fields["indicator"]
    # The okey's number itself, no longer drawn: a hand a phone kept while offline before the
    # gösterge was asked still carries it (static/cetele/offline.js), and still saves.
    okey_number = forms.TypedChoiceField(
        choices=TILE_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": _("Okey taşının sayısı 1 ile 13 arasında olmalı.")},
    )
    riziko = IndicatorForm.base_fields["riziko"]
    colour = forms.ChoiceField(
        label=_("Göstergenin rengi"),
        choices=COLOUR_CHOICES,
        widget=forms.RadioSelect,
        required=False,
        error_messages={"required": _("Göstergenin rengini seçin.")},
    )
    request_token = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)
    # A correction carries the hand's version, a new hand the place it was entered as: either
    # tells whether another phone saved first.
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    position = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    # The joined phones' rows a new hand's form has shown (cetele.seats.drafts.rows_seen): a
    # save that did not see a row the server holds is refused with the row shown. Anything else
    # in it names no row, which only makes a save show the rows first: never an error.
    rows_seen = RowStampsField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, players, ruleset: Ruleset, typing: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # While the scorer types (or a phone's row fills the form in), no finisher chosen yet
        # is the form not being ready, not a mistake: HandEntry.is_valid waits for it.
        self.fields["finisher"].required = not typing
        for name, fact in HOUSE_FACTS.items():
            if not fact.asked(ruleset):
                del self.fields[name]
        self.fields["colour"].required = ruleset.colours is not None
        finisher = self.fields["finisher"]
        finisher.choices = [*((p.seat, p.name) for p in players), (NOBODY, _("Kimse bitmedi"))]
        names = ", ".join(p.name for p in players)
        finisher.error_messages["required"] = gettext(
            "Kimin bitirdiğini seçin: %(names)s ya da “Kimse bitmedi”."
        ) % {"names": names}


class SeatForm(forms.Form):
    """One player's hand: its sum box and messages name the player; the opening and "çifte
    devam" fields are there where the rules have them."""

    opened = forms.ChoiceField(
        label=_("Açılış"), choices=OPENED_CHOICES, initial="no", widget=forms.RadioSelect
    )
    remaining = forms.IntegerField(
        label=_("Eldeki taşlar"),
        help_text=_("Okeyler dışındaki taşların toplamı (okeyler ayrıca seçilir)"),
        required=False,
        widget=forms.NumberInput(attrs={**NUMERIC, "class": "num", "placeholder": "—"}),
    )
    okeys = forms.TypedChoiceField(
        label=_("Elde kalan okey"),
        choices=COUNT_CHOICES,
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
    )
    fake_okeys = forms.TypedChoiceField(
        label=_("Elde kalan sahte okey"),
        choices=COUNT_CHOICES,
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
    )
    opening = forms.IntegerField(
        label=_("Açılış değeri"),
        help_text=_("Seri açtıysa puanı, çift açtıysa çift sayısı (açılış primi için)"),
        required=False,
        widget=forms.NumberInput(attrs={**NUMERIC, "class": "num"}),
    )
    cifte_devam = forms.BooleanField(label=_("Çifte devam dedi"), required=False)

    def __init__(self, *args, ruleset: Ruleset, player, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.player = player
        if not ruleset.opening_bonus:
            del self.fields["opening"]
        if not ruleset.cifte_devam_factor:
            del self.fields["cifte_devam"]
        self.fields["remaining"].widget.attrs["aria-label"] = gettext(
            "%(name)s: eldeki taşların toplamı"
        ) % {"name": player.name}
        name_the_player(self.fields, player.name)

    @cached_property
    def penalties(self):
        """This player's penalty rows (a formset), made when first asked for: most hands have
        none, and the four formsets with their management forms were a fifth of a preview's
        time. A posted form with no row and no count but "0" for a player has no penalty for
        them; anything else sent gets the formset's every check (penalties_sent)."""
        return self.penalty_rows()

    def has_extra_values(self) -> bool:
        """Whether anything behind "more" holds a value or an error: it then opens by itself."""
        names = ("okeys", "fake_okeys", "opening", "cifte_devam")
        if any(self[name].errors for name in names if name in self.fields):
            return True
        return any(
            self[name].value() not in (None, "", "0", 0, False)
            for name in names
            if name in self.fields
        )


class PenaltyForm(forms.Form):
    kind = forms.ChoiceField(label=_("Ceza"))
    taken = forms.BooleanField(label=_("Sonraki oyuncu aldı"), required=False)
    tile = forms.TypedChoiceField(
        label=_("Taş"), choices=TILE_CHOICES, coerce=int, empty_value=None, required=False
    )
    by = forms.TypedChoiceField(label=_("Kim aldı?"), coerce=int, empty_value=None, required=False)
    used_for = forms.ChoiceField(
        label=_("Nerede kullanıldı?"),
        choices=[("series", _("Seride")), ("pairs", _("Çiftte"))],
        initial="series",
        required=False,
    )
    okey = forms.BooleanField(label=_("Okeydi"), required=False)
    points = forms.IntegerField(
        label=_("Puan"), required=False, widget=forms.NumberInput(attrs=NUMERIC)
    )
    note = TextField(label=_("Not"), max_length=60, required=False)

    def __init__(self, *args, kinds, others, player, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.player = player
        self.fields["kind"].choices = [(kind, penalty_label(kind)) for kind in kinds]
        self.fields["by"].choices = [("", "—")] + [(p.seat, p.name) for p in others]
        name_the_player(self.fields, player.name)

    def clean(self) -> dict:
        cleaned = super().clean()
        if cleaned.get("kind") == "custom" and cleaned.get("points") is None:
            self.add_error(
                "points", gettext("%(name)s: cezanın puanını yazın.") % {"name": self.player.name}
            )
        return cleaned


PenaltyFormSet = forms.formset_factory(
    PenaltyForm,
    extra=0,
    can_delete=True,
    max_num=MAX_PENALTIES_PER_SEAT,
    validate_max=True,
    absolute_max=MAX_PENALTIES_PER_SEAT,
)


def add_penalty_row(data, seats: int, action: str):
    """The "+ Ceza ekle" button, which works without JavaScript: one more empty row."""
    match = ADD_PENALTY.fullmatch(action or "")
    if data is None or not match or int(match[1]) >= seats:
        return data
    data = data.copy()
    key = f"{PENALTY_PREFIX.format(seat=match[1])}-{TOTAL_FORM_COUNT}"
    try:
        count = int(data.get(key, 0))
    except ValueError:
        count = 0
    # One more, up to the formset's own limit: past it, the button adds nothing.
    total = max(0, min(count + 1, PenaltyFormSet.max_num))
    data[key] = str(total)
    # The new row as a browser sends an untouched one (its fields' initial values): unchanged,
    # so it is not checked, and shows no error before the player has chosen anything.
    row = f"{PENALTY_PREFIX.format(seat=match[1])}-{total - 1}"
    for name, field in PenaltyForm.base_fields.items():
        if field.initial is not None and f"{row}-{name}" not in data:
            data[f"{row}-{name}"] = field.initial
    return data


def untouched(form) -> bool:
    """A row the formset lets go unchecked, as Django's formsets do: an extra row nobody filled in
    (empty_permitted, unchanged)."""
    return form.empty_permitted and not form.has_changed()


def penalties_sent(data) -> set[str]:
    """The players (form prefixes, "p1") whose penalty formset has something to check: a row,
    or a count other than the "0" every page sends. Nobody else's formset is made to be
    validated (see SeatForm.penalties): most hands have no penalty at all."""
    sent = set()
    for key in data or ():
        player, pen, field = key.partition("-pen-")
        if not pen or field in (INITIAL_FORM_COUNT, MIN_NUM_FORM_COUNT, MAX_NUM_FORM_COUNT):
            continue
        if field == TOTAL_FORM_COUNT and data.get(key) == "0":
            continue
        sent.add(player)
    return sent
