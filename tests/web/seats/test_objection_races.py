"""An undone correction and the same phone objecting again, at the same moment, for real
(PostgreSQL, threads): the undo reopens what the correction answered, the phone's new objection
replaces or joins it, and either way the seat ends with one open objection and both phones with
an answer, never an error. (On SQLite every writer waits for the database: test_objections.py
covers the two one after the other.)"""

import pytest
from django.db import connection
from django.test import Client

from cetele.models import Change
from cetele.seats.models import Objection
from tests.factories import form_data, make_match, sample_inputs
from tests.web.phones import edit, join, joined_phone
from tests.web.seats.test_seat_races import at_once

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks between threads need PostgreSQL"
    ),
]


def race_once() -> None:
    match = make_match(hands=2)
    number = match.hands.last().number
    phone, scorer = joined_phone(match, 1), Client()
    phone.post(join("seats:join_objection", match, number), {"reason": "score"})
    hand = match.hands.get(number=number)
    scorer.post(
        edit("matches:hand_edit", match, number),
        form_data(sample_inputs(remaining=40), version=hand.version),
    )
    correction = match.changes.get(action=Change.Action.EDIT)

    undone, objected = at_once(
        lambda: scorer.post(edit("matches:match_undo", match), {"change": correction.pk}),
        lambda: phone.post(join("seats:join_objection", match, number), {"reason": "penalty"}),
    )

    assert (undone.status_code, objected.status_code) == (302, 302)
    assert match.changes.filter(action=Change.Action.UNDO).exists()
    still_open = Objection.objects.filter(match=match, seat=1, outcome="")
    assert list(still_open.values_list("reason", flat=True)) == ["penalty"]


def test_an_undo_and_a_new_objection_from_the_same_seat_at_once_leave_one_open():
    for _attempt in range(5):
        race_once()
