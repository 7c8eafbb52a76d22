"""Objections ("İtiraz"): a joined phone says a saved hand is wrong; the scorer sees it on that
hand's row, corrects the hand or closes it ("Doğru, kapat"); the history says how each ended."""

import re

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from cetele.live.kept import SHEETS
from cetele.matches.sheet import board_key
from cetele.models import Change, HandGone, Match
from cetele.seats.models import Objection
from cetele.sharing.links import VIEW, link_context
from cetele.your_data.deletion import delete_match
from tests.factories import form_data, make_match, sample_inputs, undo
from tests.web.phones import edit, join, joined_phone

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def match() -> Match:
    match = make_match(hands=3)
    match.refresh_from_db()
    return match


def second_hand(match: Match) -> int:
    return list(match.hands.values_list("number", flat=True))[1]


def objections(match: Match) -> list[tuple]:
    return list(
        Objection.objects.filter(match=match)
        .order_by("pk")
        .values_list("hand_number", "seat", "reason", "note", "outcome")
    )


def object_to(phone: Client, match: Match, number: int, headers=None, **data):
    return phone.post(join("seats:join_objection", match, number), data, headers=headers or {})


def row_of(page: str, number: int) -> str:
    return re.search(rf'<tr data-hand="{number}"[^>]*>.*?</tr>', page, re.S).group(0)


def version(match: Match) -> int:
    return Match.objects.values_list("version", flat=True).get(pk=match.pk)


# --- Raising one ----------------------------------------------------------------------------------


def test_a_joined_phone_objects_and_the_scorer_sees_it_on_that_hands_row(client, match):
    number, shown = second_hand(match), match.version
    phone = joined_phone(match, 1)

    answer = object_to(phone, match, number, reason="score", note="  40 değil,\n 20  ")

    assert answer.status_code == 302 and answer["Location"] == join(
        "sharing:join_hand", match, number
    )
    assert objections(match) == [(number, 1, "score", "40 değil, 20", "")]
    assert version(match) == shown + 1  # every phone's poll brings it
    page = client.get(edit("matches:match_detail", match)).content.decode()
    assert 'class="objected"' in row_of(page, number) and "itiraz var" in row_of(page, number)
    assert 'class="objected"' not in row_of(page, match.hands.first().number)
    card = page[page.index('id="objections-title"') :]
    assert "2. el</strong> — Ayşe: Puan yanlış (“40 değil, 20”)" in card
    assert "Doğru, kapat" in card and edit("matches:hand_detail", match, number) in card
    # The phone is told on the hand's page, which lists its objection.
    told = phone.get(answer["Location"]).content.decode()
    assert "İtirazınız gönderildi" in told and "Puan yanlış" in told


def test_with_htmx_the_answer_is_the_form_again_and_the_sheet_is_asked_for(client, match):
    number, shown = second_hand(match), match.version
    phone = joined_phone(match, 2)

    answer = object_to(phone, match, number, HTMX, reason="penalty")

    body = answer.content.decode()
    assert answer.status_code == 200 and '<section id="objection"' in body and "<html" not in body
    assert "İtirazınız gönderildi" in body
    assert "<strong>Can</strong>: Ceza eksik" in body  # the hand's objections, as they are now
    # The scorer's poll, at the version its page shows, brings the mark and the buttons.
    poll = client.get(edit("sharing:match_poll", match) + f"?v={shown}", headers=HTMX)
    assert poll.status_code == 200
    assert "Can: Ceza eksik" in poll.content.decode() and "Doğru, kapat" in poll.content.decode()


def test_every_phone_at_the_table_sees_the_open_objection_under_the_sheet(client, match):
    number = second_hand(match)
    object_to(joined_phone(match, 1), match, number, reason="finish", note="okeyle bitti")

    for page in (
        client.get(reverse("sharing:view_match", args=[match.view_token])),
        joined_phone(match, 3).get(join("seats:join_match", match)),
    ):
        body = page.content.decode()
        assert "Açık itirazlar" in body
        assert "2. el — Ayşe: Bitiş türü yanlış (“okeyle bitti”)" in body
        assert "Doğru, kapat" not in body  # only the scorer answers


