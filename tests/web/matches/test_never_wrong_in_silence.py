"""A sheet never ends up wrong in silence: "Geri al" reverses only the change its button names,
the last-hand multiplier sits on one hand whatever moves the hands, and a hand another phone
removed is answered with a sentence, not an error (both databases)."""

import re
import threading

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse

import scoring
from cetele.models import Change, Hand, Match
from tests.factories import add_hand, form_data, make_match, sample_inputs, undo_form

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def url(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.edit_token, *args])


def saved_note_change(html: str) -> str:
    """The change the "Geri al" of a save's note names (what that button posts)."""
    note = html.split('id="saved-note"')[1].split("</form>")[0]
    return re.search(r'name="change" value="(\d+)"', note).group(1)


def save_on(phone: Client, match: Match, inputs: dict, position: int) -> str:
    response = phone.post(
        url("matches:hand_create", match), form_data(inputs, position=position), headers=HTMX
    )
    assert response.status_code == 200
    return response.content.decode()


def messages_of(response) -> str:
    return " ".join(str(message) for message in response.context["messages"])


# --- 1. "Geri al" names the change it undoes ----------------------------------------------------


def test_geri_al_on_a_stale_note_does_not_remove_another_phones_hand():
    match = make_match(planned_hands=5)
    phone_a, phone_b = Client(), Client()
    note_a = save_on(phone_a, match, sample_inputs(finisher=0), position=1)
    save_on(phone_b, match, sample_inputs(finisher=1), position=2)  # A has not polled since

    response = phone_a.post(
        url("matches:match_undo", match), {"change": saved_note_change(note_a)}, follow=True
    )

    assert match.hands.count() == 2  # B's hand 2 is still there, and so is A's hand 1
    assert "2. el başka bir telefondan eklendi; hiçbir şey geri alınmadı." in messages_of(response)
    assert not match.changes.filter(action=Change.Action.UNDO).exists()


def test_geri_al_on_the_latest_note_undoes_that_hand():
    match = make_match(planned_hands=5)
    phone = Client()
    save_on(phone, match, sample_inputs(finisher=0), position=1)
    note = save_on(phone, match, sample_inputs(finisher=1), position=2)

    response = phone.post(
        url("matches:match_undo", match), {"change": saved_note_change(note)}, follow=True
    )

    assert list(match.hands.values_list("inputs__finisher", flat=True)) == [0]
    assert "2. el çeteleden çıkarıldı." in messages_of(response)


def test_a_double_tap_on_geri_al_undoes_one_change_not_two(client):
    match = make_match(hands=3)
    form = undo_form(match)

    first = client.post(url("matches:match_undo", match), form, follow=True)
    second = client.post(url("matches:match_undo", match), form, follow=True)

    assert match.hands.count() == 2
    assert "3. el çeteleden çıkarıldı." in messages_of(first)
    assert "Bu zaten geri alındı: 3. el eklendi." in messages_of(second)
    assert match.changes.filter(action=Change.Action.UNDO).count() == 1


# Threads of one test process share SQLite's in-memory test database, whose locks are not a real
# file's: the same races on a real SQLite file are run against gunicorn
# (tests/web/shell/test_faults.py).
on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="threads against PostgreSQL; SQLite: test_faults.py"
)


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_many_parallel_taps_on_one_geri_al_undo_one_change():
    match = make_match(hands=3)
    form = undo_form(match)
    statuses = []

    def tap() -> None:
        try:
            statuses.append(Client().post(url("matches:match_undo", match), form).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=tap) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert statuses == [302] * 8  # each told, none a 500
    assert match.hands.count() == 2
    assert match.changes.filter(action=Change.Action.UNDO).count() == 1


