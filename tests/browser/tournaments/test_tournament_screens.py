"""A café tournament's pages as a phone and a printer show them: on a 360 or 390 px phone every
column of the standings, "Averaj" and "Turnuva puanı" included, is on the screen beside long
team names (a narrower phone swipes the table in its frame), and the printed table sheets carry
no site bar."""

import pytest
from django.urls import reverse

from cetele.tournaments import play
from cetele.tournaments.models import Game, Tournament
from tests.factories import add_hand, make_tournament, sample_inputs

pytestmark = pytest.mark.django_db(transaction=True)

# Long names on purpose: a café's teams are named so.
TEAMS = [
    ("Karşıyaka Kahvesi Kartalları", ("Doğan", "Derya")),
    ("Bostanlı Sahil Yıldızları", ("Kerem", "Kübra")),
    ("Alsancak Gençlik Birliği", ("Mehmet", "Melek")),
    ("Göztepe Çay Bahçesi Dostları", ("Sinan", "Selin")),
]


def played_group() -> Tournament:
    """A group of four with long names, one game played (the standings carry four figures)."""
    tournament = make_tournament(entrants=0)
    play.add_entrants(tournament, TEAMS)
    tournament.refresh_from_db()
    play.draw(tournament, tournament.version)
    game = Game.objects.filter(tournament=tournament).select_related("match").first()
    add_hand(game.match, sample_inputs(4, finisher=0, remaining=99))
    return tournament


PLAYERS = [
    ("Abdurrahman Karakoyunlu", ("Abdurrahman Karakoyunlu",)),
    ("Gülizar Çiçekçioğlu", ("Gülizar Çiçekçioğlu",)),
    ("Muzaffer Kahveciler", ("Muzaffer Kahveciler",)),
    ("Şerafettin Bostancıoğlu", ("Şerafettin Bostancıoğlu",)),
]


def played_tek() -> Tournament:
    """A tek round of four with long names, its game played."""
    tournament = make_tournament("tek", entrants=0)
    play.add_entrants(tournament, PLAYERS)
    tournament.refresh_from_db()
    play.draw(tournament, tournament.version)
    game = Game.objects.filter(tournament=tournament).select_related("match").get()
    add_hand(game.match, sample_inputs(4, finisher=0, remaining=99))
    return tournament


def columns_seen(page, table: str) -> list[dict]:
    """The standings' columns as the page opens (the table not swiped), the page scrolled down
    to them: where each header lies, its frame's edges, and whether it is what a finger at its
    middle touches (not covered, not cut)."""
    return page.evaluate(
        """(table) => {
            const frame = document.querySelector(`.sheet-wrap:has(${table})`);
            window.scrollTo(0, frame.getBoundingClientRect().top + window.scrollY - 100);
            const edges = frame.getBoundingClientRect();
            return [...frame.querySelectorAll('thead th')].map((cell) => {
                const box = cell.getBoundingClientRect();
                const hit = document.elementFromPoint(box.left + box.width / 2,
                                                      box.top + box.height / 2);
                return {
                    text: cell.textContent.trim(), left: box.left, right: box.right,
                    frame: [edges.left, edges.right], swiped: frame.scrollLeft,
                    touched: hit === cell || cell.contains(hit),
                };
            });
        }""",
        table,
    )


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize(
    ("kind", "table", "count"), [("esli", "table[data-group]", 9), ("tek", "table[data-tek]", 6)]
)
def test_every_standings_column_is_on_a_phones_screen(phone, width, kind, table, count):
    """Nothing to find by swiping: "Averaj" and "Turnuva puanı" are in sight beside long names."""
    page, console = phone
    tournament = played_group() if kind == "esli" else played_tek()
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(reverse("tournaments:view_tournament", args=[tournament.view_token]))

    columns = columns_seen(page, table)

    assert [column["text"] for column in columns][-2:] == ["Averaj", "Turnuva puanı"]
    assert len(columns) == count
    for column in columns:
        assert column["swiped"] == 0
        assert column["touched"], (width, column)
        left, right = column["frame"]
        assert left <= column["left"] and column["right"] <= right <= width, (width, column)
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # the page itself
    assert console.errors == []


def test_the_printed_table_sheets_carry_no_site_bar(phone):
    page, console = phone
    tournament = make_tournament(entrants=4, drawn=True)
    page.goto(reverse("tournaments:tournament_print", args=[tournament.edit_token]))
    page.emulate_media(media="print")

    assert not page.locator("header.topbar").is_visible()
    assert not page.locator("p.no-print").first.is_visible()
    assert page.locator("[data-table-sheet]").first.is_visible()
    page.emulate_media(media="screen")
    assert page.locator("header.topbar").is_visible()  # on the screen the bar stays
    assert console.errors == []