def test_the_kept_drawing_holds_no_form_and_differs_by_role(match):
    """The scorer's buttons are drawn per request around the kept sheet, never inside it."""
    object_to(joined_phone(match, 1), match, second_hand(match), reason="other")
    Client().get(edit("matches:match_detail", match))
    match.refresh_from_db()
    kept = caches[SHEETS].get(board_key(match, link_context(match, "edit")))
    assert kept is not None and len(kept.open_objections) == 1
    assert "csrfmiddlewaretoken" not in kept.html and "<form" not in kept.html


def test_a_second_objection_from_the_same_seat_replaces_its_reason(match):
    number = second_hand(match)
    phone = joined_phone(match, 1)
    object_to(phone, match, number, reason="score")

    again = object_to(phone, match, number, reason="other", note="yanlış kişi bitti")

    assert objections(match) == [(number, 1, "other", "yanlış kişi bitti", "")]
    told = phone.get(again["Location"]).content.decode()
    assert "İtirazınızın nedeni değişti: bir ele bir itirazınız olur" in told
    # Another seat's objection to the same hand is its own.
    object_to(joined_phone(match, 2), match, number, reason="score")
    assert len(objections(match)) == 2


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Bir neden seçin."),
        ({"reason": "cheating"}, "Listeden bir neden seçin."),
        ({"reason": "other", "note": "x" * 141}, "En çok 140 harf yazın (şu an 141)."),
    ],
)
def test_bad_input_is_told_and_writes_nothing(match, data, message):
    number, shown = second_hand(match), match.version
    phone = joined_phone(match, 1)

    plain = object_to(phone, match, number, **data)
    htmx = object_to(phone, match, number, HTMX, **data)

    assert plain.status_code == 400 and message in plain.content.decode()
    assert htmx.status_code == 200 and message in htmx.content.decode()
    assert objections(match) == [] and version(match) == shown


def test_a_hand_deleted_meanwhile_ends_in_a_sentence(client, match):
    number = second_hand(match)
    phone = joined_phone(match, 1)
    page = phone.get(join("sharing:join_hand", match, number)).content.decode()
    assert join("seats:join_objection", match, number) in page
    match.delete_hand(number)  # the scorer, while the phone was choosing its reason

    plain = object_to(phone, match, number, reason="score")
    htmx = object_to(phone, match, number, HTMX, reason="score")

    gone = "Bu el az önce silindi ya da geri alındı; itirazınız kaydedilmedi."
    assert plain.status_code == 302 and gone in phone.get(plain["Location"]).content.decode()
    assert htmx.status_code == 200 and gone in htmx.content.decode()
    assert objections(match) == []


def test_a_hand_deleted_after_the_form_was_checked_is_refused_under_the_lock(match):
    number = second_hand(match)
    match.delete_hand(number)
    with pytest.raises(HandGone):
        match.raise_objection(number, 1, "score", "")
    assert objections(match) == []


def test_a_phone_without_a_seat_cannot_object_and_a_hand_never_played_is_a_404(match):
    number = second_hand(match)
    stranger = Client()
    stranger.get(join("seats:join_match", match))

    refused = object_to(stranger, match, number, reason="score")
    never = object_to(joined_phone(match, 1), match, 999, reason="score")

    said = stranger.get(refused["Location"]).content.decode()
    assert "itiraz etmek için önce adınızı seçin" in said
    assert never.status_code == 404
    assert objections(match) == []


