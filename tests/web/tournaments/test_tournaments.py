"""Café tournaments through the test client: creating one (and what it refuses), entrants, the
draw with a real match per game, results flowing from finished matches, results by hand with
their reason, standings, averaj and the bracket against figures worked out by hand, the tek
rounds, the links (the view link writes nothing, bad links 404, privacy headers), the live
poll, and query counts that do not grow with the number of tables."""

import io
import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.translation import override

import scoring
from cetele.live.kept import SHEETS
from cetele.models import Match, new_token
from cetele.sharing.pages import qr_svg
from cetele.tournaments.models import Entrant, Game, ManualResult, Pairing, Tournament
from cetele.tournaments.state import live_version
from cetele.tournaments.views import live_key
from tests.factories import add_hand, make_tournament, sample_inputs
from tests.web.endpoints import routes

pytestmark = pytest.mark.django_db

MINUS = "\u2212"  # the score filter's minus sign

CREATE = {
    "name": "Kış kupası",
    "kind": "esli",
    "layout": "groups",
    "preset": "cetele-standart",
    "cezali": "1",
    "hands_per_game": "11",
    "games_per_pairing": "3",
    "group_size": "4",
    "advance": "2",
    "rounds": "3",
    "tables": "",
    "win_points": "2",
    "draw_points": "1",
    "loss_points": "0",
    "place_1": "3",
    "place_2": "2",
    "place_3": "1",
    "place_4": "0",
}


def page(client, tournament: Tournament, role: str = "edit") -> str:
    if role == "edit":
        url = reverse("tournaments:tournament_detail", args=[tournament.edit_token])
    else:
        url = reverse("tournaments:view_tournament", args=[tournament.view_token])
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def draw(client, tournament: Tournament):
    tournament.refresh_from_db()
    url = reverse("tournaments:tournament_draw", args=[tournament.edit_token])
    response = client.post(url, {"version": tournament.version}, follow=True)
    tournament.refresh_from_db()
    return response


def win(game: Game, winner: int, remaining: int = 10) -> None:
    """Play the game's one hand: side `winner` (0: a, 1: b) goes out; the other side's next
    seat opened with `remaining` left. Eşli totals: the winner −101, the loser 202 + remaining."""
    add_hand(game.match, sample_inputs(4, finisher=winner, remaining=remaining))


def games_of(tournament: Tournament, a: str, b: str):
    """The games of the pairing between teams named a and b, and whether a is its side a."""
    for pairing in Pairing.objects.filter(tournament=tournament).select_related("a", "b"):
        names = (pairing.a.name, pairing.b.name if pairing.b else None)
        if names in ((a, b), (b, a)):
            return list(pairing.games.select_related("match")), names[0] == a
    raise AssertionError(f"no pairing {a}–{b}")


def beat(tournament: Tournament, winner: str, loser: str, remaining: int = 10) -> None:
    """`winner` wins every game of its pairing with `loser` that is needed (2–0 in a best of
    three)."""
    games, winner_is_a = games_of(tournament, winner, loser)
    needed = 1 if tournament.games_per_pairing == 1 else 2
    for game in games[:needed]:
        win(game, 0 if winner_is_a else 1, remaining)


def standings_rows(html: str) -> list[tuple[str, str, str]]:
    """(side, averaj, points) per standings row, in the page's order."""
    return re.findall(
        r'<tr data-side="([^"]+)".*?data-averaj>([^<]+)<.*?data-points>([^<]+)<', html, re.S
    )


# --- Creating a tournament ------------------------------------------------------------------


def test_a_new_tournament_gets_two_unguessable_links_and_frozen_rules(client):
    response = client.post(reverse("tournaments:tournament_create"), {**CREATE, "cezali": "0"})

    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "tournaments:tournament_detail", args=[tournament.edit_token]
    )
    assert len(tournament.edit_token) >= 43 and tournament.edit_token != tournament.view_token
    base = scoring.resolve_rules("cetele-standart")
    assert tournament.rules == scoring.resolve_rules(scoring.deep_merge(base, {"cezali": False}))
    assert (tournament.hands_per_game, tournament.games_per_pairing) == (11, 3)
    assert (tournament.win_points, tournament.draw_points, tournament.loss_points) == (2, 1, 0)
    html = page(client, tournament)
    assert reverse("tournaments:view_tournament", args=[tournament.view_token]) in html


def test_the_home_page_links_to_a_new_tournament(client):
    assert (
        reverse("tournaments:tournament_create")
        in client.get(reverse("matches:home")).content.decode()
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands_per_game": "2"}, "Bu kurallarda bir oyun 1, 3, 5, 7, 9, 11, 13 el olabilir."),
        ({"kind": "tek", "layout": "groups"}, "Tek turnuva turlarla"),
        ({"layout": "tek_rounds"}, "Tek turnuva turlarla"),
        ({"advance": "5"}, "Gruptan çıkan takım sayısı"),
        ({"win_points": "1", "draw_points": "2"}, "galibiyet ≥ beraberlik ≥ yenilgi"),
        ({"name": ""}, "Bu alan zorunludur"),
        ({"preset": "house:" + "x" * 43}, ""),  # an unknown house key: the same 404 as a link
        ({"preset": "yok-boyle"}, "Geçerli bir seçenek seçin"),
        ({"tables": "0"}, ""),
    ],
)
def test_a_bad_tournament_is_refused_with_a_message_and_nothing_saved(client, change, message):
    response = client.post(reverse("tournaments:tournament_create"), {**CREATE, **change})

    assert not Tournament.objects.exists()
    if change.get("preset", "").startswith("house:"):
        assert response.status_code == 404
        return
    assert response.status_code == 400
    assert message in response.content.decode()


