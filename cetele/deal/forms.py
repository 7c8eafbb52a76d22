"""The gösterge's form (a joined phone's, and the scorer's "show it to everyone"), the chips
every gösterge is tapped on, and the scorer's choice of the first dealer.

The gösterge's fields are declared here and taken as they are by the hand form
(cetele.hand_form.forms.HandLevelForm: `colour`, `indicator`, `riziko`, same names and checks),
so the scorer's form posts one gösterge to either.
"""

from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext_lazy as _

from cetele.deal.indicator import Indicator
from cetele.deal.tiles import NUMBERS

MAX_POSITION = 10_000
# The indicator's colours, in the order a set prints them (RULES.md, "House-rule extensions").
COLOUR_CHOICES = [
    ("red", _("Kırmızı")),
    ("blue", _("Mavi")),
    ("black", _("Siyah")),
    ("yellow", _("Sarı/yeşil")),
]


class IndicatorForm(forms.Form):
    """The gösterge of the hand at `position`: a colour, a number, "sahte okey" (where the rules
    have riziko), each optional (a tap is kept as it comes)."""

    colour = forms.ChoiceField(label=_("Göstergenin rengi"), choices=COLOUR_CHOICES, required=False)
    # The gösterge's number (the okey's is the next one, 13 making 1: cetele.deal.tiles).
    indicator = forms.TypedChoiceField(
        label=_("Gösterge"),
        choices=[(n, str(n)) for n in NUMBERS],
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": _("Göstergenin sayısını 1 ile 13 arasından seçin.")},
    )
    # A fake okey turned up: riziko (asked only where the rules have it).
    riziko = forms.BooleanField(
        label=_("Sahte okey"), help_text=_("Gösterge sahte okeydi: riziko"), required=False
    )
    position = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        max_value=MAX_POSITION,
        error_messages={"required": _("Gösterge hangi el için, anlaşılamadı. Sayfayı yenileyin.")},
    )

    def __init__(self, *args, ruleset, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if ruleset.riziko is None:
            del self.fields["riziko"]
        self.fields["colour"].error_messages["invalid_choice"] = _(
            "Göstergenin rengini listeden seçin."
        )

    def indicator_for(self, seat: int | None) -> Indicator:
        values = self.cleaned_data
        return Indicator(
            values["colour"] or None, values["indicator"], bool(values.get("riziko")), seat
        )

    def error_lines(self) -> list[str]:
        return [str(error) for errors in self.errors.values() for error in errors]


@dataclass(frozen=True)
class Chip:
    value: str
    label: str
    checked: bool


@dataclass(frozen=True)
class Chips:
    """The gösterge's chips as drawn (cetele/deal/_indicator_chips.html): plain data, not
    Django's radio widgets, since they are drawn on every page beside the kept fields."""

    colours: list[Chip]
    numbers: list[Chip]
    fake: Chip | None  # None where the rules have no riziko
    id_prefix: str  # the inputs' ids: the scorer's form and a joined phone's differ


def chips(colour, number, fake, *, riziko: bool, id_prefix: str) -> Chips:
    """The chips for these values (posted strings or stored values; anything else checks none)."""
    colour, number = str(colour or ""), str(number or "")
    return Chips(
        colours=[Chip(value, str(label), value == colour) for value, label in COLOUR_CHOICES],
        numbers=[Chip(str(n), str(n), str(n) == number) for n in NUMBERS],
        fake=Chip("on", str(_("Sahte okey")), bool(fake)) if riziko else None,
        id_prefix=id_prefix,
    )


class DealerForm(forms.Form):
    """ "İlk dağıtan": the seat that deals the first hand."""

    first_dealer = forms.TypedChoiceField(
        label=_("Dağıtan"),
        coerce=int,
        error_messages={
            "required": _("Kimin dağıttığını seçin."),
            "invalid_choice": _("Kimin dağıttığını listeden seçin."),
        },
    )

    def __init__(self, *args, players, **kwargs) -> None:
        kwargs.setdefault("auto_id", "dealer-%s")
        super().__init__(*args, **kwargs)
        self.fields["first_dealer"].choices = [(p.seat, p.name) for p in players]
