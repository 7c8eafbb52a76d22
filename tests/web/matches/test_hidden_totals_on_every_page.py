"""Hidden totals ("gizli toplam") stay hidden on every page a view or join link can open: the
match's own pages, its exports, its polls, the table's page and its season statistics. Walked
over the URLconf (every GET route of a view, join, table-view or tournament-view key), so a new
page is covered without anyone remembering to add it here.

The hands' own scores stay on the sheet (summing them is the table's own work); what must not be
shown is what the app adds up: the totals, the places, the averages per hand that rank players.
"""

import re

import pytest
from django.test import Client

from cetele.models import Match
from cetele.tables.season import table_from_match
from cetele.templatetags.cetele import score
from cetele.tournaments.models import Game, Tournament
from scoring.sheet import tally
from tests.factories import add_hand, make_match, make_tournament, sample_inputs
from tests.web.endpoints import Keys, fill, make_house, routes
from tests.web.phones import joined_phone

pytestmark = pytest.mark.django_db

MARKERS = ('class="standings"', "<tfoot>", 'class="chart card"', 'id="standings"')
VIEWER_KEYS = ("v/", "k/", "masa/izle/", "tv/")


def three_hidden_hands(match: Match) -> Match:
    """Six hands planned, three played: totals hidden until four are. The hands are chosen so
    that no total and no average per hand is also a hand's score."""
    match.set_hidden_totals(True)
    for finisher, remaining in ((0, 37), (1, 58), (3, 19)):
        add_hand(match, sample_inputs(finisher=finisher, remaining=remaining))
    match.refresh_from_db()
    assert match.totals_hidden(3)
    return match


def hidden_at_a_table() -> Match:
    match = three_hidden_hands(make_match(planned_hands=6))
    table_from_match(match, "Cuma masası")
    match.refresh_from_db()
    return match


def hidden_in_a_tournament() -> Tournament:
    """A drawn eşli tournament whose game (six hands) is played with hidden totals."""
    tournament = make_tournament(entrants=2, hands_per_game=6, drawn=True)
    three_hidden_hands(Game.objects.get(tournament=tournament).match)
    return tournament


def worked_out(match: Match) -> list[str]:
    """The totals (a team's too) and the averages per hand as a page would print them."""
    hands = [hand.scores for hand in match.hands.all()]
    sheet = tally(hands, len(hands[0]), match.teams)
    totals = [*sheet.totals, *(sheet.team_totals if match.teams else ())]
    averages = [total / len(hands) for total in sheet.totals]
    return [str(score(value)) for value in (*totals, *averages)]


def shown(body: str, numbers: list[str]) -> list[str]:
    """The markers of totals, and the numbers, that this body shows (a number as a whole, not a
    part of a longer one, of a negative score, of a poll schedule's "120:16" or of a link's
    random key: "…Xq138Yz…" is no total)."""
    found = [marker for marker in MARKERS if marker in body]
    for number in numbers:
        if re.search(rf"(?<![\w,.:\u2212-]){re.escape(number)}(?![\w,:])", body):
            found.append(number)
    return found


def viewer_urls(keys: Keys) -> list[str]:
    urls = []
    for route in routes():
        if route.startswith(VIEWER_KEYS):
            url = fill(route, keys, keys.match.hands.first().number)
            urls.append(url + "?v=0" if "poll" in route else url)
    return urls


def test_no_page_a_view_or_join_link_opens_shows_the_hidden_totals():
    match, tournament = hidden_at_a_table(), hidden_in_a_tournament()
    keys = Keys(match, make_house(match.rules), match.table, tournament)
    # The tournament's pages are read for its game's totals, the others for the match's.
    game = worked_out(Game.objects.get(tournament=tournament).match)
    phones = {"k/": joined_phone(match, 1)}

    for url in viewer_urls(keys):
        phone = phones.get(url[1:3], Client())
        response = phone.get(url)
        assert response.status_code < 500, url
        body = response.content.decode("utf-8-sig")
        numbers = game if url.startswith("/tv/") else worked_out(match)
        assert shown(body, numbers) == [], url
    # A guard for the test itself: with the option off, the same pages show them.
    match.set_hidden_totals(False)
    Game.objects.get(tournament=tournament).match.set_hidden_totals(False)
    for url, numbers in (
        (f"/v/{match.view_token}/", worked_out(match)),
        (f"/masa/izle/{match.table.view_token}/", worked_out(match)),
        (f"/tv/{tournament.view_token}/", game),
    ):
        assert shown(Client().get(url).content.decode(), numbers), url


def test_the_table_page_counts_the_match_for_the_scorer_but_not_for_its_viewers():
    match = hidden_at_a_table()
    numbers = worked_out(match)
    averages = numbers[4:]

    scorer = Client().get(f"/masa/{match.table.edit_token}/").content.decode()
    viewer = Client().get(f"/masa/izle/{match.table.view_token}/").content.decode()

    assert set(averages) <= set(shown(scorer, numbers))  # the detector sees them where they are
    assert shown(viewer, numbers) == []
    assert "sürüyor: 3 / 6 el" in viewer  # listed, not counted

    add_hand(match, sample_inputs(finisher=2, remaining=25))  # 4 of 6: the totals show
    viewer = Client().get(f"/masa/izle/{match.table.view_token}/").content.decode()
    assert 'id="standings"' in viewer