def test_geri_al_beside_the_sheet_names_its_change_and_yinele_redoes_it(client):
    match = make_match(hands=2)
    page = client.get(url("matches:match_detail", match)).content.decode()
    latest = match.last_undoable_change()
    assert f'name="change" value="{latest.pk}"' in page
    assert "Yinele" not in page

    client.post(url("matches:match_undo", match), {"change": latest.pk})
    assert match.hands.count() == 1
    page = client.get(url("matches:match_detail", match)).content.decode()
    undone = match.changes.get(action=Change.Action.UNDO)
    assert url("matches:match_redo", match) in page and f'name="change" value="{undone.pk}"' in page

    response = client.post(url("matches:match_redo", match), {"change": undone.pk}, follow=True)
    assert "2. el yeniden eklendi." in messages_of(response)
    assert match.hands.count() == 2
    # The redo is itself undoable, and a second tap on the same Yinele does nothing more.
    again = client.post(url("matches:match_redo", match), {"change": undone.pk}, follow=True)
    assert "zaten yinelendi" in messages_of(again)
    assert match.last_undoable_change().action == Change.Action.REDO
    client.post(url("matches:match_undo", match), undo_form(match))
    assert match.hands.count() == 1


def test_yinele_is_refused_once_another_change_came_after_the_undo(client):
    match = make_match(hands=2)
    client.post(url("matches:match_undo", match), undo_form(match))
    undone = match.changes.get(action=Change.Action.UNDO)
    add_hand(match, sample_inputs(finisher=2))  # another phone's hand

    response = client.post(url("matches:match_redo", match), {"change": undone.pk}, follow=True)

    assert "2. el başka bir telefondan eklendi; hiçbir şey geri alınmadı." in messages_of(response)
    assert match.hands.count() == 2


@pytest.mark.parametrize("change", ["", "abc", "-1", "99999999999999", "0"])
def test_a_geri_al_naming_no_change_of_this_match_changes_nothing(client, change):
    match = make_match(hands=2)
    other = make_match(hands=1)

    response = client.post(url("matches:match_undo", match), {"change": change}, follow=True)
    elsewhere = client.post(url("matches:match_undo", match), undo_form(other), follow=True)

    assert response.status_code == elsewhere.status_code == 200
    assert "Geri alınacak bir değişiklik yok." in messages_of(response)
    assert match.hands.count() == 2 and other.hands.count() == 1


# --- 2. The last hand's multiplier sits on one hand ---------------------------------------------


def last_hand_match(multiplier: int | None = 3, planned: int = 5) -> Match:
    rules = scoring.resolve_rules("cetele-standart")
    rules["last_hand_multiplier"] = multiplier
    return Match.start(
        ["Ali", "Ayşe", "Can", "Deniz"], teams=False, planned_hands=planned, rules=rules
    )


def play(client: Client, match: Match, finisher: int) -> None:
    position = match.hands.count() + 1
    inputs = sample_inputs(finisher=finisher, remaining=10 + finisher)
    response = client.post(url("matches:hand_create", match), form_data(inputs, position=position))
    assert response.status_code == 302


def assert_scored_as_the_sheet_says(match: Match) -> None:
    """Only the hand in the last planned place carries the last-hand fact, and every hand's
    stored scores are what the engine gives for its inputs with that fact."""
    hands = list(match.hands.all())
    for position, hand in enumerate(hands, start=1):
        assert hand.inputs.get("last_hand", False) == (position == match.planned_hands)
        assert hand.result == match.score(hand.inputs)


def test_deleting_a_hand_moves_the_last_hand_multiplier_with_the_places(client):
    match = last_hand_match()
    for finisher in (0, 1, 2, 3, 0):
        play(client, match, finisher)
    old_last = match.hands.last()
    tripled = old_last.result["scores"]
    assert old_last.inputs["last_hand"]

    client.post(url("matches:hand_delete", match, 2))
    old_last.refresh_from_db()
    assert not old_last.inputs["last_hand"]  # now the 4th hand: counted once
    assert [score * 3 for score in old_last.result["scores"]] == tripled
    assert_scored_as_the_sheet_says(match)
    rescore = match.changes.get(action=Change.Action.RESCORE)
    assert rescore.hand_number == old_last.number
    assert rescore.caused_by.action == Change.Action.DELETE

    play(client, match, 1)  # the new 5th: the one last hand
    assert_scored_as_the_sheet_says(match)
    assert sum(hand.inputs.get("last_hand", False) for hand in match.hands.all()) == 1

    # Undo the new 5th and the deletion: the old 5th is the last hand again, tripled.
    client.post(url("matches:match_undo", match), undo_form(match))
    client.post(url("matches:match_undo", match), undo_form(match))
    old_last.refresh_from_db()
    assert old_last.result["scores"] == tripled
    assert_scored_as_the_sheet_says(match)
    history = client.get(url("matches:match_history", match)).content.decode()
    assert "Son el yeniden hesaplandı" in history


