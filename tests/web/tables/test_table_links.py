"""A table's links are keys, guarded exactly like a match's: the view link writes nothing and
shows no edit link, every bad link gets the same 404.

The table's URLs are enumerated from the URLconf, so a new table endpoint is covered without
anyone remembering to add it here.
"""

import re

import pytest
from django.test import Client

from cetele.models import Drink, Hand, Match, Player, Table, TablePlayer, TeaItem
from cetele.shell import wrong_passwords
from tests.factories import add_hand, form_data, sample_inputs
from tests.web.endpoints import routes
from tests.web.tables.test_tables_and_rematches import start_at, table_with

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def routes_under(prefix: str) -> list[str]:
    found = [route for route in routes() if route.startswith(prefix)]
    assert found, f"no routes under {prefix}"
    return found


EDIT_ROUTES = routes_under("masa/<token:token>/")
VIEW_ROUTES = routes_under("masa/izle/<token:token>/")


def fill(route: str, token: str) -> str:
    url = "/" + route.replace("<token:token>", token)
    assert "<" not in url, f"the test does not know how to fill {route}"
    return url


def snapshot() -> tuple:
    """Everything a request could change."""
    return tuple(
        list(model.objects.order_by("pk").values())
        for model in (Table, TablePlayer, Match, Player, Hand, TeaItem, Drink)
    )


@pytest.fixture
def table() -> Table:
    table = table_with()
    match = start_at(table, [0, 1, 2, 3], planned_hands=1)
    add_hand(match, sample_inputs())
    start_at(table, [3, 0, 1, 2], planned_hands=3)
    table.refresh_from_db()
    return table


# Everything a write form of ours takes, so that a POST that got through would change something.
WRITE_DATA = {
    **form_data(sample_inputs()),
    "kind": "edit",
    "name": "Başka",
    "player_1": "X",
    "player_2": "Y",
    "place_0": "X",
    "name_1": "0",
    "name_2": "1",
    "preset": "cetele-standart",
    "cezali": "1",
    "planned_hands": "5",
    # The tea tally's tap (for the table's latest match, its first one's id in these tests' order
    # is not known: a wrong one is refused anyway) and its list of items.
    "seat": "0",
    "item": "0",
    "seen": "0",
    "action": "add",
    "rule": "own",
    "name_0": "çay",
    "price_0": "15",
}


def test_the_urlconf_has_the_table_endpoints_this_file_relies_on():
    assert {
        "masa/<token:token>/",
        "masa/<token:token>/mac/",
        "masa/<token:token>/oyuncular/",
        "masa/<token:token>/yenile/",
    } <= set(EDIT_ROUTES)
    assert VIEW_ROUTES == ["masa/izle/<token:token>/", "masa/izle/<token:token>/poll/"]


def accepts(method: str, route: str) -> bool:
    """Whether a route takes GET or POST at all: ask it, with the edit token of a throw-away
    table (a POST there is a write endpoint)."""
    throwaway = table_with(("X", "Y"))
    return getattr(Client(), method)(fill(route, throwaway.edit_token)).status_code != 405


@pytest.mark.parametrize("route", EDIT_ROUTES)
def test_no_table_edit_url_answers_to_the_view_token(client, table, route):
    write, readable = accepts("post", route), accepts("get", route)
    url = fill(route, table.view_token)
    before = snapshot()

    get = client.get(url)
    post = client.post(url, WRITE_DATA)
    htmx_post = client.post(url, WRITE_DATA, headers=HTMX)

    # A read-only route says 405 to a POST whatever the token, so that tells nothing either.
    assert get.status_code == (404 if readable else 405)
    assert post.status_code == htmx_post.status_code == (404 if write else 405)
    assert snapshot() == before


def test_the_table_write_endpoints_are_found_by_asking_the_urlconf():
    writes = {route for route in EDIT_ROUTES if accepts("post", route)}

    assert writes >= {
        "masa/<token:token>/mac/",
        "masa/<token:token>/oyuncular/",
        "masa/<token:token>/yenile/",
    }
    assert "masa/<token:token>/" not in writes


@pytest.mark.parametrize("route", EDIT_ROUTES)
def test_the_edit_token_really_opens_the_table_edit_urls(client, table, route):
    # The other side of the test above: the same URLs with the edit token exist.
    assert client.get(fill(route, table.edit_token)).status_code in (200, 405)


def test_the_table_write_endpoints_write_with_the_edit_token(client, table):
    # A guard for the test above: these POSTs change something when the link is right.
    before = snapshot()

    for route in EDIT_ROUTES:
        client.post(fill(route, table.edit_token), WRITE_DATA)

    assert snapshot() != before


