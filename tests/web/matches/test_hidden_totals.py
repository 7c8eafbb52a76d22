"""Hidden totals ("gizli toplam"): the joined and view phones see each hand's scores but neither
the running totals nor the chart until the last two hands (hands played ≥ planned − 2); the
scorer always sees them; the end of the match shows everything; the exports hide them too."""

import csv
import io
import json
import re

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from cetele.live.kept import SHEETS
from cetele.matches.sheet import board_key
from cetele.models import Match
from cetele.sharing.links import link_context
from cetele.tables.season import rematch
from tests.factories import add_hand, make_match, new_match_data, sample_inputs

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
TOTALS = ('class="standings"', "<tfoot>", 'class="chart card"')


def hidden_match(planned: int = 5, hands: int = 1) -> Match:
    match = make_match(planned_hands=planned)
    Match.objects.filter(pk=match.pk).update(hidden_totals=True)
    match.refresh_from_db()
    for index in range(hands):
        add_hand(match, sample_inputs(finisher=index % 4, remaining=10 + index))
    match.refresh_from_db()
    return match


def joined(match: Match) -> Client:
    phone = Client()
    phone.post(reverse("seats:join_match", args=[match.join_token]), {"seat": "1"})
    return phone


def pages(match: Match) -> dict[str, str]:
    """The sheet as each role's phone sees it."""
    return {
        "edit": Client().get(reverse("matches:match_detail", args=[match.edit_token])),
        "view": Client().get(reverse("sharing:view_match", args=[match.view_token])),
        "join": joined(match).get(reverse("seats:join_match", args=[match.join_token])),
    }


def shows_totals(page) -> bool:
    body = page.content.decode()
    found = [marker in body for marker in TOTALS]
    assert len(set(found)) == 1, found  # all of them or none
    return found[0]


def test_the_table_sees_the_hands_scores_but_not_the_totals_the_scorer_sees_all():
    match = hidden_match(hands=2)
    seen = pages(match)

    assert shows_totals(seen["edit"])
    for role in ("view", "join"):
        body = seen[role].content.decode()
        assert not shows_totals(seen[role]), role
        assert "Gizli toplam: toplamlar 3. el kaydedilince görünür" in body
        hand_links = re.findall(r'<a href="/[vk]/[^"]+/el/\d+/', body)
        assert len(hand_links) == 2 * (1 + 4)  # each hand: its place, 4 scores
    assert "Gizli toplam" not in seen["edit"].content.decode()


def test_the_totals_show_from_the_save_that_leaves_two_hands_to_play():
    match = hidden_match(planned=5, hands=2)  # 3rd, 4th and 5th still to play: hidden
    assert not shows_totals(pages(match)["view"])

    add_hand(match, sample_inputs(finisher=2))  # played 3 = 5 − 2: the last two are left
    match.refresh_from_db()

    assert all(shows_totals(page) for page in pages(match).values())


def test_the_end_of_the_match_shows_everything_to_everyone():
    match = hidden_match(planned=3, hands=3)
    for role, page in pages(match).items():
        assert shows_totals(page), role
        assert "Maçın özeti" in page.content.decode(), role


def test_the_option_is_set_when_the_match_starts(client):
    client.post(reverse("matches:match_create"), new_match_data(hidden_totals="on"))
    client.post(reverse("matches:match_create"), new_match_data())

    assert list(Match.objects.order_by("pk").values_list("hidden_totals", flat=True)) == [
        True,
        False,
    ]
    page = client.get(reverse("matches:match_create")).content.decode()
    assert 'name="hidden_totals"' in page


def test_the_scorer_turns_it_on_and_off_later_and_every_phone_is_drawn_again(client):
    match = make_match(planned_hands=9, hands=2)
    match.refresh_from_db()
    page = client.get(reverse("matches:match_players", args=[match.edit_token])).content.decode()
    assert 'name="hidden"' in page and "toplamları ve grafiği ise 7. el kaydedilince görür" in page
    url = reverse("matches:match_hidden_totals", args=[match.edit_token])
    view_poll = reverse("sharing:view_poll", args=[match.view_token]) + f"?v={match.version}"

    on = client.post(url, {"hidden": "on"}, follow=True)

    assert "Gizli toplam açık" in on.content.decode()
    assert Match.objects.get().hidden_totals
    polled = Client().get(view_poll, headers=HTMX)  # the viewer's page at the old version
    assert polled.status_code == 200 and not shows_totals(polled)
    same = client.post(url, {"hidden": "on"}, follow=True)
    assert "Gizli toplam zaten böyleydi" in same.content.decode()

    client.post(url, {})  # the box unticked
    assert not Match.objects.get().hidden_totals
    assert shows_totals(Client().get(reverse("sharing:view_match", args=[match.view_token])))
    assert client.get(url).status_code == 405


def test_the_view_and_join_links_cannot_turn_it_off(client):
    match = hidden_match()
    for token in (match.view_token, match.join_token):
        response = client.post(f"/m/{token}/gizli-puan/", {})
        assert response.status_code == 404
    assert Match.objects.get().hidden_totals


def test_the_kept_drawings_of_one_version_differ_by_audience_and_hold_no_totals_for_the_table():
    match = hidden_match(hands=2)
    pages(match)
    kept = {
        role: caches[SHEETS].get(board_key(match, link_context(match, role)))
        for role in ("edit", "view", "join")
    }
    assert all(kept.values())
    assert "<tfoot>" in kept["edit"].html
    assert "<tfoot>" not in kept["view"].html and "<tfoot>" not in kept["join"].html
    keys = {board_key(match, link_context(match, role)) for role in ("edit", "view", "join")}
    assert len(keys) == 3 and all(":hidden:" in key for key in keys - {kept_key(match)})


def kept_key(match: Match) -> str:
    return board_key(match, link_context(match, "edit"))


def export(client, name: str, token: str):
    return client.get(reverse(name, args=[token])).content.decode("utf-8-sig")


@pytest.mark.parametrize(
    ("csv_name", "json_name", "key"),
    [
        ("sharing:view_export_csv", "sharing:view_export_json", "view_token"),
        ("sharing:join_export_csv", "sharing:join_export_json", "join_token"),
    ],
)
def test_the_exports_hide_the_totals_while_the_sheet_does(client, csv_name, json_name, key):
    """The hands' scores stay in them, as on the sheet: summing them is the table's own work."""
    match = hidden_match(planned=5, hands=2)
    token = getattr(match, key)
    phone = joined(match) if key == "join_token" else client

    rows = list(csv.reader(io.StringIO(export(phone, csv_name, token))))
    data = json.loads(export(phone, json_name, token))

    assert not any("toplam" in cell.lower() for cell in rows[0]) and rows[-1][0] == "2"
    assert len(rows) == 3 and len(rows[1]) == 2 + 4  # place, finish, four scores
    assert data["totals_hidden"] is True
    assert data["totals"] is data["leaders"] is None
    assert [hand["running"] for hand in data["hands"]] == [None, None]
    assert [len(hand["result"]["scores"]) for hand in data["hands"]] == [4, 4]

    add_hand(match, sample_inputs(finisher=3))
    rows = list(csv.reader(io.StringIO(export(phone, csv_name, token))))
    data = json.loads(export(phone, json_name, token))
    assert rows[-1][0] == "Toplam" and data["totals"] is not None
    assert data["totals_hidden"] is False


def test_a_rematch_keeps_the_option():
    match = hidden_match(planned=3, hands=3)
    assert rematch(match).hidden_totals