def test_redoing_a_deletion_moves_the_multiplier_again(client):
    match = last_hand_match()
    for finisher in (0, 1, 2, 3, 0):
        play(client, match, finisher)
    client.post(url("matches:hand_delete", match, 3))
    client.post(url("matches:match_undo", match), undo_form(match))
    undone = match.changes.get(action=Change.Action.UNDO)
    assert_scored_as_the_sheet_says(match)

    client.post(url("matches:match_redo", match), {"change": undone.pk})

    assert match.hands.count() == 4
    assert_scored_as_the_sheet_says(match)


def test_a_match_without_a_last_hand_multiplier_is_never_rescored(client):
    match = last_hand_match(multiplier=None)
    for finisher in (0, 1, 2, 3, 0):
        play(client, match, finisher)
    before = {hand.number: (hand.inputs, hand.result) for hand in match.hands.all()}

    client.post(url("matches:hand_delete", match, 2))
    client.post(url("matches:match_undo", match), undo_form(match))

    after = {hand.number: (hand.inputs, hand.result) for hand in match.hands.all()}
    assert after == before
    assert not match.changes.filter(action=Change.Action.RESCORE).exists()


# --- 5. A hand another phone removed: a sentence, the typing kept -----------------------------


def test_correcting_a_hand_another_phone_deleted_keeps_the_typing_and_says_so(client):
    match = make_match(hands=3)
    hand = match.hands.get(number=2)
    typed = sample_inputs(finisher=3, remaining=47)
    match.delete_hand(2)  # the other phone, while this one was typing

    for headers in ({}, HTMX):
        response = client.post(
            url("matches:hand_edit", match, 2),
            form_data(typed, version=hand.version),
            headers=headers,
        )
        html = response.content.decode()
        assert response.status_code == 200
        assert "Bu el az önce başka bir telefondan silindi ya da geri alındı." in html
        assert "yazdıklarınız aşağıda duruyor" in html
        assert re.search(r'name="p0-remaining"[^>]*value="47"', html)
    assert match.hands.count() == 2


def test_correcting_a_hand_whose_adding_another_phone_undid_keeps_the_typing(client):
    match = make_match(hands=2)
    hand = match.hands.last()
    client.post(url("matches:match_undo", match), undo_form(match))  # the other phone's undo

    typed = sample_inputs(finisher=2, remaining=33)
    response = client.post(
        url("matches:hand_edit", match, hand.number), form_data(typed, version=hand.version)
    )

    assert response.status_code == 200
    assert "silindi ya da geri alındı" in response.content.decode()
    assert match.hands.count() == 1