def test_a_house_preset_named_by_the_link_is_offered_and_frozen(client):
    from cetele.models import HousePreset

    rules = scoring.resolve_rules("cetele-standart")
    house = HousePreset.objects.create(name="Bizim", rules=rules, base_slug="cetele-standart")

    form = client.get(reverse("tournaments:tournament_create"), {"preset": house.choice_value})
    client.post(reverse("tournaments:tournament_create"), {**CREATE, "preset": house.choice_value})

    assert "Bizim" in form.content.decode()
    assert Tournament.objects.get().preset_slug == house.choice_value


# --- Entrants -------------------------------------------------------------------------------


def test_teams_pasted_one_per_line_with_or_without_a_name(client):
    tournament = make_tournament(entrants=0)
    url = reverse("tournaments:tournament_entrants", args=[tournament.edit_token])

    response = client.post(url, {"entries": "Kartallar: Ayşe, Ali\n\n  Can ,Deniz \n"})

    assert response.status_code == 302
    rows = Entrant.objects.filter(tournament=tournament).values_list(
        "number", "name", "player_1", "player_2"
    )
    assert list(rows) == [(1, "Kartallar", "Ayşe", "Ali"), (2, "Can & Deniz", "Can", "Deniz")]


def test_players_one_per_line_for_tek(client):
    tournament = make_tournament("tek", entrants=0)

    client.post(
        reverse("tournaments:tournament_entrants", args=[tournament.edit_token]),
        {"entries": "Ayşe\nAli\nCan"},
    )

    names = Entrant.objects.filter(tournament=tournament).values_list("name", flat=True)
    assert list(names) == ["Ayşe", "Ali", "Can"]


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ("Ayşe, Ali\nCan", "2. satır: bir takım iki oyuncudur"),
        ("Ayşe, Ali\nCan, ali", "2. satır: Bu ad başka bir oyuncuda da var"),
        ("A1, Yeni", "1. satır: Bu ad başka bir oyuncuda da var"),  # A1 is in team T1
        ("Ayşe, \u200b", "1. satır: Bu adda görünen bir harf yok."),
        ("   \n  ", "Bu alan zorunludur"),
    ],
)
def test_bad_entrant_lines_are_refused_by_line_and_nothing_saved(client, entries, message):
    tournament = make_tournament(entrants=2)

    response = client.post(
        reverse("tournaments:tournament_entrants", args=[tournament.edit_token]),
        {"entries": entries},
    )

    assert response.status_code == 400
    assert message in response.content.decode()
    assert Entrant.objects.filter(tournament=tournament).count() == 2


def test_a_withdrawn_team_stays_listed_but_is_not_drawn(client):
    tournament = make_tournament(entrants=5)
    url = reverse("tournaments:tournament_withdraw", args=[tournament.edit_token])

    client.post(url, {"entrant": 3, "version": tournament.version})
    html = draw(client, tournament).content.decode()

    assert "<s>T3</s>" in html
    drawn = {p.a_id for p in Pairing.objects.all()} | {p.b_id for p in Pairing.objects.all()}
    assert Entrant.objects.get(name="T3").pk not in drawn
    assert len(drawn) == 4


def test_entrants_do_not_change_after_an_esli_draw(client):
    tournament = make_tournament(entrants=4, drawn=True)

    response = client.post(
        reverse("tournaments:tournament_entrants", args=[tournament.edit_token]),
        {"entries": "Yeni, Takım"},
        follow=True,
    )
    client.post(
        reverse("tournaments:tournament_withdraw", args=[tournament.edit_token]),
        {"entrant": 1, "version": Tournament.objects.get().version},
    )

    assert "yalnız kuradan önce" in response.content.decode()
    assert Entrant.objects.filter(tournament=tournament).count() == 4
    assert not Entrant.objects.filter(withdrawn=True).exists()


# --- The draw -------------------------------------------------------------------------------