@pytest.mark.parametrize("route", VIEW_ROUTES)
def test_no_table_view_url_accepts_a_write(client, table, route):
    url = fill(route, table.view_token)
    before = snapshot()

    for method in (client.post, client.put, client.patch, client.delete):
        assert method(url, WRITE_DATA).status_code == 405

    assert snapshot() == before


def test_opening_the_table_links_changes_nothing(client, table):
    before = snapshot()

    for url in [fill(r, table.edit_token) for r in EDIT_ROUTES] + [
        fill(r, table.view_token) for r in VIEW_ROUTES
    ]:
        client.get(url)
        client.head(url)

    assert snapshot() == before


def test_the_view_page_carries_no_edit_token_and_no_form(client, table):
    body = client.get(fill(VIEW_ROUTES[0], table.view_token)).content.decode()

    assert table.edit_token not in body
    for match in table.matches.all():
        assert match.edit_token not in body
        assert f"/v/{match.view_token}/" in body  # its matches, through their view links
    assert "/m/" not in body and "/masa/" + table.edit_token not in body
    actions = re.findall(r"<form[^>]*action=\"([^\"]*)\"", body)
    assert set(actions) <= {"/i18n/setlang/"}


def test_every_table_write_without_the_csrf_token_is_refused(table):
    client = Client(enforce_csrf_checks=True)
    client.get(fill(EDIT_ROUTES[0], table.edit_token))
    before = snapshot()

    for route in EDIT_ROUTES:
        assert client.post(fill(route, table.edit_token), WRITE_DATA).status_code in (403, 405)

    assert snapshot() == before


def test_table_pages_are_noindex_and_the_edit_page_is_never_cached(client, table):
    edit = client.get(fill(EDIT_ROUTES[0], table.edit_token))
    view = client.get(fill(VIEW_ROUTES[0], table.view_token))

    assert edit["X-Robots-Tag"] == view["X-Robots-Tag"] == "noindex, nofollow"
    assert "no-store" in edit["Cache-Control"]
    assert "private" in view["Cache-Control"] and "no-cache" in view["Cache-Control"]


def test_rotating_a_table_link_retires_the_old_one_at_once(client, table):
    old_view, old_edit = table.view_token, table.edit_token

    client.post(fill("masa/<token:token>/yenile/", old_edit), {"kind": "view", "confirm": "on"})
    table.refresh_from_db()
    response = client.post(
        fill("masa/<token:token>/yenile/", old_edit), {"kind": "edit", "confirm": "on"}
    )
    table.refresh_from_db()

    assert table.view_token != old_view and table.edit_token != old_edit
    assert response["Location"] == f"/masa/{table.edit_token}/"
    # The old links say they changed (uncounted: tests/web/sharing/test_links_are_keys.py).
    assert client.get(f"/masa/izle/{old_view}/").status_code == 410
    assert client.get(f"/masa/{old_edit}/").status_code == 410
    assert client.get(f"/masa/izle/{table.view_token}/").status_code == 200


def test_an_unknown_rotation_kind_changes_nothing(client, table):
    before = snapshot()

    client.post(fill("masa/<token:token>/yenile/", table.edit_token), {"kind": "both"})

    assert snapshot() == before


def test_bad_table_links_get_the_very_same_404_as_bad_match_links(client, table):
    unknown = "A" * 43
    urls = [
        f"/masa/{unknown}/",
        f"/masa/izle/{unknown}/",
        f"/masa/{table.view_token}/",  # a view token is no edit token
        f"/masa/izle/{table.edit_token}/",
        f"/masa/{unknown}/mac/",
        "/masa/short/",
        "/masa/izle/x/",
        f"/m/{unknown}/",
    ]

    responses = [client.get(url) for url in urls]

    assert [r.status_code for r in responses] == [404] * len(urls)
    assert len({r.content for r in responses}) == 1


def test_guessing_table_links_locks_no_table_out_like_guessing_match_links(client, table):
    for index in range(wrong_passwords.BAD_LINK_LIMIT * 2):
        assert client.get(f"/masa/{'B' * 42}{index % 10}/").status_code == 404

    after = [
        client.get(f"/masa/izle/{table.view_token}/"),
        client.get(f"/masa/{table.edit_token}/"),
        client.get(f"/v/{'C' * 43}/"),
    ]

    assert [r.status_code for r in after] == [200, 200, 404]
