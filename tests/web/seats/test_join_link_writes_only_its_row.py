"""The join link is a key that writes two things: its own player's row of the hand being entered,
and that hand's gösterge (which any joined phone may set).

Every URL of the URLconf, the join token put in for whatever key the route takes, is asked by a
phone that has joined as one player: with GET, with a plain POST and an HTMX POST carrying every
form field the app knows (a hand, a renaming, a rotation, a seat, a row, a gösterge...). Nothing
may change but that phone's own row and the open hand's gösterge. Enumerated from the URLconf
(tests/web/endpoints.py), so a new write endpoint is covered without anyone remembering to add
it here.
"""

import itertools
import re

import pytest
from django.test import Client

from cetele.deal.models import OpenIndicator
from cetele.models import (
    Change,
    Drink,
    Hand,
    HousePreset,
    Match,
    Player,
    RetiredLink,
    Table,
    TeaItem,
)
from cetele.seats.models import DraftRow, Objection, SeatClaim
from tests.factories import form_data, make_match, sample_inputs
from tests.web.endpoints import routes

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
ADDRESSES = (f"198.51.100.{n}" for n in itertools.count(1))  # no address reaches the limit


# What a row bumps (draft_version), and a gösterge (version, and the moment of the change):
# counted apart, below.
BUMPED = ("draft_version", "version", "touched_at")


def snapshot() -> tuple:
    """Everything a request could change, but the versions a row, an objection or a gösterge
    bumps (and the objections and the gösterge, compared apart)."""
    matches = [
        {k: v for k, v in row.items() if k not in BUMPED}
        for row in Match.objects.order_by("pk").values()
    ]
    return (
        matches,
        list(Player.objects.order_by("pk").values()),
        list(Hand.objects.order_by("pk").values()),
        list(Change.objects.order_by("pk").values()),
        list(SeatClaim.objects.order_by("pk").values()),
        list(RetiredLink.objects.order_by("pk").values()),
        list(HousePreset.objects.order_by("pk").values()),
        list(Table.objects.order_by("pk").values()),
        list(Drink.objects.order_by("pk").values()),
        list(TeaItem.objects.order_by("pk").values()),
    )


def fill(route: str, token: str, number: int) -> str:
    url = "/" + route.replace("<token:token>", token).replace("<int:number>", str(number))
    url = url.replace("<slug:slug>", "cetele-standart")
    assert not re.search(r"<\w+:\w+>", url), f"the test does not know how to fill {route}"
    return url


def everything(position: int) -> dict:
    """Every field any form of the app reads, with values that would be accepted."""
    return {
        **form_data(sample_inputs(), position=position),
        "kind": "edit",
        "confirm": "on",
        "seat": "2",
        "seat_0": "X",
        "name_0": "X",
        "change": "1",
        "names-0": "X",
        "row-opened": "series",
        "row-remaining": "9",
        "row-okeys": "0",
        "row-fake_okeys": "0",
        "reason": "score",
        "note": "X",
        "objection": "1",
        "hidden": "on",
        "hidden_totals": "on",
        "colour": "red",
        "indicator": "7",
        # The tea tally's tap, rule and list (cetele.tea): the edit link's only.
        "item": "0",
        "seen": "0",
        "rule": "own",
        "price_0": "15",
    }


def test_every_url_with_the_join_token_writes_nothing_but_the_phones_own_row():
    match = make_match(hands=2)
    match.refresh_from_db()
    phone = Client()
    assert phone.post(f"/k/{match.join_token}/", {"seat": "1"}).status_code == 302
    number = match.hands.first().number
    before, version = snapshot(), match.version
    asked = 0

    for route in routes():
        url = fill(route, match.join_token, number)
        for method, data, headers in (
            ("get", None, {}),
            ("post", everything(3), {}),
            ("post", everything(3), HTMX),
            ("post", {**everything(3), "action": "add"}, {}),  # "+ çay" (cetele.tea)
        ):
            response = getattr(phone, method)(
                url, data, headers=headers, REMOTE_ADDR=next(ADDRESSES)
            )
            assert response.status_code < 500, (route, method, response.status_code)
            asked += 1
            assert snapshot() == before, (route, method)

    assert asked > 100
    # The writes it may make: its own player's row, for the open hand, and its own player's
    # objection to a saved hand (one open per seat and hand: asked four times, kept once;
    # each ask bumps the version, so that the scorer's sheet shows it).
    rows = list(DraftRow.objects.values_list("match_id", "position", "seat"))
    assert rows == [(match.pk, 3, 1)]
    objections = list(Objection.objects.values_list("match_id", "hand_number", "seat", "outcome"))
    assert objections == [(match.pk, number, 1, "")]
    # And the open hand's gösterge, once by each POST to its own URL (plain and HTMX), nothing else.
    indicators = OpenIndicator.objects.values_list(
        "match_id", "position", "seat", "colour", "number"
    )
    assert list(indicators) == [(match.pk, 3, 1, "red", 7)]
    # The objection's three asks (two plain POSTs, with the hand's "action" and with the tea
    # tally's, and an htmx one) each bump it; the gösterge's first changes what every sheet
    # shows, and the two that say it again change no sheet (only the rows' version).
    assert Match.objects.get(pk=match.pk).version == version + 4


def test_every_url_with_the_view_token_writes_nothing():
    """A view link cannot object (nor write anything else): every route of the URLconf, the
    view token in place of its key, with every form field the app knows."""
    match = make_match(hands=2)
    match.refresh_from_db()
    viewer = Client()
    viewer.get(f"/v/{match.view_token}/")
    number = match.hands.first().number
    before = (snapshot(), match.version)

    for route in routes():
        url = fill(route, match.view_token, number)
        for method, data, headers in (
            ("get", None, {}),
            ("post", everything(3), {}),
            ("post", everything(3), HTMX),
            ("post", {**everything(3), "action": "add"}, {}),  # "+ çay" (cetele.tea)
        ):
            response = getattr(viewer, method)(
                url, data, headers=headers, REMOTE_ADDR=next(ADDRESSES)
            )
            assert response.status_code < 500, (route, method, response.status_code)
            assert (snapshot(), Match.objects.get(pk=match.pk).version) == before, (route, method)

    assert not DraftRow.objects.exists() and not Objection.objects.exists()
    assert not OpenIndicator.objects.exists()


def test_the_join_token_opens_no_edit_url(client):
    match = make_match(hands=1)
    edit_routes = [route for route in routes() if route.startswith("m/<token:token>/")]
    assert edit_routes
    for route in edit_routes:
        url = fill(route, match.join_token, match.hands.first().number)
        for method in ("get", "post"):
            status = getattr(client, method)(url, REMOTE_ADDR=next(ADDRESSES)).status_code
            assert status in (404, 405), (route, method, status)
