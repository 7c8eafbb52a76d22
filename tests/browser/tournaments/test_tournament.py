"""A café tournament on phones: the organiser sets it up and draws from a phone, tables score
their games on their own phones (two saving at the same moment), the café's view page follows
the tables live and shows the standings, the averaj and the bracket.

To keep it short, games are one hand, and some of them are saved through the model in the test
(as a table that scored on another phone would); the phones play a part of every stage, and
every page read is read from the browser. The figures are worked out by hand: a hand that one
player finishes and nobody else opens scores −101 for the finisher and 202 for each of the
others who opened nothing; eşli the finisher's partner writes 0, so the winning team's game
total is −101 and the losers' 404 (averaj ±505 a game); tek the finisher's place is worth 3 and
averaj 505 − 4 × (−101) = 909, the three others share places 2–4 ((2 + 1 + 0) / 3 = 1 each)
with averaj 505 − 4 × 202 = −303.
"""

import time

import pytest
from playwright.sync_api import expect

from cetele.models import Hand
from cetele.tournaments.models import Entrant, Game, Pairing, Tournament
from tests.factories import add_hand

pytestmark = pytest.mark.django_db(transaction=True)

TEAMS = [f"T{n}: A{n}, B{n}" for n in range(1, 9)]
PLAYERS = [f"P{n}" for n in range(1, 9)]
MINUS = "\u2212"


def only_finisher(finisher: int) -> dict:
    """A hand `finisher` finished and nobody else opened."""
    players = [{"opened": "series"} if s == finisher else {"opened": "no"} for s in range(4)]
    return {"finisher": finisher, "okey_finish": False, "kafa": False, "players": players}


def create(page, *, kind: str, entries: list[str], tables: int, games: int = 3) -> Tournament:
    """The organiser's phone: the new-tournament form from the home page, then the entrants
    pasted as a list."""
    page.goto("/")
    page.get_by_role("link", name="Turnuva düzenle").click()
    page.fill("#id_name", "Kış kupası")
    page.check(f'input[name="kind"][value="{kind}"]')
    page.check(f'input[name="layout"][value="{"groups" if kind == "esli" else "tek_rounds"}"]')
    page.check(f'input[name="games_per_pairing"][value="{games}"]')
    page.fill("#id_hands_per_game", "1")
    page.fill("#id_tables", str(tables))
    page.get_by_role("button", name="Turnuvayı kur").click()
    page.wait_for_url("**/t/*/")
    page.fill("#id_entries", "\n".join(entries))
    page.get_by_role("button", name="Ekle", exact=True).click()
    expect(page.locator("ol.entrants li")).to_have_count(len(entries))
    return Tournament.objects.get()


def tap_draw(page, label: str) -> None:
    page.get_by_role("button", name=label).click()
    expect(page.get_by_text("Kura çekildi; masalar hazır.")).to_be_visible()


def fill_hand(page, game: Game, finisher: int) -> None:
    """A table's phone opens its game's match (the printed sheet's QR code: its edit link) and
    fills the hand, by the form's stable field names."""
    page.goto(f"/m/{game.match.edit_token}/")
    form = page.locator("#hand-form")
    form.locator(f'input[name="finisher"][value="{finisher}"]').check(force=True)
    for seat in range(4):
        field = form.locator(f'input[name="p{seat}-opened"][value="no"]')
        if seat != finisher and field.count() and field.is_enabled():
            field.check(force=True)


