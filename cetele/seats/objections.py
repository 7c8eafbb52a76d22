"""Objections ("İtiraz"): a joined phone's player says a saved hand is wrong; the scorer answers.

A joined phone raises one from the hand's page (/k/<token>/el/<n>/: the hand it tapped on the
sheet), with a reason among a few and an optional sentence. The sheet marks the hand's row on
every phone (cetele.matches.sheet); the scorer's page lists the open ones, each with "Doğru, kapat"
and the way to the hand's correction, which answers it (Match.edit_hand). A deleted hand's open
objections end with it. The history lists them all with how each ended.
"""

from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext_lazy as _

from cetele.matches.sheet import OpenObjection, open_objections
from cetele.models import Match
from cetele.seats.models import Objection
from cetele.shell.names import TextField

NOTE_MAX = 140  # a short sentence, as the model keeps it


class ObjectionForm(forms.Form):
    """Why this hand is wrong: a reason, and a sentence if the player wants to say more."""

    reason = forms.ChoiceField(
        label=_("Neden?"),
        choices=Objection.Reason.choices,
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Bir neden seçin."),
            "invalid_choice": _("Listeden bir neden seçin."),
        },
    )
    note = TextField(
        label=_("Kısaca (isteğe bağlı)"),
        max_length=NOTE_MAX,
        required=False,
        widget=forms.TextInput({"maxlength": NOTE_MAX, "autocomplete": "off"}),
        error_messages={
            "max_length": _("En çok %(limit_value)d harf yazın (şu an %(show_value)d)."),
        },
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "objection-%s")
        super().__init__(*args, **kwargs)


class CloseObjectionForm(forms.Form):
    """ "Doğru, kapat": the objection the button was drawn for."""

    objection = forms.IntegerField(min_value=1, max_value=2**63 - 1)


def scorer_objections(match: Match, number: int) -> list[OpenObjection]:
    """The open objections on hand `number`, for its page (the sheet's are kept with it)."""
    numbers = list(match.hands.values_list("number", flat=True))
    return open_objections(match, list(match.players.all()), numbers, number)


@dataclass(frozen=True)
class ObjectionLine:
    """One objection as the history and a hand's page tell it."""

    number: int
    name: str
    reason: str
    note: str
    raised_at: object
    outcome: str  # "" while open
    ended_at: object


def objection_history(match: Match, players: list, number: int | None = None) -> list:
    """Every objection of the match (or of hand `number`), newest first, with how it ended."""
    found = match.objections.order_by("-raised_at", "-pk")
    if number is not None:
        found = found.filter(hand_number=number)
    return [
        ObjectionLine(
            o.hand_number,
            players[o.seat].name,
            o.get_reason_display(),
            o.note,
            o.raised_at,
            o.get_outcome_display() if o.outcome else "",
            o.ended_at,
        )
        for o in found
    ]