def test_the_view_link_has_no_objection_form_and_no_objection_url(client, match):
    number = second_hand(match)
    page = client.get(
        reverse("sharing:view_hand", args=[match.view_token, number])
    ).content.decode()
    assert "İtiraz et" not in page and "/itiraz/" not in page
    url = join("seats:join_objection", match, number).replace(match.join_token, match.view_token)
    assert client.post(url, {"reason": "score"}).status_code == 404
    assert objections(match) == []


# --- How it ends ----------------------------------------------------------------------------------


def test_a_correction_of_the_hand_answers_it(client, match):
    number = second_hand(match)
    object_to(joined_phone(match, 1), match, number, reason="score")
    hand = match.hands.get(number=number)

    client.post(
        edit("matches:hand_edit", match, number),
        form_data(sample_inputs(remaining=40), version=hand.version),
    )

    correction = match.changes.filter(action=Change.Action.EDIT).get()
    objection = Objection.objects.get()
    assert objection.outcome == "corrected" and objection.ended_by == correction
    page = client.get(edit("matches:match_detail", match)).content.decode()
    assert 'class="objected"' not in row_of(page, number) and "Doğru, kapat" not in page
    history = client.get(edit("matches:match_history", match)).content.decode()
    assert "Ayşe</strong>: Puan yanlış" in history and "El düzeltildi" in history


def correct(client, match: Match, number: int) -> None:
    hand = match.hands.get(number=number)
    client.post(
        edit("matches:hand_edit", match, number),
        form_data(sample_inputs(remaining=40), version=hand.version),
    )


def tap(client, match: Match, name: str, change: Change):
    """ "Geri al" or "Yinele" on the scorer's page, for `change`."""
    return client.post(edit(name, match), {"change": change.pk})


def test_undoing_a_correction_reopens_what_it_answered_and_a_redo_answers_it_again(client, match):
    number = second_hand(match)
    object_to(joined_phone(match, 1), match, number, reason="score")
    correct(client, match, number)
    correction = match.changes.get(action=Change.Action.EDIT)

    tap(client, match, "matches:match_undo", correction)

    assert objections(match) == [(number, 1, "score", "", "")]
    page = client.get(edit("matches:match_detail", match)).content.decode()
    assert 'class="objected"' in row_of(page, number) and "Doğru, kapat" in page
    hand_page = client.get(edit("matches:hand_detail", match, number)).content.decode()
    listed = hand_page.split('class="objection-list"')[1].split("</ul>")[0]
    assert "El düzeltildi" not in listed and "Açık" in listed

    tap(client, match, "matches:match_redo", match.changes.get(action=Change.Action.UNDO))

    redo = match.changes.get(action=Change.Action.REDO)
    assert [(o.outcome, o.ended_by) for o in Objection.objects.all()] == [("corrected", redo)]
    page = client.get(edit("matches:match_detail", match)).content.decode()
    assert 'class="objected"' not in row_of(page, number) and "Doğru, kapat" not in page
    hand_page = client.get(edit("matches:hand_detail", match, number)).content.decode()
    assert "El düzeltildi" in hand_page

    tap(client, match, "matches:match_undo", redo)  # the redo undone: open once more
    assert objections(match) == [(number, 1, "score", "", "")]


def test_an_undone_correction_leaves_ended_the_objection_a_seat_has_raised_again(client, match):
    number = second_hand(match)
    phone = joined_phone(match, 1)
    object_to(phone, match, number, reason="score")
    correct(client, match, number)
    object_to(phone, match, number, reason="penalty")  # the correction was wrong too

    undone = tap(client, match, "matches:match_undo", match.changes.get(action=Change.Action.EDIT))

    assert undone.status_code == 302 and match.changes.filter(action=Change.Action.UNDO).exists()
    assert objections(match) == [
        (number, 1, "score", "", "corrected"),
        (number, 1, "penalty", "", ""),
    ]


