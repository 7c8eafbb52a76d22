"""What "Geri al" and "Yinele" say, and what the history says, are sentences a player
understands, naming each hand by its place on the sheet (cetele.matches.changes): "Silinen 2. el
geri geldi", never "Geri alındı: 2. el silindi" or "Yinelendi — Geri alındı"."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from cetele.models import Match
from tests.factories import make_match, undo_form
from tests.web.phones import join, joined_phone
from tests.web.words.test_vocabulary import page_text

pytestmark = pytest.mark.django_db


def url(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.edit_token, *args])


def said(response) -> str:
    return " ".join(str(message) for message in response.context["messages"])


def redo(client, match: Match):
    """Tap "↷ Yinele" as the sheet draws it: the form names the undo it reverses."""
    page = client.get(url("matches:match_detail", match)).content.decode()
    form = re.search(r'action="[^"]*/yinele/".*?</form>', page, re.S)
    change = re.search(r'name="change" value="(\d+)"', form[0])[1]
    return client.post(url("matches:match_redo", match), {"change": change}, follow=True), form[0]


@pytest.mark.parametrize(
    ("lang", "back", "gone_again"),
    [
        ("tr", "Silinen 3. el geri geldi.", "3. el yeniden silindi."),
        ("en", "Deleted hand 3 is back.", "Hand 3 deleted again."),
    ],
)
def test_undoing_a_redo_says_what_it_did_to_the_hand(client, lang, back, gone_again):
    """Delete, undo, redo, undo again: the last undo brings the hand back as the first did —
    it fell back to "Geri alındı: 3. el silindi." before."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    match = make_match(hands=4)
    client.post(url("matches:hand_delete", match, 3), follow=True)
    assert (
        said(client.post(url("matches:match_undo", match), undo_form(match), follow=True)) == back
    )

    again, button = redo(client, match)
    assert said(again) == gone_again
    undone = client.post(url("matches:match_undo", match), undo_form(match), follow=True)

    assert said(undone) == back
    assert match.hands.count() == 4


def test_yinele_names_what_it_brings_back(client):
    """ "↷ Yinele: 2. el düzeltildi", not a bare "↷ Yinele"."""
    match = make_match(hands=3)
    client.post(url("matches:hand_delete", match, 2), follow=True)
    client.post(url("matches:match_undo", match), undo_form(match), follow=True)

    _response, button = redo(client, match)

    assert "↷ Yinele: 2. el silindi" in " ".join(page_text_of(button).split())


def page_text_of(fragment: str) -> str:
    class Drawn:
        content = fragment.encode()

    return page_text(Drawn)


def test_the_history_says_each_change_as_a_sentence_naming_the_hand_by_its_place(client):
    """Four hands; the second deleted, brought back by "Geri al", deleted again by "Yinele",
    and that "Yinele" undone. The history says each change in a sentence, newest first."""
    match = make_match(hands=4)
    client.post(url("matches:hand_delete", match, 2), follow=True)
    client.post(url("matches:match_undo", match), undo_form(match), follow=True)
    redo(client, match)
    client.post(
        url("matches:match_undo", match), undo_form(match), follow=True
    )  # undoes the redo: hand 2 is back

    page = page_text(client.get(url("matches:match_history", match)))
    lines = re.findall(r"^\s*(\S.*?)\s*$", page, re.M)

    expected = [
        "Silinen 2. el geri geldi",
        "2. el yeniden silindi",
        "Silinen 2. el geri geldi",
        "2. el silindi",
        "4. el eklendi",
    ]
    shown = [line for line in lines if re.match(r"^(Silinen )?\d\. el ", line)]
    assert shown[:5] == expected
    assert "Yinelendi" not in page and "Geri alındı" not in page


def test_the_history_names_a_hand_by_its_place_on_the_sheet_not_its_number(client):
    """After the first hand is deleted, the hand saved fourth is the sheet's third: the history
    says "3. el eklendi" of it, as "Geri al" and the sheet do (it said "4. el")."""
    match = make_match(hands=4)
    client.post(url("matches:hand_delete", match, 1), follow=True)

    page = page_text(client.get(url("matches:match_history", match)))
    lines = [line.strip() for line in page.splitlines() if re.match(r"^\s*\d\. el ", line)]

    assert lines[:2] == ["1. el silindi", "3. el eklendi"]


def test_the_historys_objections_name_their_hand_by_its_place(client):
    """An objection to the hand saved third, once the first is deleted, is about the sheet's
    second hand: "2. el · Ayşe", as the sheet's own list says it."""
    match = make_match(hands=3)
    third = list(match.hands.values_list("number", flat=True))[2]
    joined_phone(match, 1).post(join("seats:join_objection", match, third), {"reason": "score"})
    client.post(url("matches:hand_delete", match, 1), follow=True)

    page = " ".join(page_text(client.get(url("matches:match_history", match))).split())

    assert "2. el · Ayşe : Puan yanlış" in page
