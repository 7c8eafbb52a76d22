"""The organiser's way through a café tournament, as tried at a real table: every page names a
knock-out game by its stage ("Yarı final, masa 2", "Final"), the organiser's page says when a
draw is due and what for, the printed sheets say which round they hold, a game's match pages
say which game of which tournament they are, and a drawn game has no winner."""

import re

import pytest
from django.urls import reverse

from cetele.models import Match
from cetele.tournaments.models import Game, Pairing, Tournament
from tests.factories import add_hand, make_match, make_tournament, sample_inputs
from tests.web.tables.test_tables_and_rematches import start_at, table_with

pytestmark = pytest.mark.django_db


def get(client, name: str, token: str, *args) -> str:
    response = client.get(reverse(name, args=[token, *args]))
    assert response.status_code == 200
    return response.content.decode()


def organiser(client, tournament: Tournament) -> str:
    return get(client, "tournaments:tournament_detail", tournament.edit_token)


def cafe(client, tournament: Tournament) -> str:
    return get(client, "tournaments:view_tournament", tournament.view_token)


def printed(client, tournament: Tournament) -> str:
    return get(client, "tournaments:tournament_print", tournament.edit_token)


def text(html: str) -> str:
    """The page's words, tags dropped and spaces folded, as a reader sees them."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def draw(client, tournament: Tournament) -> None:
    tournament.refresh_from_db()
    url = reverse("tournaments:tournament_draw", args=[tournament.edit_token])
    client.post(url, {"version": tournament.version})
    tournament.refresh_from_db()


def finish(games) -> None:
    """Each game's one hand: side a (seat 0) goes out."""
    for game in games:
        add_hand(game.match, sample_inputs(4, finisher=0, remaining=10))


def round_games(tournament: Tournament, phase: str, number: int) -> list[Game]:
    return list(
        Game.objects.filter(
            tournament=tournament, pairing__phase=phase, pairing__round=number
        ).select_related("match", "pairing__a", "pairing__b")
    )


def group_stage_over(teams: int) -> Tournament:
    """Groups of four, two go through; every group game played."""
    tournament = make_tournament(entrants=teams, drawn=True)
    finish(Game.objects.filter(tournament=tournament).select_related("match"))
    return tournament


def games_list(html: str) -> list[str]:
    """The games' list (_games.html): each game's name, before its colon."""
    return [text(item).split(":")[0] for item in re.findall(r"<li data-game=.*?</li>", html, re.S)]


# --- Knock-out games named by their stage, on every page ----------------------------------


def test_quarter_finals_semi_finals_and_the_final_are_named_by_stage_on_every_page(client):
    tournament = group_stage_over(16)  # four groups, eight through: quarter-finals
    draw(client, tournament)
    quarters = round_games(tournament, "knockout", 1)

    for html in (organiser(client, tournament), cafe(client, tournament)):
        names = games_list(html)
        assert names[-4:] == [f"Çeyrek final, masa {n}" for n in (1, 2, 3, 4)]
        assert "Çeyrek final: masalar" in text(html)  # the live tables' heading
    sheets = text(printed(client, tournament))
    assert sheets.count("Çeyrek final") == 5  # each table's game, and the note above them

    finish(quarters)
    draw(client, tournament)
    semis = round_games(tournament, "knockout", 2)
    assert games_list(cafe(client, tournament))[-2:] == ["Yarı final, masa 1", "Yarı final, masa 2"]

    finish(semis)
    draw(client, tournament)
    html = cafe(client, tournament)
    assert games_list(html)[-1] == "Final"
    assert "Final: masalar" in text(html)
    assert "1. tur, masa" in text(html)  # the group games keep their round


def test_a_result_by_hand_in_the_knock_out_names_the_game_by_stage(client):
    tournament = group_stage_over(8)
    draw(client, tournament)
    game = round_games(tournament, "knockout", 1)[0]
    url = reverse("tournaments:tournament_result", args=[tournament.edit_token, game.number])
    client.post(url, {"total_0": "-101", "total_1": "404", "reason": "Kâğıtta tutuldu"})

    manual = re.search(r"<li data-manual>.*?</li>", cafe(client, tournament), re.S).group()

    assert text(manual).startswith("Yarı final, masa 1:")


