"""A joined phone's row and the scorer's "Eli kaydet": a save whose form had not shown a row the
server holds is refused, and its form comes back with the row written in and a sentence naming
it; a save that has shown every row is taken. The same racing against real servers:
tests/web/seats/test_rows_at_the_save_races.py; on a phone:
tests/browser/seats/test_rows_at_the_save.py."""

import html
import json
import re

import pytest

from cetele.models import Hand, OpenIndicator
from cetele.seats.models import DraftRow
from tests.factories import form_data, make_match, sample_inputs
from tests.web.phones import edit, join, joined_phone
from tests.web.seats.test_joining_the_table import row_data, rows_seen_by

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "HX-Target": "hand-form"}
ROWS_SEEN = re.compile(r'name="rows_seen" value="([^"]*)"')


def ali_finished() -> dict:
    """The scorer's first hand: Ali finished, nobody else opened (Ayşe's row not yet in)."""
    players = [{"opened": "series"}, {"opened": "no"}, {"opened": "no"}, {"opened": "no"}]
    return {"finisher": 0, "okey_finish": False, "kafa": False, "players": players}


def seen_in(page: str) -> str:
    """The rows a page's hand form says it has shown."""
    return html.unescape(ROWS_SEEN.search(page)[1])


def test_a_save_drawn_before_a_row_arrived_is_refused_with_the_row_written_in(client):
    match = make_match()
    page = client.get(edit("matches:match_detail", match)).content.decode()
    assert seen_in(page) == ""  # a new form has shown no row
    ayse = joined_phone(match, 1)
    ayse.post(join("seats:join_row", match), row_data(1, remaining=20))

    data = form_data(ali_finished(), position=1) | {"rows_seen": ""}
    answer = client.post(edit("matches:hand_create", match), data, headers=HTMX)

    body = answer.content.decode()
    assert answer.status_code == 200
    assert "El kaydedilmedi: siz kaydederken bir telefondan satır geldi" in body
    assert "Ayşe yazdı: Seri · 20 — bakıp kaydedin." in body
    assert not Hand.objects.exists() and DraftRow.objects.count() == 1  # nothing saved, row kept
    assert 'name="p1-remaining" value="20"' in body  # the form brought up to date
    assert re.search(r'name="p1-opened" value="series"[^>]*checked', body)
    # The page's rows' section asks at once.
    assert list(json.loads(answer["HX-Trigger"])) == ["cetele:rows-now"]

    again = data | {"p1-opened": "series", "p1-remaining": "20", "rows_seen": seen_in(body)}
    saved = client.post(edit("matches:hand_create", match), again, headers=HTMX)

    assert "cetele:hand-saved" in saved["HX-Trigger"]
    assert Hand.objects.get().inputs["players"][1] == {
        "opened": "series",
        "remaining": 20,
        "okeys": 0,
        "fake_okeys": 0,
        "penalties": [],
    }


def test_without_javascript_the_refused_save_shows_the_page_with_the_row(client):
    match = make_match()
    ayse = joined_phone(match, 1)
    ayse.post(join("seats:join_row", match), row_data(1, remaining=20))

    data = form_data(ali_finished(), position=1)  # a plain form: no rows_seen was ever filled
    answer = client.post(edit("matches:hand_create", match), data)

    body = answer.content.decode()
    assert answer.status_code == 200 and "<html" in body
    assert "Ayşe yazdı: Seri · 20 — bakıp kaydedin." in body
    assert not Hand.objects.exists()
    again = data | {"p1-opened": "series", "p1-remaining": "20", "rows_seen": seen_in(body)}
    assert client.post(edit("matches:hand_create", match), again).status_code == 302
    assert Hand.objects.get().inputs["players"][1]["remaining"] == 20


