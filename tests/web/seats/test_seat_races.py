"""Two phones at the same moment, for real (PostgreSQL, threads): one seat asked by two phones at
once, and a row that waits for the save's lock. On SQLite every writer waits for the database
(IMMEDIATE transactions), which tests/web/seats/test_joining_the_table.py covers one request
after the other."""

import threading

import pytest
from django.db import connection, transaction
from django.test import Client

from cetele.models import Match
from cetele.seats.models import DraftRow, Objection, SeatClaim
from tests.factories import make_match, sample_inputs
from tests.web import races

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks between threads need PostgreSQL"
    ),
]


def at_once(*calls) -> list:
    """Run the calls in threads released together; their results in order. Each thread closes
    the database connection Django opened for it, so that none is left open past the test."""
    # `connection` is looked up in the thread: each thread has its own (`connection.close` read
    # here would be this thread's, which the others may not touch).
    return races.at_once(*calls, after=lambda: connection.close())


def test_two_phones_asking_for_one_seat_at_once_one_gets_it_the_other_a_sentence():
    match = make_match(hands=1)
    url = f"/k/{match.join_token}/"
    for _attempt in range(5):
        SeatClaim.objects.all().delete()
        phones = [Client(), Client()]
        answers = at_once(*(lambda p=p: p.post(url, {"seat": "2"}) for p in phones))
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses == [302, 409], statuses
        refused = next(answer for answer in answers if answer.status_code == 409)
        assert "Bu adı başka bir telefon seçti: Can." in refused.content.decode()
        assert SeatClaim.objects.filter(seat=2).count() == 1


def test_a_row_waiting_for_the_saves_lock_sees_the_saved_hand_and_is_refused():
    match = make_match(hands=1)
    phone = Client()
    assert phone.post(f"/k/{match.join_token}/", {"seat": "1"}).status_code == 302
    data = {"position": "2", "row-opened": "series", "row-remaining": "9"}
    data |= {"row-okeys": "0", "row-fake_okeys": "0"}
    locked, answer = threading.Event(), {}

    def send_row() -> None:
        locked.wait(10)
        try:
            answer["response"] = phone.post(f"/k/{match.join_token}/satir/", data, follow=True)
        finally:
            connection.close()

    thread = threading.Thread(target=send_row)
    thread.start()
    with transaction.atomic():  # the save, holding the match's lock while the row arrives
        Match.objects.select_for_update().get(pk=match.pk)
        locked.set()
        thread.join(1.5)  # the row is now waiting for the lock
        match.add_hand(sample_inputs(), request_token="race")
    thread.join(30)

    assert "bu satır sayılmadı" in answer["response"].content.decode()
    assert not DraftRow.objects.exists()


def test_an_objection_waiting_for_a_deletions_lock_sees_the_hand_gone_and_is_refused():
    """The phone's hand page was drawn, the hand is there when the request starts, and the
    scorer's deletion holds the match's lock: the objection waits, then is told in a sentence
    (fails if the hand is looked for before the lock, or in the statement that waited)."""
    match = make_match(hands=2)
    number = match.hands.last().number
    phone = Client()
    assert phone.post(f"/k/{match.join_token}/", {"seat": "1"}).status_code == 302
    url = f"/k/{match.join_token}/el/{number}/itiraz/"
    locked, answer = threading.Event(), {}

    def send_objection() -> None:
        locked.wait(10)
        try:
            answer["response"] = phone.post(url, {"reason": "score"}, follow=True)
        finally:
            connection.close()

    thread = threading.Thread(target=send_objection)
    thread.start()
    with transaction.atomic():  # the deletion, holding the match's lock while the objection waits
        Match.objects.select_for_update().get(pk=match.pk)
        locked.set()
        thread.join(1.5)
        match.delete_hand(number)
    thread.join(30)

    said = answer["response"].content.decode()
    assert "Bu el az önce silindi ya da geri alındı; itirazınız kaydedilmedi." in said
    assert not Objection.objects.exists()
