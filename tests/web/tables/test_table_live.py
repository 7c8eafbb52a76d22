"""A table's page follows its matches live (cetele.tables.live): its live part asks with the
version it shows and is answered 204 until something it shows changed — a hand saved in one of
its matches, a match started or deleted, its players renamed, a drink waiting at the table —
then with the part again, on the view link with nothing but view links."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cetele.tables.season import save_players
from cetele.your_data.deletion import delete_match
from tests.factories import add_hand, sample_inputs
from tests.web.tables.test_tables_and_rematches import play, start_at, table_with
from tests.web.tea.test_tea_tally import CAY, at_table

pytestmark = pytest.mark.django_db

POLLS = {"edit": "tables:table_poll", "view": "tables:view_table_poll"}
PAGES = {"edit": "tables:table_detail", "view": "tables:view_table"}


def token_of(table, role: str) -> str:
    return table.edit_token if role == "edit" else table.view_token


def asked(client, table, role: str = "edit") -> str:
    """The poll's address as the page drawn now names it (its version, its season)."""
    page = client.get(reverse(PAGES[role], args=[token_of(table, role)])).content.decode()
    found = re.search(r'id="table-live" hx-get="([^"]+)"', page)
    assert found, "the page has its live part"
    return found[1].replace("&amp;", "&")


def test_the_live_part_says_nothing_until_a_hand_is_saved_then_shows_it(client):
    table = table_with()
    match = start_at(table, [0, 1, 2, 3], planned_hands=3)
    for role in ("edit", "view"):
        poll = asked(client, table, role)
        assert client.get(poll).status_code == 204
    polls = {role: asked(client, table, role) for role in ("edit", "view")}

    add_hand(match, sample_inputs(4, finisher=0, remaining=10))

    for poll in polls.values():
        answer = client.get(poll)
        body = answer.content.decode()
        assert answer.status_code == 200
        assert "sürüyor: 1 / 3 el" in body
        again = re.search(r'hx-get="([^"]+)"', body)[1].replace("&amp;", "&")
        assert client.get(again).status_code == 204
    view = client.get(polls["view"]).content.decode()
    assert table.edit_token not in view and match.edit_token not in view
    assert match.view_token in view


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda table, match: play(match, [0]), id="a hand saved"),
        pytest.param(lambda table, match: start_at(table, [1, 2, 3, 0]), id="a match started"),
        pytest.param(lambda table, match: delete_match(match), id="a match deleted"),
        pytest.param(lambda table, match: save_players(table, [], ["Ece"]), id="a player seated"),
    ],
)
def test_every_change_the_page_shows_is_a_new_version(client, change):
    table = table_with()
    match = start_at(table, [0, 1, 2, 3], planned_hands=1)
    poll = asked(client, table)
    change(table, match)
    assert client.get(poll).status_code == 200


def test_a_drink_waiting_at_the_table_is_a_new_version(client):
    table = table_with()
    poll = asked(client, table)
    assert at_table(client, table, 0, CAY).status_code == 302
    answer = client.get(poll, headers={"HX-Request": "true"})
    body = answer.content.decode()
    assert answer.status_code == 200
    assert 'id="tea"' in body and 'hx-swap-oob="true"' in body  # the card comes along


def test_the_poll_is_one_query_whatever_the_number_of_hands(client):
    table = table_with()
    match = start_at(table, [0, 1, 2, 3], planned_hands=20)
    counts = []
    for hands in (1, 12):
        play(match, [0] * (hands - match.hands.count()))
        poll = asked(client, table)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(poll).status_code == 204
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_rotated_link_s_poll_says_so_and_an_unknown_one_is_the_plain_404(client):
    """As a match's poll: a retired link is told it was renewed (410), any other is a 404."""
    table = table_with()
    poll = asked(client, table, "view")
    table.rotate_token("view")
    assert client.get(poll).status_code == 410
    assert client.get(reverse(POLLS["view"], args=["x" * 43])).status_code == 404