def test_a_save_that_showed_every_row_is_taken_and_a_row_changed_since_is_not_missed(client):
    match = make_match()
    ayse = joined_phone(match, 1)
    ayse.post(join("seats:join_row", match), row_data(1, remaining=20))
    shown = rows_seen_by(client, match)
    ayse.post(
        join("seats:join_row", match), row_data(1, remaining=25)
    )  # changed after it was shown
    inputs = sample_inputs(finisher=0, remaining=20)

    stale = client.post(
        edit("matches:hand_create", match), form_data(inputs, position=1) | {"rows_seen": shown}
    )

    assert "Ayşe yazdı: Seri · 25 — bakıp kaydedin." in stale.content.decode()
    assert 'name="p1-remaining" value="25"' in stale.content.decode()
    assert not Hand.objects.exists()
    shown = rows_seen_by(client, match)
    inputs = sample_inputs(finisher=0, remaining=25)
    saved = client.post(
        edit("matches:hand_create", match), form_data(inputs, position=1) | {"rows_seen": shown}
    )
    assert saved.status_code == 302
    assert Hand.objects.get().inputs["players"][1]["remaining"] == 25
    assert not DraftRow.objects.exists()


@pytest.mark.parametrize("sent", ["garbage", "1-zzzz <script>", "1-" + "a" * 5000, "\x00"])
def test_a_rows_seen_that_names_no_row_only_shows_the_rows_first(client, sent):
    match = make_match()
    joined_phone(match, 2).post(join("seats:join_row", match), row_data(1, opened="no"))

    answer = client.post(
        edit("matches:hand_create", match),
        form_data(ali_finished(), position=1) | {"rows_seen": sent},
    )

    assert answer.status_code == 200
    assert "Can yazdı: Açmadı — bakıp kaydedin." in answer.content.decode()
    assert not Hand.objects.exists()


def test_a_finished_row_is_said_and_the_scorers_finisher_stays(client):
    """A phone's "Bitirdim" against the scorer's choice: the scorer decides, seeing both."""
    match = make_match()
    joined_phone(match, 1).post(join("seats:join_row", match), row_data(1, finished=True))

    answer = client.post(edit("matches:hand_create", match), form_data(ali_finished(), position=1))

    body = answer.content.decode()
    assert "Ayşe yazdı: Bitirdi — bakıp kaydedin." in body
    assert re.search(r'name="finisher" value="0"[^>]*checked', body)
    assert not Hand.objects.exists()


def test_the_refused_save_speaks_english_with_the_switch(client):
    client.cookies["django_language"] = "en"
    match = make_match()
    joined_phone(match, 1).post(join("seats:join_row", match), row_data(1, remaining=20, okeys=1))

    answer = client.post(edit("matches:hand_create", match), form_data(ali_finished(), position=1))

    body = answer.content.decode()
    assert "The hand wasn&#x27;t saved: a row came from a phone as you saved" in body
    assert "From Ayşe&#x27;s phone: Run/set · 20 · 1 okey — check it and save." in body


def test_a_hand_put_back_by_geri_al_takes_the_place_of_the_rows_and_gosterge_written_for_it(
    client,
):
    """Hand 1 deleted, the phones write the open hand 1 again (a row, a gösterge); the scorer's
    "Geri al" brings hand 1 back: what they wrote was for that place, which is saved now, so the
    next hand starts empty, as after "Eli kaydet"."""
    match = make_match()
    client.post(edit("matches:hand_create", match), form_data(sample_inputs(), position=1))
    client.post(edit("matches:hand_delete", match, Hand.objects.get().number))
    ayse = joined_phone(match, 1)
    ayse.post(join("seats:join_row", match), row_data(1, remaining=20))
    ayse.post(
        join("deal:join_indicator", match), {"position": "1", "colour": "red", "indicator": "7"}
    )
    assert DraftRow.objects.count() == 1 and OpenIndicator.objects.count() == 1

    latest = match.last_undoable_change()
    client.post(edit("matches:match_undo", match), {"change": latest.pk})

    assert Hand.objects.count() == 1
    assert not DraftRow.objects.exists() and not OpenIndicator.objects.exists()
