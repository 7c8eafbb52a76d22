"""Free text is cleaned as names are (cetele.shell.names): every field a person types into, in
every form of the app, drops bidi overrides, zero-width and control characters, so that none
reaches the sheet, the history, the café's screen or an export.

The forms are found by walking cetele's modules, so that a new form, or a new text field in an
old one, is covered without anyone remembering to add it here; a form this file does not know how
to make fails loudly: add it to MADE_WITH.
"""

import importlib
import pkgutil

import pytest
from django import forms
from django.urls import reverse

import cetele
from cetele.models import Match
from cetele.seats.models import Objection
from cetele.tea.tally import default_items
from cetele.tournaments.models import Game, ManualResult
from tests.factories import make_match, make_tournament
from tests.web.endpoints import make_table
from tests.web.phones import edit, join, joined_phone

pytestmark = pytest.mark.django_db

# What a phone may send inside typed text: a right-to-left override and a pop, a zero-width
# space, a bell, a byte-order mark, a right-to-left isolate.
DIRTY = "Ali\u202e\u200b\x07 \ufeffVeli\u2067\u202c"
CLEAN = "Ali Veli"
LEFT_OUT = ("cetele.admin", "cetele.shell.admin_site", "cetele.apps")  # the admin's own imports


def form_classes() -> list[type]:
    """Every form class defined in cetele."""
    for module in pkgutil.walk_packages(cetele.__path__, "cetele."):
        if ".migrations" not in module.name and module.name not in LEFT_OUT:
            importlib.import_module(module.name)
    found, waiting = [], [forms.BaseForm]
    while waiting:
        for subclass in waiting.pop().__subclasses__():
            waiting.append(subclass)
            if subclass.__module__.startswith("cetele.") and subclass not in found:
                found.append(subclass)
    return found


def made_with(match: Match) -> dict:
    """The arguments each form that needs some is made with, from real objects."""
    players = list(match.players.all())
    table = make_table()
    table_players = list(table.players.all())
    ruleset = match.ruleset()
    return {
        "HandLevelForm": {"players": players, "ruleset": ruleset},
        "SeatForm": {"ruleset": ruleset, "player": players[0]},
        "PenaltyForm": {"kinds": ["custom"], "others": players[1:], "player": players[0]},
        "IndicatorForm": {"ruleset": ruleset},
        "DealerForm": {"players": players},
        "PlayerNamesForm": {"players": players},
        "SeatChoiceForm": {"players": players, "taken": set()},
        "TableMatchForm": {"table": table, "players": table_players},
        "TablePlayersForm": {"players": table_players},
        "TeaItemsForm": {"items": default_items()},
        "EntrantsForm": {"esli": False, "taken": []},
        "ResultForm": {"sides": ["Ayşe", "Ali"]},
    }


def typed_into(field: forms.Field) -> bool:
    """A field a person types text into: a CharField shown as a box (not a hidden value, not a
    key checked against a pattern, not a choice)."""
    return (
        isinstance(field, forms.CharField)
        and not field.widget.is_hidden
        and not isinstance(field, forms.RegexField)
    )


def test_every_field_a_person_types_into_in_every_form_is_cleaned():
    arguments = made_with(make_match(hands=1))
    checked = []
    for form_class in form_classes():
        try:
            form = form_class(**arguments.get(form_class.__name__, {}))
        except TypeError as error:
            raise AssertionError(f"add {form_class.__name__} to made_with: {error}") from error
        for name, field in form.fields.items():
            if typed_into(field):
                cleaned = field.clean(DIRTY)
                assert cleaned == CLEAN, f"{form_class.__name__}.{name}: {cleaned!r}"
                checked.append(f"{form_class.__name__}.{name}")
    # The ones the issue found, and the kinds of each: names, notes, reasons, long text.
    for known in (
        "ObjectionForm.note",
        "ResultForm.reason",
        "PenaltyForm.note",
        "RulesetForm.description",
        "RulesetForm.name",
        "TeaItemsForm.name_0",
        "TournamentForm.name",
        "EntrantsForm.entries",
        "TableForm.name",
        "MatchForm.name_1",
    ):
        assert known in checked, known


def test_long_text_keeps_its_lines_and_cleans_each():
    from cetele.shell.names import LinesField

    text = LinesField(required=False).clean(f"\n{DIRTY}\r\n\u200b\nOnur,\u202e Deniz\n\n")
    assert text == f"{CLEAN}\n\nOnur, Deniz"


def test_text_that_shows_nothing_is_nothing_typed():
    from cetele.shell.names import TextField

    assert TextField(required=False).clean("\u200b\u202e\u0301") == ""
    with pytest.raises(forms.ValidationError):
        TextField().clean("\u200b\u2067")  # required: "This field is required"


# --- Where the issue saw it: an objection's note, a result's reason --------------------------


def test_an_objection_note_reaches_the_sheet_and_history_without_hidden_characters(client):
    match = make_match(hands=2)
    number = match.hands.first().number

    joined_phone(match, 1).post(
        join("seats:join_objection", match, number),
        {"reason": "other", "note": f"{DIRTY} 40 değil"},
    )

    assert Objection.objects.get().note == f"{CLEAN} 40 değil"
    for page in (edit("matches:match_detail", match), edit("matches:match_history", match)):
        html = client.get(page).content.decode()
        assert f"{CLEAN} 40 değil" in html
        assert not any(char in html for char in "\u202e\u200b\x07\ufeff\u2067"), page


def test_a_results_reason_is_kept_and_shown_without_hidden_characters(client):
    tournament = make_tournament(entrants=2, drawn=True)
    game = Game.objects.get(tournament=tournament)
    url = reverse("tournaments:tournament_result", args=[tournament.edit_token, game.number])

    saved = client.post(url, {"total_0": "-101", "total_1": "250", "reason": DIRTY})
    only_hidden = client.post(url, {"total_0": "1", "total_1": "2", "reason": "\u202e\u200b"})

    assert saved.status_code == 302 and only_hidden.status_code == 400
    assert list(ManualResult.objects.values_list("reason", flat=True)) == [CLEAN]
    html = client.get(
        reverse("tournaments:view_tournament", args=[tournament.view_token])
    ).content.decode()
    assert CLEAN in html and "\u202e" not in html