def test_the_draw_puts_every_team_in_one_group_and_each_game_gets_its_own_match(client):
    tournament = make_tournament(entrants=8, games_per_pairing=3, hands_per_game=11, tables=4)

    response = draw(client, tournament)

    assert "Kura çekildi" in response.content.decode()
    groups = dict(Entrant.objects.filter(tournament=tournament).values_list("name", "group"))
    assert sorted(groups.values()) == ["A"] * 4 + ["B"] * 4
    # Snake seeding in the order entered: 1, 4, 5, 8 in A; 2, 3, 6, 7 in B.
    assert [n for n, g in groups.items() if g == "A"] == ["T1", "T4", "T5", "T8"]
    pairings = list(Pairing.objects.filter(tournament=tournament).select_related("a", "b"))
    assert len(pairings) == 12  # six in each group of four
    for pairing in pairings:
        assert pairing.a.group == pairing.b.group == pairing.group
        games = list(pairing.games.select_related("match"))
        assert [g.index for g in games] == [1, 2, 3]
        for game in games:
            match = game.match
            names = list(match.players.values_list("name", flat=True))
            a, b = pairing.a, pairing.b
            assert names == [a.player_1, b.player_1, a.player_2, b.player_2]
            assert match.teams and match.planned_hands == 11
            assert match.rules == tournament.rules and match.preset_slug == "cetele-standart"
            assert game.table == pairing.table and 1 <= game.table <= 4
    # No team plays twice in a round.
    for number in {p.round for p in pairings}:
        sides = [s for p in pairings if p.round == number for s in (p.a_id, p.b_id)]
        assert len(sides) == len(set(sides))


def test_a_random_draw_still_puts_everyone_in_exactly_one_group(client):
    tournament = make_tournament(entrants=9, group_size=3)
    Tournament.objects.filter(pk=tournament.pk).update(random_draw=True)

    draw(client, tournament)

    groups = list(Entrant.objects.filter(tournament=tournament).values_list("group", flat=True))
    assert sorted(groups) == ["A"] * 3 + ["B"] * 3 + ["C"] * 3
    assert tournament.seed is not None


def test_a_second_tap_on_the_draw_is_told_and_draws_nothing_more(client):
    tournament = make_tournament(entrants=4)
    url = reverse("tournaments:tournament_draw", args=[tournament.edit_token])

    client.post(url, {"version": tournament.version})
    again = client.post(url, {"version": tournament.version}, follow=True)

    assert "hiçbir şey yapılmadı" in again.content.decode()
    assert Pairing.objects.filter(tournament=tournament).count() == 6
    assert Match.objects.count() == 6


def test_too_few_entrants_to_draw_is_a_sentence(client):
    tournament = make_tournament(entrants=1)

    html = draw(client, tournament).content.decode()

    assert "Kura için yeterli katılımcı yok" in html
    assert not Pairing.objects.exists()


def test_groups_one_side_would_come_out_of_are_refused_before_anyone_plays(client):
    """Two teams in one group of two, one going through: no knock-out could ever follow, and
    the tournament would never end. The draw says so and what to change; a third team mends it."""
    tournament = make_tournament(entrants=2, group_size=2, advance=1)

    html = draw(client, tournament).content.decode()

    assert "gruplardan yalnız bir takım çıkar ve eleme olmaz" in html
    assert not Pairing.objects.exists()
    tournament.entrants.create(name="T3", number=3, player_1="A3", player_2="B3")
    assert "eleme olmaz" not in draw(client, tournament).content.decode()
    assert Pairing.objects.exists()


# --- Results, standings, averaj -------------------------------------------------------------


def test_finished_matches_make_the_group_table_with_points_and_averaj(client):
    tournament = make_tournament(entrants=4, drawn=True)
    # Each game: the winner −101, the loser 202 + r, so the winner's averaj is 303 + r.
    beat(tournament, "T1", "T2", 10)  # T1 +313
    beat(tournament, "T1", "T3", 20)  # T1 +323
    beat(tournament, "T4", "T1", 30)  # T1 −333
    beat(tournament, "T2", "T3", 10)
    beat(tournament, "T2", "T4", 20)
    beat(tournament, "T3", "T4", 30)

    html = page(client, tournament, "view")

    # T1: 2 wins, 313 + 323 − 333 = 303; T2: 2 wins, −313 + 313 + 323 = 323;
    # T3: 1 win, −323 − 313 + 333 = −303; T4: 1 win, 333 − 323 − 333 = −323.
    assert standings_rows(html) == [
        ("T2", "323", "4"),
        ("T1", "303", "4"),
        ("T3", f"{MINUS}303", "2"),
        ("T4", f"{MINUS}323", "2"),
    ]


def test_a_match_still_being_played_counts_nothing(client):
    tournament = make_tournament(entrants=4, hands_per_game=3, drawn=True)
    games, _ = games_of(tournament, "T1", "T2")
    win(games[0], 0)

    rows = standings_rows(page(client, tournament, "view"))

    assert {points for _, _, points in rows} == {"0"}
    assert "1/3 el" in page(client, tournament, "view")


def test_a_best_of_three_ends_at_two_nil_and_the_third_game_is_not_needed(client):
    tournament = make_tournament(entrants=2, games_per_pairing=3, drawn=True)
    (games, t1_is_a) = games_of(tournament, "T1", "T2")

    win(games[0], 0 if t1_is_a else 1, 10)
    html_after_one = page(client, tournament, "view")
    win(games[1], 0 if t1_is_a else 1, 20)
    html = page(client, tournament, "view")

    assert standings_rows(html_after_one)[0][2] == "0"  # one game won of three: not over
    assert f'data-game="{games[2].number}"' in html
    assert "gerekmedi" in html
    # T1: 2 games won, averaj 313 + 323.
    assert standings_rows(html) == [("T1", "636", "2"), ("T2", f"{MINUS}636", "0")]
    assert "2–0" in html