def save_together(pages: list, games: list[Game]) -> None:
    """Tap "Eli kaydet" on every phone without waiting for any answer: the saves race to the
    server at the same moment. Then wait until each game's hand is in."""
    for page in pages:
        page.locator('#hand-form button[name="action"][value="save"]').click(no_wait_after=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if all(Hand.objects.filter(match_id=g.match_id).count() == 1 for g in games):
            return
        time.sleep(0.1)
    raise AssertionError("a phone's hand was not saved")


def play(game: Game, winner_pk: int) -> None:
    """A game scored through the model, as another phone at that table would: the winner's
    first player finishes (eşli: side a sits at seats 0 and 2, side b at 1 and 3)."""
    if game.pairing_id is not None:
        finisher = 0 if game.pairing.a_id == winner_pk else 1
    else:
        finisher = game.seats.index(winner_pk)
    add_hand(game.match, only_finisher(finisher))


def first_entered(pairing: Pairing) -> int:
    return min((pairing.a, pairing.b), key=lambda e: e.number).pk


def rows(page, selector: str) -> list[list[str]]:
    body = page.locator(f"{selector} tbody tr")
    return [body.nth(i).locator("td, th").all_inner_texts() for i in range(body.count())]


def test_an_esli_cup_groups_semi_finals_and_final_on_phones(
    phone, second_phone, third_phone, fourth_phone
):
    organiser, organiser_console = phone
    table_one, one_console = second_phone
    table_two, two_console = third_phone
    viewer, viewer_console = fourth_phone  # the café's screen

    tournament = create(organiser, kind="esli", entries=TEAMS, tables=4)
    tap_draw(organiser, "Kura çek")
    tournament.refresh_from_db()
    viewer.clock.install()
    viewer.goto(f"/tv/{tournament.view_token}/")
    expect(viewer.locator("ul.live-tables li")).to_have_count(4)

    # Round 1: two tables score game 1 at the same moment on their phones, then game 2.
    round_one = list(
        Pairing.objects.filter(phase="group", round=1, table__in=[1, 3]).select_related("a", "b")
    )
    for index in (1, 2):
        games = [p.games.select_related("match", "pairing").get(index=index) for p in round_one]
        for page, game, pairing in zip((table_one, table_two), games, round_one, strict=True):
            fill_hand(page, game, 0 if first_entered(pairing) == pairing.a_id else 1)
        save_together([table_one, table_two], games)
    # The view page follows the tables without a reload (its poll, 16 s after a change).
    viewer.clock.fast_forward(20_000)
    expect(viewer.locator('table[data-group="A"] td[data-points]').first).to_have_text(
        "2", timeout=8_000
    )

    # The other group games, saved through the model: the team entered first wins 2–0.
    for pairing in Pairing.objects.filter(phase="group").select_related("a", "b"):
        games = list(pairing.games.select_related("match", "pairing"))
        for game in games[:2]:
            if not Hand.objects.filter(match_id=game.match_id).exists():
                play(game, first_entered(pairing))

    # The knock-out from the standings: A1–B2 and B1–A2; the phones play a semi-final each.
    organiser.reload()
    tap_draw(organiser, "Eleme kurasını çek")
    semis = list(Pairing.objects.filter(phase="knockout").select_related("a", "b"))
    assert [(p.a.name, p.b.name) for p in semis] == [("T1", "T3"), ("T2", "T4")]
    first_games = [p.games.select_related("match", "pairing").get(index=1) for p in semis]
    for page, game in zip((table_one, table_two), first_games, strict=True):
        fill_hand(page, game, 0)  # the better seed (side a) wins
    save_together([table_one, table_two], first_games)
    for pairing in semis:
        play(pairing.games.select_related("match", "pairing").get(index=2), pairing.a_id)
    organiser.reload()
    tap_draw(organiser, "Eleme kurasını çek")
    final = Pairing.objects.select_related("a", "b").get(phase="knockout", round=2)
    for index in (1, 2):
        game = final.games.select_related("match", "pairing").get(index=index)
        fill_hand(table_one, game, 0)
        save_together([table_one], [game])

    # The café's page, read from the browser.
    viewer.reload()
    assert rows(viewer, 'table[data-group="A"]') == [
        ["1", "T1", "3", "3", "0", "0", "6–0", "3030", "6"],
        ["2", "T4", "3", "2", "0", "1", "4–2", "1010", "4"],
        ["3", "T5", "3", "1", "0", "2", "2–4", f"{MINUS}1010", "2"],
        ["4", "T8", "3", "0", "0", "3", "0–6", f"{MINUS}3030", "0"],
    ]
    assert rows(viewer, 'table[data-group="B"]') == [
        ["1", "T2", "3", "3", "0", "0", "6–0", "3030", "6"],
        ["2", "T3", "3", "2", "0", "1", "4–2", "1010", "4"],
        ["3", "T6", "3", "1", "0", "2", "2–4", f"{MINUS}1010", "2"],
        ["4", "T7", "3", "0", "0", "3", "0–6", f"{MINUS}3030", "0"],
    ]
    semi_round = viewer.locator('ul.bracket[data-round="Yarı final"] li')
    expect(semi_round).to_have_count(2)
    expect(semi_round.nth(0)).to_contain_text("T1 – T3")
    expect(semi_round.nth(0).locator("[data-winner]")).to_have_text("T1")
    expect(semi_round.nth(1).locator("[data-winner]")).to_have_text("T2")
    final_round = viewer.locator('ul.bracket[data-round="Final"] li')
    expect(final_round).to_contain_text(f"T1 – T2 ({MINUS}101:404, {MINUS}101:404)")
    expect(viewer.locator("[data-champion]")).to_contain_text("Şampiyon: T1")
    # No edit link on the café's page.
    assert "/m/" not in viewer.content() and tournament.edit_token not in viewer.content()
    for console in (organiser_console, one_console, two_console, viewer_console):
        assert console.errors == []


def test_a_tek_tournament_of_eight_over_three_rounds(phone, second_phone, third_phone):
    organiser, organiser_console = phone
    table_one, _ = second_phone
    table_two, _ = third_phone
    tournament = create(organiser, kind="tek", entries=PLAYERS, tables=2, games=1)
    expected: dict[str, list[int]] = {name: [0, 0] for name in PLAYERS}  # points, averaj

    for number in (1, 2, 3):
        tap_draw(organiser, "Kura çek" if number == 1 else f"{number}. turu çek")
        games = list(
            Game.objects.filter(tournament=tournament, round=number).select_related("match")
        )
        assert len(games) == 2
        assert sorted(p for g in games for p in g.seats) == sorted(
            Entrant.objects.values_list("pk", flat=True)
        )
        for game in games:  # the table's first player finishes
            names = dict(Entrant.objects.filter(pk__in=game.seats).values_list("pk", "name"))
            for place, pk in enumerate(game.seats):
                points, averaj = (3, 909) if place == 0 else (1, -303)
                expected[names[pk]][0] += points
                expected[names[pk]][1] += averaj
        if number == 2:
            for game in games:
                play(game, game.seats[0])
        else:
            for page, game in zip((table_one, table_two), games, strict=True):
                fill_hand(page, game, 0)
            save_together([table_one, table_two], games)
        organiser.reload()

    viewer = organiser  # the organiser's phone opens the café's page
    viewer.goto(f"/tv/{tournament.view_token}/")
    table = rows(viewer, "table[data-tek]")
    shown = {row[1]: [int(row[5]), int(row[4].replace(MINUS, "-"))] for row in table}
    assert shown == expected
    assert all(row[2] == "3" and row[3] == "0" for row in table)  # three played, no byes
    points = [int(row[5]) for row in table]
    assert points == sorted(points, reverse=True)
    expect(viewer.locator("[data-champion]")).to_contain_text(f"Şampiyon: {table[0][1]}")
    assert organiser_console.errors == []


@pytest.mark.parametrize("kind", ["esli", "tek"])
def test_no_serious_accessibility_violation_on_the_tournament_pages(phone, kind):
    from django.urls import reverse

    from tests.browser.shell.test_accessibility import blocking_violations
    from tests.factories import make_tournament

    page, console = phone
    tournament = make_tournament(kind, entrants=8, games_per_pairing=1, drawn=True)
    game = Game.objects.filter(tournament=tournament).select_related("match", "pairing").first()
    play(game, game.seats[0] if kind == "tek" else game.pairing.a_id)
    edit, view = tournament.edit_token, tournament.view_token
    urls = [
        reverse("tournaments:tournament_create"),
        reverse("tournaments:tournament_detail", args=[edit]),
        reverse("tournaments:view_tournament", args=[view]),
        reverse("tournaments:tournament_print", args=[edit]),
        reverse("tournaments:tournament_result", args=[edit, game.number]),
    ]
    for url in urls:
        response = page.goto(url)
        assert response.status == 200, url
        assert blocking_violations(page) == [], url
    assert console.errors == []