def test_deleting_a_hand_another_phone_deleted_says_so(client):
    match = make_match(hands=3)
    client.post(url("matches:hand_delete", match, 2))

    again = client.post(url("matches:hand_delete", match, 2), follow=True)

    assert again.status_code == 200
    assert "Bu el az önce başka bir telefondan silindi ya da geri alındı." in messages_of(again)
    assert match.hands.count() == 2
    assert match.changes.filter(action=Change.Action.DELETE).count() == 1


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_corrections_and_deletions_racing_an_undo_never_fail():
    """Two phones: one corrects or deletes the last hand while the other undoes its adding,
    many rounds at once: every answer is a page (200 or a redirect), never a 500."""
    match = make_match(hands=0, planned_hands=200)
    statuses: list[int] = []

    def phone(request) -> None:
        try:
            statuses.append(request().status_code)
        finally:
            connection.close()

    for round_ in range(10):
        hand = add_hand(match, sample_inputs(finisher=round_ % 4))
        change = {"change": match.last_undoable_change().pk}
        if round_ % 2:
            other = lambda h=hand: Client().post(url("matches:hand_delete", match, h.number))  # noqa: E731
        else:
            data = form_data(sample_inputs(finisher=1, remaining=5), version=hand.version)
            other = lambda h=hand, d=data: Client().post(  # noqa: E731
                url("matches:hand_edit", match, h.number), d
            )
        threads = [
            threading.Thread(target=phone, args=(request,))
            for request in (
                lambda c=change: Client().post(url("matches:match_undo", match), c),
                other,
            )
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)

    assert len(statuses) == 20
    assert set(statuses) <= {200, 302}, statuses
    assert Hand.objects.filter(match=match).count() <= 10


@pytest.mark.parametrize(
    ("language", "undone", "redone"),
    [
        ("tr", "Silinen 3. el geri geldi.", "3. el yeniden silindi."),
        ("en", "Deleted hand 3 is back.", "Hand 3 deleted again."),
    ],
)
def test_geri_al_and_yinele_say_what_they_did_to_which_hand(client, language, undone, redone):
    """A deletion undone, then redone: each sentence names the hand by its place on the sheet,
    in the page's language."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    match = make_match(hands=4)
    client.post(url("matches:hand_delete", match, 3))

    response = client.post(url("matches:match_undo", match), undo_form(match), follow=True)

    assert undone in messages_of(response)
    assert match.hands.count() == 4
    undo = match.changes.get(action=Change.Action.UNDO)

    response = client.post(url("matches:match_redo", match), {"change": undo.pk}, follow=True)

    assert redone in messages_of(response)
    assert match.hands.count() == 3


def bar_label(client: Client, match: Match) -> str:
    """What the "Geri al" beside the sheet says, as the scorer's page draws it."""
    page = client.get(url("matches:match_detail", match)).content.decode()
    bar = page.split('id="match-actions"')[1].split("</nav>")[0]
    return re.search(r"↶ (.*?)</button>", bar).group(1)


def test_geri_al_beside_the_sheet_names_the_hand_by_its_place(client):
    """The bar names what a tap would undo by the hand's place on the sheet, as the sheet shows
    it: after a deletion the hands below move up, and so does the name."""
    match = make_match(hands=3)
    assert bar_label(client, match) == "Geri al: 3. el eklendi"

    client.post(url("matches:hand_delete", match, 1))
    assert bar_label(client, match) == "Geri al: 1. el silindi"

    third = match.hands.last()  # hand number 3, now the sheet's 2nd
    match.edit_hand(third.number, sample_inputs(finisher=2), third.version)
    assert bar_label(client, match) == "Geri al: 2. el düzeltildi"

    match.rename_players(["Ali", "Ayşe", "Cem", "Deniz"])
    assert bar_label(client, match) == "Geri al: Oyuncu adları değişti"

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.post(url("matches:match_undo", match), undo_form(match))
    assert bar_label(client, match) == "Undo: hand 2 corrected"


def test_a_saves_answer_names_the_hand_it_saved_in_the_bar(client):
    match = make_match(hands=4)
    html = save_on(client, match, sample_inputs(finisher=1), position=5)
    bar = html.split('id="match-actions"')[1].split("</nav>")[0]
    assert "↶ Geri al: 5. el eklendi</button>" in bar


def test_after_yinele_geri_al_names_what_was_done_again(client):
    match = make_match(hands=3)
    client.post(url("matches:hand_delete", match, 2))
    client.post(url("matches:match_undo", match), undo_form(match))  # hand 2 is back
    undone = match.changes.get(action=Change.Action.UNDO)

    client.post(url("matches:match_redo", match), {"change": undone.pk})  # and deleted again

    assert bar_label(client, match) == "Geri al: 2. el silindi"
    client.post(url("matches:match_undo", match), undo_form(match))
    assert match.hands.count() == 3