def test_a_best_of_three_at_one_all_needs_the_third_game(client):
    tournament = make_tournament(entrants=2, games_per_pairing=3, drawn=True)
    (games, t1_is_a) = games_of(tournament, "T1", "T2")
    t1, t2 = (0, 1) if t1_is_a else (1, 0)

    win(games[0], t1, 10)
    win(games[1], t2, 30)
    middle = page(client, tournament, "view")
    win(games[2], t1, 10)
    html = page(client, tournament, "view")

    assert "gerekmedi" not in middle
    assert "Masa 1" in middle and "3. oyun" in middle  # the table plays the third game now
    # T1 2–1: 313 − 333 + 313 = 293.
    assert standings_rows(html) == [("T1", "293", "2"), ("T2", f"{MINUS}293", "0")]


def test_groups_then_semi_finals_and_final_from_the_standings(client):
    tournament = make_tournament(entrants=8, drawn=True)
    members = {"A": ["T1", "T4", "T5", "T8"], "B": ["T2", "T3", "T6", "T7"]}
    for names in members.values():
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                beat(tournament, first, second)  # the one entered first wins

    first = draw(client, tournament).content.decode()
    semis = list(Pairing.objects.filter(phase="knockout").select_related("a", "b"))
    for pairing in semis:
        win(pairing.games.get(), 0)  # the better seed wins
    second = draw(client, tournament).content.decode()
    final = Pairing.objects.filter(phase="knockout", round=2).select_related("a", "b").get()
    win(final.games.get(), 1, 40)  # the second seed wins the final
    html = page(client, tournament, "view")

    assert "Yarı final" in first
    assert [(p.a.name, p.b.name, p.seed_a, p.seed_b) for p in semis] == [
        ("T1", "T3", 1, 4),  # A1 – B2
        ("T2", "T4", 2, 3),  # B1 – A2
    ]
    assert "Final" in second
    assert (final.a.name, final.b.name) == ("T1", "T2")
    assert "Şampiyon" in html and "<strong>T2</strong>" in html
    assert "data-winner>T2<" in html
    assert Tournament.objects.get().stage == "knockout"
    assert "Kura çek" not in page(client, tournament)  # nothing left to draw


def test_a_league_is_everyone_once_and_ends_with_its_table(client):
    tournament = make_tournament(entrants=3, layout="league", drawn=True)
    beat(tournament, "T1", "T2")
    beat(tournament, "T1", "T3")
    beat(tournament, "T3", "T2")

    html = page(client, tournament, "view")

    assert Pairing.objects.filter(tournament=tournament).count() == 3
    assert [row[0] for row in standings_rows(html)] == ["T1", "T3", "T2"]
    assert "<strong>T1</strong>" in html


# --- Results by hand ------------------------------------------------------------------------


def test_a_result_by_hand_needs_a_reason_and_is_shown_with_it(client):
    tournament = make_tournament(entrants=2, drawn=True)
    game = Game.objects.get(tournament=tournament)
    url = reverse("tournaments:tournament_result", args=[tournament.edit_token, game.number])

    form = client.get(url)
    refused = client.post(url, {"total_0": "-101", "total_1": "250", "reason": ""})
    saved = client.post(url, {"total_0": "-101", "total_1": "250", "reason": "Masa kâğıtta tuttu"})
    # The correction's page showed the first result by hand (entered=1).
    corrected = client.post(
        url, {"total_0": "300", "total_1": "-50", "reason": "Ters yazılmış", "entered": "1"}
    )

    assert form.status_code == 200
    assert refused.status_code == 400 and "Nedenini yazın" in refused.content.decode()
    assert saved.status_code == corrected.status_code == 302
    game.refresh_from_db()
    assert game.totals == [300, -50]
    assert list(ManualResult.objects.values_list("totals", "before", "reason")) == [
        ([-101, 250], None, "Masa kâğıtta tuttu"),
        ([300, -50], [-101, 250], "Ters yazılmış"),
    ]
    html = page(client, tournament, "view")
    assert "Masa kâğıtta tuttu" in html and "Ters yazılmış" in html
    # T2 won by hand: 300 − (−50) = 350.
    assert standings_rows(html)[0] == ("T2", "350", "2")


def test_a_forfeit_stands_in_for_a_match_never_played(client):
    tournament = make_tournament(entrants=2, games_per_pairing=3, drawn=True)
    games, t1_is_a = games_of(tournament, "T1", "T2")
    for game in games[:2]:
        url = reverse("tournaments:tournament_result", args=[tournament.edit_token, game.number])
        totals = ("0", "101") if t1_is_a else ("101", "0")
        client.post(url, {"total_0": totals[0], "total_1": totals[1], "reason": "Hükmen"})

    rows = standings_rows(page(client, tournament, "view"))

    assert rows == [("T1", "202", "2"), ("T2", f"{MINUS}202", "0")]