def test_the_scorer_closes_it_as_right_and_a_second_tap_is_told(client, match):
    number, other = second_hand(match), make_match(hands=1)
    object_to(joined_phone(match, 1), match, number, reason="finish")
    objection = Objection.objects.get()
    shown = version(match)

    closed = client.post(
        edit("seats:objection_close", match), {"objection": objection.pk}, follow=True
    )
    again = client.post(
        edit("seats:objection_close", match), {"objection": objection.pk}, follow=True
    )

    assert "İtiraz kapatıldı: el olduğu gibi kaldı." in closed.content.decode()
    assert "Bu itiraz zaten kapandı: Doğru bulundu, kapatıldı." in again.content.decode()
    assert objections(match) == [(number, 1, "finish", "", "closed")]
    assert version(match) == shown + 1
    assert match.hands.filter(number=number).exists()  # the hand stays as it was
    history = client.get(edit("matches:match_history", match)).content.decode()
    assert "Doğru bulundu, kapatıldı" in history
    # Another match's key cannot close it; nonsense is told, and changes nothing.
    foreign = client.post(
        edit("seats:objection_close", other), {"objection": objection.pk}, follow=True
    )
    nonsense = client.post(edit("seats:objection_close", match), {"objection": "x"}, follow=True)
    assert "Bu maçta böyle bir itiraz yok" in foreign.content.decode()
    assert "Hangi itirazın kapatılacağı anlaşılamadı" in nonsense.content.decode()


def test_a_deleted_hand_ends_its_open_objections_and_an_undo_leaves_them_ended(client, match):
    number = second_hand(match)
    object_to(joined_phone(match, 1), match, number, reason="score")
    object_to(joined_phone(match, 2), match, number, reason="penalty")

    client.post(edit("matches:hand_delete", match, number))
    deletion = match.changes.filter(action=Change.Action.DELETE).get()
    assert [(o.outcome, o.ended_by) for o in Objection.objects.all()] == [("gone", deletion)] * 2

    undo(match)  # the hand comes back; the objections stay ended (they can be raised again)
    assert {o.outcome for o in Objection.objects.all()} == {"gone"}
    history = client.get(edit("matches:match_history", match)).content.decode()
    assert history.count("El silindi") >= 3  # two objections and the deletion itself


def test_undoing_a_hands_addition_ends_its_objections_too(match):
    last = match.hands.last().number
    object_to(joined_phone(match, 1), match, last, reason="score")

    undo(match)  # the last change is the last hand's addition

    assert Objection.objects.get().outcome == "gone"


def test_the_scorers_hand_page_lists_its_objections_with_the_button(client, match):
    number = second_hand(match)
    object_to(joined_phone(match, 3), match, number, reason="other", note="kafa atılmadı")

    page = client.get(edit("matches:hand_detail", match, number)).content.decode()

    assert "Deniz</strong>: Başka (“kafa atılmadı”)" in page and "Doğru, kapat" in page
    assert "Eli düzeltirseniz açık itirazları “El düzeltildi” olarak kapanır." in page


def test_the_view_links_drawing_is_drawn_again_when_an_objection_is_raised(client, match):
    view = reverse("sharing:view_match", args=[match.view_token])
    before = client.get(view).content.decode()
    assert "Açık itirazlar" not in before
    object_to(joined_phone(match, 1), match, second_hand(match), reason="score")
    match.refresh_from_db()
    assert caches[SHEETS].get(board_key(match, link_context(match, VIEW))) is None
    assert "Açık itirazlar" in client.get(view).content.decode()


def test_a_deleted_match_takes_its_objections_with_it(client, match):
    """Ended or open, by a change or not: the match's deletion leaves none (the database checks
    the link to the change that ended one at the commit)."""
    first, number = match.hands.first().number, second_hand(match)
    object_to(joined_phone(match, 1), match, first, reason="score")
    object_to(joined_phone(match, 2), match, number, reason="score")
    match.delete_hand(first)

    delete_match(match)

    assert not Objection.objects.exists() and not Match.objects.exists()