# --- The draw that is due, said on the organiser's page -----------------------------------


def test_the_organisers_page_says_which_draw_is_due_and_the_cafes_page_does_not(client):
    tournament = group_stage_over(8)
    after_groups = text(organiser(client, tournament))
    draw(client, tournament)
    during_semis = text(organiser(client, tournament))
    finish(round_games(tournament, "knockout", 1))
    after_semis = organiser(client, tournament)

    assert "Grup maçları bitti: eleme kurasını çekin." in after_groups
    assert "bitti:" not in during_semis and "kurasını çek" not in during_semis
    assert "Yarı finaller bitti: finalin kurasını çekin." in text(after_semis)
    assert "data-draw" in after_semis  # the button is there
    assert "finalin kurasını" not in cafe(client, tournament)


def test_after_the_quarter_finals_the_semi_finals_draw_is_announced(client):
    tournament = group_stage_over(16)
    draw(client, tournament)
    finish(round_games(tournament, "knockout", 1))

    assert "Çeyrek finaller bitti: yarı finallerin kurasını çekin." in text(
        organiser(client, tournament)
    )


def test_a_tek_round_over_announces_the_next_rounds_draw(client):
    tournament = make_tournament("tek", entrants=8, drawn=True)
    finish(Game.objects.filter(tournament=tournament).select_related("match"))

    assert "1. tur bitti: 2. turun kurasını çekin." in text(organiser(client, tournament))


# --- The printed sheets say which round they hold -----------------------------------------


def test_the_printed_sheets_say_which_round_they_hold_and_when_the_next_comes(client):
    tournament = make_tournament(entrants=8, drawn=True)
    first_round = text(printed(client, tournament))
    finish(Game.objects.filter(tournament=tournament).select_related("match"))
    draw(client, tournament)
    semis = text(printed(client, tournament))
    finish(round_games(tournament, "knockout", 1))
    draw(client, tournament)
    final = text(printed(client, tournament))

    assert "Bu sayfada yalnız bu turun masaları var: 1. tur." in first_round
    assert "Sonraki turun kâğıtları bu tur bitince burada çıkar." in first_round
    assert "Bu sayfada yalnız bu turun masaları var: Yarı final." in semis
    assert "Sonraki turun kâğıtları kurası çekilince burada çıkar." in semis
    assert "Bu sayfada yalnız bu turun masaları var: Final." in final
    assert "Bu, turnuvanın son turu." in final


def test_in_english_each_tables_sheet_holds_one_semi_final(client):
    tournament = group_stage_over(8)
    draw(client, tournament)
    client.cookies["django_language"] = "en"

    html = printed(client, tournament)

    assert [text(h2) for h2 in re.findall(r"<h2>.*?</h2>", html)] == ["Semi-final"] * 2
    assert "This page holds only this round's tables: Semi-finals." in text(html).replace(
        "&#x27;", "'"
    )


def test_the_last_group_round_says_the_knock_out_comes_with_its_draw(client):
    tournament = make_tournament(entrants=4, drawn=True)  # one group of four: three rounds
    for number in (1, 2):
        finish(round_games(tournament, "group", number))

    html = text(printed(client, tournament))

    assert "Bu sayfada yalnız bu turun masaları var: 3. tur." in html
    assert "Sonraki turun kâğıtları kurası çekilince burada çıkar." in html


# --- A game's match pages name the game ---------------------------------------------------


def heading(html: str) -> str:
    found = re.search(r"<p [^>]*data-tournament-game>.*?</p>", html, re.S)
    return text(found.group()) if found else ""