def test_a_group_result_cannot_change_once_the_knock_out_is_drawn(client):
    tournament = make_tournament(entrants=4, drawn=True)
    for a, b in [
        ("T1", "T2"),
        ("T1", "T3"),
        ("T1", "T4"),
        ("T2", "T3"),
        ("T2", "T4"),
        ("T3", "T4"),
    ]:
        beat(tournament, a, b)
    draw(client, tournament)
    game = Game.objects.filter(pairing__phase="group").first()
    url = reverse("tournaments:tournament_result", args=[tournament.edit_token, game.number])

    response = client.post(url, {"total_0": "1", "total_1": "2", "reason": "geç kaldı"})

    assert response.status_code == 400
    assert "artık değiştirilemez" in response.content.decode()
    assert not ManualResult.objects.exists()


@pytest.mark.parametrize("data", [{"total_0": "x", "total_1": "1", "reason": "r"}, {}])
def test_a_bad_result_form_changes_nothing(client, data):
    tournament = make_tournament(entrants=2, drawn=True)
    game = Game.objects.get(tournament=tournament)
    url = reverse("tournaments:tournament_result", args=[tournament.edit_token, game.number])

    response = client.post(url, data)

    assert response.status_code == 400
    assert not ManualResult.objects.exists()
    assert (
        client.get(
            reverse("tournaments:tournament_result", args=[tournament.edit_token, 99])
        ).status_code
        == 404
    )


# --- Tek ------------------------------------------------------------------------------------


def play_tek_round(tournament: Tournament, number: int) -> None:
    """Every table of the round: its first player goes out, the second opened with 10 left."""
    for game in Game.objects.filter(tournament=tournament, round=number).select_related("match"):
        add_hand(game.match, sample_inputs(4, finisher=0, remaining=10))


def test_tek_rounds_seat_four_players_a_table_and_score_by_place(client):
    tournament = make_tournament("tek", entrants=8)

    draw(client, tournament)
    games = list(Game.objects.filter(tournament=tournament).select_related("match"))
    play_tek_round(tournament, 1)
    html = page(client, tournament, "view")

    assert len(games) == 2
    assert sorted(p for g in games for p in g.seats) == sorted(
        Entrant.objects.values_list("pk", flat=True)
    )
    for game in games:
        names = list(game.match.players.values_list("name", flat=True))
        assert names == [Entrant.objects.get(pk=pk).name for pk in game.seats]
        assert not game.match.teams and game.match.rules == tournament.rules
    # At each table: −101, 10, 202, 202 (the table's sum 313). Places 3, 2, and (1 + 0) / 2
    # each for the two tied; averaj 313 − 4 × own total: 717, 273, −495, −495.
    rows = standings_rows(html)
    firsts = {Entrant.objects.get(pk=g.seats[0]).name for g in games}
    seconds = {Entrant.objects.get(pk=g.seats[1]).name for g in games}
    assert {r[0] for r in rows[:2]} == firsts and {r[1:] for r in rows[:2]} == {("717", "3")}
    assert {r[0] for r in rows[2:4]} == seconds and {r[1:] for r in rows[2:4]} == {("273", "2")}
    assert {r[1:] for r in rows[4:]} == {(f"{MINUS}495", "0,5")}


def test_tek_three_rounds_with_a_late_entrant_and_a_withdrawal(client):
    tournament = make_tournament("tek", entrants=8, rounds=3)
    draw(client, tournament)
    before = client.post(
        reverse("tournaments:tournament_entrants", args=[tournament.edit_token]),
        {"entries": "Geç"},
        follow=True,
    )
    play_tek_round(tournament, 1)

    client.post(
        reverse("tournaments:tournament_entrants", args=[tournament.edit_token]), {"entries": "Geç"}
    )
    draw(client, tournament)
    round_two = list(Game.objects.filter(tournament=tournament, round=2))
    late = Entrant.objects.get(name="Geç")
    resting = Tournament.objects.get().byes["2"]
    play_tek_round(tournament, 2)
    client.post(
        reverse("tournaments:tournament_withdraw", args=[tournament.edit_token]),
        {"entrant": late.number, "version": Tournament.objects.get().version},
    )
    draw(client, tournament)
    round_three = list(Game.objects.filter(tournament=tournament, round=3))
    play_tek_round(tournament, 3)
    html = page(client, tournament, "view")

    assert "yalnız kuradan önce" in before.content.decode()  # not while round 1 is played
    assert late.pk in {p for g in round_two for p in g.seats}  # sat out round 1: plays now
    assert len(resting) == 1
    assert late.pk not in {p for g in round_three for p in g.seats}
    rows = standings_rows(html)
    assert len(rows) == 9  # the withdrawn player stays in the table
    points = {name: value for name, _, value in rows}
    resting_name = Entrant.objects.get(pk=resting[0]).name
    assert points[resting_name] in {"1,5", "3", "3,5", "4,5", "5", "5,5", "6,5", "7,5"}
    assert "Turnuva bitti" in html and "Şampiyon" in html
    assert "turu çek" not in page(client, tournament)


# --- The live page, the poll and the printed sheets ------------------------------------------


def test_the_view_page_links_only_to_view_links(client):
    tournament = make_tournament(entrants=4, drawn=True)

    html = page(client, tournament, "view")

    for match in Match.objects.all():
        assert match.edit_token not in html
        assert match.join_token not in html
    assert tournament.edit_token not in html
    match = Game.objects.filter(round=1).first().match
    assert reverse("sharing:view_match", args=[match.view_token]) in html


def test_the_live_tables_show_each_game_with_its_running_totals(client):
    tournament = make_tournament(entrants=4, hands_per_game=3, drawn=True)
    win(Game.objects.get(tournament=tournament, round=1, table=1), 0, 20)

    html = page(client, tournament, "view")

    live = html[html.index("live-tables") : html.index("</ul>", html.index("live-tables"))]
    assert "1/3 el" in live
    assert f"data-running>{MINUS}101<" in live and "data-running>222<" in live


def test_the_poll_answers_204_until_a_hand_or_a_result_changes_it(client):
    tournament = make_tournament(entrants=4, hands_per_game=3, drawn=True)
    url = reverse("tournaments:view_tournament_poll", args=[tournament.view_token])
    version = re.search(r'data-live-version="([^"]+)"', page(client, tournament, "view"))[1]

    quiet = client.get(url, {"v": version})
    win(Game.objects.first(), 0)
    news = client.get(url, {"v": version})
    new_version = re.search(r'data-live-version="([^"]+)"', news.content.decode())[1]
    again = client.get(url, {"v": new_version})
    game = Game.objects.last()
    client.post(
        reverse("tournaments:tournament_result", args=[tournament.edit_token, game.number]),
        {"total_0": "1", "total_1": "2", "reason": "hükmen"},
    )
    after_result = client.get(url, {"v": new_version})

    assert quiet.status_code == 204 and not quiet.content
    assert news.status_code == 200 and "1/3 el" in news.content.decode()
    assert again.status_code == 204
    assert after_result.status_code == 200 and "hükmen" in after_result.content.decode()
    edit_poll = client.get(reverse("tournaments:tournament_poll", args=[tournament.edit_token]))
    assert edit_poll.status_code == 200


def test_every_phone_on_the_view_link_gets_the_same_live_part_and_a_save_changes_it(client):
    """The view link's live part is kept once drawn per live version (cetele.tournaments.views.
    live_key): the next phone's news is the same drawing, and the next save is drawn anew."""
    tournament = make_tournament(entrants=4, hands_per_game=3, drawn=True)
    url = reverse("tournaments:view_tournament_poll", args=[tournament.view_token])
    first, second = Client(), Client()
    for phone in (first, second):
        phone.get(reverse("tournaments:view_tournament", args=[tournament.view_token]))

    one, two = (phone.get(url, {"v": "shown before"}).content.decode() for phone in (first, second))
    win(Game.objects.get(tournament=tournament, round=1, table=1), 0, 20)
    after = second.get(url, {"v": "shown before"}).content.decode()

    assert one == two and "0/3 el" in one
    assert "1/3 el" in after and f"data-running>{MINUS}101<" in after


def test_the_organisers_live_part_is_never_the_view_links(client):
    """The organiser's live part holds the edit links and forms: asked first at the same
    version, it is not what the view link gets."""
    tournament = make_tournament(entrants=4, hands_per_game=3, drawn=True)
    client.get(reverse("tournaments:tournament_poll", args=[tournament.edit_token]), {"v": "old"})

    viewer = Client()
    viewer.get(reverse("tournaments:view_tournament", args=[tournament.view_token]))
    html = viewer.get(
        reverse("tournaments:view_tournament_poll", args=[tournament.view_token]), {"v": "old"}
    ).content.decode()

    assert "0/3 el" in html and tournament.edit_token not in html
    assert "csrfmiddlewaretoken" not in html
    for match in Match.objects.all():
        assert match.edit_token not in html


@pytest.mark.django_db(transaction=True)  # the deletion's commit is what announces it
def test_a_deleted_tournaments_live_part_is_forgotten(client):
    tournament = make_tournament(entrants=4, hands_per_game=3, drawn=True)
    view = reverse("tournaments:view_tournament_poll", args=[tournament.view_token])
    client.get(reverse("tournaments:view_tournament", args=[tournament.view_token]))
    assert "T1" in client.get(view, {"v": "old"}).content.decode()
    version = live_version(Tournament.objects.filter(pk=tournament.pk))
    with override("tr"):
        key = live_key(version)
    assert "T1" in caches[SHEETS].get(key)

    tournament.delete()

    assert caches[SHEETS].get(key) is None