def test_a_games_match_pages_name_the_tournament_round_table_and_teams(client):
    tournament = make_tournament(entrants=4, games_per_pairing=3, drawn=True)
    game = round_games(tournament, "group", 1)[1]  # the second game of the first pairing
    a, b = game.pairing.a.name, game.pairing.b.name

    scorer = get(client, "matches:match_detail", game.match.edit_token)
    viewer = get(client, "sharing:view_match", game.match.view_token)

    expected = f"Kupa · 1. tur, masa {game.table} · 2. oyun {a} – {b}"
    assert heading(scorer) == heading(viewer) == expected
    for html in (scorer, viewer):  # no link to the tournament on a match's pages
        assert tournament.edit_token not in html and tournament.view_token not in html


def test_a_knock_out_games_match_page_names_its_stage(client):
    tournament = group_stage_over(8)
    draw(client, tournament)
    finish(round_games(tournament, "knockout", 1))
    draw(client, tournament)
    (final,) = round_games(tournament, "knockout", 2)

    html = get(client, "sharing:view_match", final.match.view_token)

    assert heading(html) == f"Kupa · Final {final.pairing.a.name} – {final.pairing.b.name}"


def test_a_tek_games_match_page_names_its_round_and_table(client):
    tournament = make_tournament("tek", entrants=4, drawn=True)
    game = Game.objects.select_related("match").get(tournament=tournament)

    assert (
        heading(get(client, "matches:match_detail", game.match.edit_token))
        == "Kupa · 1. tur, masa 1"
    )


def test_a_match_outside_a_tournament_names_none(client):
    match = make_match()

    assert "data-tournament-game" not in get(client, "matches:match_detail", match.edit_token)


# --- A drawn game has no winner -----------------------------------------------------------


NOBODY_OUT = {"finisher": None, "players": [{"opened": "no"} for _ in range(4)]}


def drawn_team_match() -> Match:
    """One hand nobody finished and nobody opened: every seat writes the same, the team
    totals are level."""
    match = make_match(teams=True, planned_hands=1)
    add_hand(match, NOBODY_OUT)
    return match


def test_a_drawn_game_says_berabere_and_names_no_winner(client):
    match = drawn_team_match()

    for html in (
        get(client, "matches:match_detail", match.edit_token),
        get(client, "sharing:view_match", match.view_token),
    ):
        words = text(html)
        assert "Maç bitti: berabere." in words
        assert "Kazanan" not in words
        assert re.search(r'class="summary-winner">\s*Berabere\s*<', html)


def test_the_shared_standings_of_a_drawn_game_say_berabere(client):
    match = drawn_team_match()

    html = get(client, "sharing:match_share", match.edit_token)

    assert "Berabere" in html and "Kazanan" not in html


def test_a_game_one_team_won_still_names_the_winner(client):
    match = make_match(teams=True, planned_hands=1)
    add_hand(match, sample_inputs(4, finisher=0, remaining=10))

    words = text(get(client, "matches:match_detail", match.edit_token))

    assert "Maç bitti. Kazanan: Ali & Can" in words and "berabere" not in words.lower()


def test_a_tournament_game_drawn_says_berabere_on_its_match_page(client):
    tournament = make_tournament(entrants=4, drawn=True)
    game = round_games(tournament, "group", 1)[0]
    add_hand(game.match, NOBODY_OUT)

    words = text(get(client, "sharing:view_match", game.match.view_token))

    assert "Maç bitti: berabere." in words and "Kazanan" not in words


def test_pairings_of_a_knock_out_round_count_its_byes(client):
    """Three groups give six through: a bracket of eight, the two best seeds without a game.
    Its first round is still the quarter-finals."""
    tournament = make_tournament(entrants=12, drawn=True)
    finish(Game.objects.filter(tournament=tournament).select_related("match"))
    draw(client, tournament)

    assert Pairing.objects.filter(phase="knockout", b=None).count() == 2
    assert games_list(cafe(client, tournament))[-2:] == [
        "Çeyrek final, masa 1",
        "Çeyrek final, masa 2",
    ]


def test_a_tables_match_list_says_berabere_for_a_drawn_match(client):
    table = table_with()
    add_hand(start_at(table, [0, 1, 2, 3], planned_hands=1, teams=True), NOBODY_OUT)

    words = text(get(client, "tables:table_detail", table.edit_token))

    assert "Berabere" in words and "Kazanan" not in words