def test_the_printed_sheets_hold_one_table_each_with_its_games_qr_codes(client):
    tournament = make_tournament(entrants=8, games_per_pairing=3, tables=4, drawn=True)

    response = client.get(reverse("tournaments:tournament_print", args=[tournament.edit_token]))

    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("data-table-sheet=") == 4
    for game in Game.objects.filter(round=1).select_related("match"):
        edit_url = "http://testserver" + reverse(
            "matches:match_detail", args=[game.match.edit_token]
        )
        assert qr_svg(edit_url) in html
    assert html.count("(gerekirse)") == 4  # each table's third game


def test_the_pages_stay_out_of_caches_and_search_engines(client):
    tournament = make_tournament(entrants=4, drawn=True)

    edit = client.get(reverse("tournaments:tournament_detail", args=[tournament.edit_token]))
    view = client.get(reverse("tournaments:view_tournament", args=[tournament.view_token]))
    printed = client.get(reverse("tournaments:tournament_print", args=[tournament.edit_token]))

    for response in (edit, view, printed):
        assert response["X-Robots-Tag"] == "noindex, nofollow"
        assert "private" in response["Cache-Control"]
        assert 'name="robots" content="noindex' in response.content.decode()
    assert "no-store" in edit["Cache-Control"] and "no-store" in printed["Cache-Control"]
    assert "no-cache" in view["Cache-Control"]


# --- Links ----------------------------------------------------------------------------------


def counts() -> tuple:
    return (
        Tournament.objects.values_list("version", flat=True).first(),
        Entrant.objects.count(),
        Entrant.objects.filter(withdrawn=True).count(),
        Pairing.objects.count(),
        Game.objects.exclude(totals=None).count(),
        ManualResult.objects.count(),
        Match.objects.count(),
    )


def test_the_view_link_writes_nothing_through_any_post_url(client):
    tournament = make_tournament(entrants=4)
    tournament_routes = [r for r in routes() if r.startswith(("t/", "tv/"))]
    data = {"entries": "Yeni, Takım", "version": "1", "entrant": "1", "reason": "x"}
    data |= {"total_0": "1", "total_1": "2"}
    before = counts()

    answers = {}
    for route in tournament_routes:
        url = "/" + route.replace("<token:token>", tournament.view_token).replace(
            "<int:number>", "1"
        )
        answers[route] = client.post(url, data).status_code

    assert counts() == before
    assert all(status in (404, 405) for status in answers.values()), answers
    assert answers["t/<token:token>/kura/"] == 404  # an edit URL with the view key: unknown


@pytest.mark.parametrize(
    "url",
    [
        "/t/{token}/",
        "/tv/{token}/",
        "/t/{token}/poll/",
        "/tv/{token}/poll/",
        "/t/{token}/yazdir/",
        "/t/{token}/oyun/1/",
        "/t/kisa/",
        "/tv/kisa/poll/",
    ],
)
def test_bad_tournament_links_are_404(client, url):
    make_tournament(entrants=4, drawn=True)

    response = client.get(url.format(token=new_token()))

    assert response.status_code == 404
    assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_the_edit_link_does_not_open_the_view_page_nor_the_view_link_the_edit_page(client):
    tournament = make_tournament(entrants=4)

    assert (
        client.get(reverse("tournaments:view_tournament", args=[tournament.edit_token])).status_code
        == 404
    )
    assert (
        client.get(
            reverse("tournaments:tournament_detail", args=[tournament.view_token])
        ).status_code
        == 404
    )


# --- Queries do not grow with the tournament ------------------------------------------------


def sized(kind: str, tables: int) -> Tournament:
    """A drawn tournament whose first round fills `tables` tables, a hand saved at each."""
    if kind == "esli":
        # Groups of up to eight (at most 26 groups): a round of every group fills the tables.
        tournament = make_tournament(
            entrants=2 * tables, group_size=min(8, 2 * tables), tables=tables, drawn=True
        )
    else:
        tournament = make_tournament("tek", entrants=4 * tables, tables=tables, drawn=True)
    for game in Game.objects.filter(tournament=tournament, round=1).select_related("match"):
        add_hand(game.match, sample_inputs(4, finisher=1, remaining=10))
    return tournament


def queries_of(client, url: str, **params) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, params)
    return response.status_code, len(queries)


@pytest.mark.parametrize("kind", ["esli", "tek"])
def test_the_live_page_and_its_poll_ask_as_many_queries_for_64_tables_as_for_2(client, kind):
    measured = {}
    for tables in (2, 16, 64):
        tournament = sized(kind, tables)
        assert Game.objects.filter(tournament=tournament, round=1).count() == tables
        view = reverse("tournaments:view_tournament", args=[tournament.view_token])
        poll = reverse("tournaments:view_tournament_poll", args=[tournament.view_token])
        edit = reverse("tournaments:tournament_detail", args=[tournament.edit_token])
        version = re.search(r'data-live-version="([^"]+)"', page(client, tournament, "view"))[1]
        measured[tables] = (
            queries_of(client, view),
            queries_of(client, poll, v="old"),
            queries_of(client, poll, v=version),
            queries_of(client, edit),
        )

    assert measured[2] == measured[16] == measured[64], measured
    assert measured[2][2] == (204, measured[2][2][1])


def test_the_log_lines_about_tournament_links_carry_no_key():
    from django.test import Client

    from tests.web.shell.test_no_key_in_logs import configured_log

    tournament = make_tournament(entrants=4, drawn=True)
    careless = Client(raise_request_exception=False)
    strict = Client(enforce_csrf_checks=True)
    edit, view = tournament.edit_token, tournament.view_token

    with configured_log() as log:
        careless.get(f"/t/{edit}/oyun/999/")  # Not Found: /t/<token>/oyun/999/
        strict.post(f"/t/{edit}/kura/", {"version": "1"})  # Forbidden (CSRF cookie not set.)
        careless.get(f"/tv/{view}/yok/")

    text = log.getvalue()
    assert "Not Found: /t/…/oyun/999/" in text
    assert "Forbidden (CSRF cookie not set.): /t/…/kura/" in text
    assert edit not in text and view not in text


def test_the_pages_speak_english_when_asked(client, settings):
    tournament = make_tournament(entrants=4, drawn=True)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    view = page(client, tournament, "view")
    edit = page(client, tournament)
    create = client.get(reverse("tournaments:tournament_create")).content.decode()

    assert "Group A" in view and "Score difference" in view and "Puan durumu" not in view
    assert "Round 1, table 1" in view and "Watch the match" in view
    assert "Teams (4)" in edit and "View page" in edit
    assert "New tournament" in create and "Best of three" in create


def test_forget_unused_forgets_a_tournament_nobody_uses_but_not_one_a_table_plays(client):
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    from cetele.models import RetiredLink

    old = timezone.now() - timedelta(days=400)
    idle = make_tournament(entrants=2, drawn=True)
    playing = make_tournament(entrants=2, drawn=True)
    Tournament.objects.update(touched_at=old)
    Match.objects.update(touched_at=old)
    Match.objects.filter(tournament_game__tournament=playing).update(touched_at=timezone.now())
    out = io.StringIO()

    call_command("forget_unused", stdout=out, no_vacuum=True)

    assert list(Tournament.objects.values_list("pk", flat=True)) == [playing.pk]
    assert not Entrant.objects.filter(tournament_id=idle.pk).exists()
    assert "removed 1 tournaments as well." in out.getvalue()
    assert "Kupa" not in out.getvalue() and "A1" not in out.getvalue()
    assert RetiredLink.find(idle.view_token) is not None
    assert (
        client.get(reverse("tournaments:view_tournament", args=[idle.view_token])).status_code
        == 404
    )


def test_three_groups_give_a_bracket_with_byes_for_the_best_seeds(client):
    tournament = make_tournament(entrants=12, drawn=True)
    for pairing in Pairing.objects.filter(tournament=tournament).select_related("a", "b"):
        first, second = sorted((pairing.a, pairing.b), key=lambda e: e.number)
        beat(tournament, first.name, second.name)  # the one entered first wins

    draw(client, tournament)
    first_round = list(
        Pairing.objects.filter(phase="knockout", round=1).select_related("a", "b").order_by("pk")
    )
    for pairing in first_round:
        if pairing.b is not None:
            win(pairing.games.get(), 0)
    html = draw(client, tournament).content.decode()
    semis = Pairing.objects.filter(phase="knockout", round=2).select_related("a", "b")

    # Six go through (A1, B1, C1 seeds 1–3; the runners-up 4–6) into a bracket of eight: the two
    # best seeds have a bye, the others meet.
    byes = [p.a.name for p in first_round if p.b is None]
    assert len(first_round) == 4 and byes == ["T1", "T2"]
    assert "bay geçer" in html and "Yarı final" in html
    assert sorted(p.a.name for p in semis) == ["T1", "T2"]
    assert Game.objects.filter(pairing__in=[p for p in first_round if p.b is None]).count() == 0


def test_hidden_totals_at_a_match_stay_hidden_on_the_tournament_pages(client):
    tournament = make_tournament(entrants=2, hands_per_game=5, drawn=True)
    game = Game.objects.select_related("match").get(tournament=tournament)
    win(game, 0)
    assert game.match.set_hidden_totals(True)

    html = page(client, tournament, "view")

    assert "data-running" not in html and "data-hidden-totals" in html
    assert "1/5 el" in html


def test_before_the_draw_the_view_page_lists_who_entered(client):
    tournament = make_tournament(entrants=3)
    client.post(
        reverse("tournaments:tournament_withdraw", args=[tournament.edit_token]),
        {"entrant": 2, "version": tournament.version},
        follow=True,  # its note ("T2 çekildi.") shown on the organiser's page
    )

    html = page(client, tournament, "view")

    assert "Kura henüz çekilmedi." in html
    assert "<li>T1</li>" in html and "<li>T3</li>" in html
    # The withdrawn team is named nowhere on the page; its tags are left out, for a random key
    # (the link, the CSRF token) in their attributes may hold "T2" itself.
    assert "T2" not in re.sub(r"<[^>]*>", " ", html)
