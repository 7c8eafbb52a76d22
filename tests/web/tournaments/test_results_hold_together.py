"""A tournament's numbers hold together: once a later draw used a game's result, no way of
changing that game's match (a correction, a deletion, an undo or a redo of a hand through the
table's edit link, deleting the match, a result typed by the organiser) changes the result, and
each way says so in a sentence; the champion is always the final's winner. Also the organiser's
result form when another result was entered since, entrant lines that repeat a team's name,
and the live page after a game's link is rotated or a game ends."""

import re

import pytest
from django.urls import reverse

from cetele.models import Hand, Match
from cetele.tournaments.models import Entrant, Game, ManualResult, Pairing, Tournament
from tests.factories import form_data, make_tournament, sample_inputs
from tests.web.tournaments.test_tournaments import beat, draw, page, standings_rows, win

pytestmark = pytest.mark.django_db

FROZEN = "sonucu turnuvanın sonraki kurasında kullanıldı"  # the table's refusal (matches.views)
ALREADY_USED = "artık değiştirilemez"  # the organiser's (tournaments.play)


def edit(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.edit_token, *args])


def final_drawn(before_final=None) -> Tournament:
    """8 teams in two groups (the one entered first wins each game), the semi-finals won by the
    better seeds (T1 beat T3, T2 beat T4), the final T1 – T2 drawn and not yet played.
    `before_final` is called just before the final's draw."""
    tournament = make_tournament(entrants=8, drawn=True)
    members = {"A": ["T1", "T4", "T5", "T8"], "B": ["T2", "T3", "T6", "T7"]}
    for names in members.values():
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                beat(tournament, first, second)
    draw_now(tournament)
    for pairing in Pairing.objects.filter(phase="knockout"):
        win(pairing.games.get(), 0)
    if before_final:
        before_final()
    draw_now(tournament)
    return tournament


def draw_now(tournament: Tournament) -> None:
    from django.test import Client

    draw(Client(), tournament)


def semi_final(n: int = 1) -> Game:
    semis = Game.objects.select_related("match").filter(pairing__phase="knockout", round=1)
    return semis.order_by("pairing__number")[n - 1]


def final_game() -> Game:
    return Game.objects.select_related("match").get(pairing__phase="knockout", pairing__round=2)


def bracket(html: str) -> list[str]:
    """Each knock-out pairing as the café page writes it: "T1 – T3 → T1"."""
    items = re.findall(r"<li data-pairing>(.*?)</li>", html, re.S)
    return [" ".join(re.sub(r"<[^>]+>|\([^)]*\)", " ", item).split()) for item in items]


def champion(html: str) -> str:
    return re.search(r"data-champion>.*?<strong>([^<]+)</strong>", html, re.S).group(1)


def test_the_semi_final_corrected_at_its_table_after_the_final_was_drawn_is_refused(client):
    """The repro: the final T1 – T2 is drawn; the table of semi-final 1 (T1 – T3) corrects its
    hand through its game's edit link so that T3 wins. Refused with why; the bracket and the
    champion stay the final's."""
    tournament = final_drawn()
    semi = semi_final(1)
    hand = semi.match.hands.get()
    t3_wins = sample_inputs(4, finisher=1, remaining=10)

    response = client.post(
        edit("matches:hand_edit", semi.match, hand.number), form_data(t3_wins, version=hand.version)
    )
    win(final_game(), 1)  # T2 wins the final

    said = response.content.decode()
    assert response.status_code == 200 and FROZEN in said
    assert "turnuvayı yöneten de değiştiremez" in said  # and who can: nobody
    assert Hand.objects.get(pk=hand.pk).inputs == hand.inputs
    html = page(client, tournament, "view")
    assert bracket(html) == ["T1 – T3 → T1", "T2 – T4 → T2", "T1 – T2 → T2"]
    assert champion(html) == "T2"


def test_the_final_itself_may_still_be_corrected_and_its_winner_is_the_champion(client):
    """No draw comes after the final: its table corrects it, and the champion follows."""
    tournament = final_drawn()
    final = final_game()
    win(final, 0)  # T1
    hand = final.match.hands.get()

    response = client.post(
        edit("matches:hand_edit", final.match, hand.number),
        form_data(sample_inputs(4, finisher=1, remaining=10), version=hand.version),
    )

    assert response.status_code == 302
    html = page(client, tournament, "view")
    assert bracket(html)[-1] == "T1 – T2 → T2" and champion(html) == "T2"


def test_a_group_game_corrected_at_its_table_after_the_knock_out_draw_is_refused(client):
    tournament = make_tournament(entrants=4, drawn=True)
    for a, b in [("T1", "T2"), ("T1", "T3"), ("T1", "T4"), ("T2", "T3"), ("T2", "T4")]:
        beat(tournament, a, b)
    beat(tournament, "T3", "T4")
    draw(client, tournament)
    before = standings_rows(page(client, tournament, "view"))
    game = Game.objects.select_related("match").filter(pairing__phase="group").first()
    hand = game.match.hands.get()
    loser_wins = sample_inputs(4, finisher=1 - hand.inputs["finisher"], remaining=10)

    response = client.post(
        edit("matches:hand_edit", game.match, hand.number),
        form_data(loser_wins, version=hand.version),
    )

    assert response.status_code == 200 and FROZEN in response.content.decode()
    assert Hand.objects.get(pk=hand.pk).inputs == hand.inputs
    assert standings_rows(page(client, tournament, "view")) == before


def test_deleting_undoing_or_redoing_a_semi_finals_hand_after_the_final_was_drawn_is_refused(
    client,
):
    def correct_and_undo() -> None:
        """Semi-final 2's table corrects its hand and undoes the correction before the final
        is drawn: its latest change is an undo, which "Yinele" would redo."""
        match = semi_final(2).match
        number = match.hands.get().number
        match.edit_hand(number, sample_inputs(4, finisher=0, remaining=30), 1)
        match.undo(match.last_undoable_change().pk)

    tournament = final_drawn(before_final=correct_and_undo)
    semi, semi_2 = semi_final(1), semi_final(2)
    hand, other = semi.match.hands.get(), semi_2.match.hands.get()

    deleted = client.post(edit("matches:hand_delete", semi.match, hand.number), follow=True)
    undone = client.post(
        edit("matches:match_undo", semi.match),
        {"change": semi.match.last_undoable_change().pk},
        follow=True,
    )
    redone = client.post(
        edit("matches:match_redo", semi_2.match),
        {"change": semi_2.match.redoable_change().pk},
        follow=True,
    )

    for response in (deleted, undone, redone):
        assert FROZEN in response.content.decode()
    assert Hand.objects.get(pk=hand.pk).inputs == hand.inputs
    assert Hand.objects.get(pk=other.pk).inputs == other.inputs
    assert semi_2.match.redoable_change() is not None  # nothing was redone
    assert bracket(page(client, tournament, "view"))[:2] == ["T1 – T3 → T1", "T2 – T4 → T2"]


def test_a_games_match_is_not_deleted_through_its_edit_link(client):
    tournament = final_drawn()
    semi = semi_final(1)

    asked = client.get(edit("your_data:match_delete", semi.match))
    response = client.post(edit("your_data:match_delete", semi.match), {"confirm": "on"})

    assert asked.status_code == 200 and "tek başına silinemez" in asked.content.decode()
    assert 'name="confirm"' not in asked.content.decode()
    assert response.status_code == 409 and "tek başına silinemez" in response.content.decode()
    assert Match.objects.filter(pk=semi.match.pk).exists()
    assert bracket(page(client, tournament, "view"))[0] == "T1 – T3 → T1"


def test_deleting_the_table_a_games_match_was_put_at_keeps_the_games_match(client):
    """A game's edit link may set up a table with its players ("Masa"); deleting that table
    with its matches deletes the others, never the tournament's game."""
    from cetele.models import Table

    tournament = final_drawn()
    semi = semi_final(1)
    client.post(edit("tables:match_table", semi.match), {"name": "Yarı final masası"})
    table = Table.objects.get()
    semi.match.refresh_from_db()
    assert semi.match.table_id == table.pk

    response = client.post(
        reverse("your_data:table_delete", args=[table.edit_token]),
        {"confirm": "on", "matches": "delete"},
    )

    assert response.status_code == 302 and not Table.objects.exists()
    assert Match.objects.filter(pk=semi.match.pk).exists()
    assert bracket(page(client, tournament, "view"))[0] == "T1 – T3 → T1"


def test_a_match_of_no_tournament_is_still_deleted(client):
    from tests.factories import make_match

    match = make_match(hands=1)

    response = client.post(edit("your_data:match_delete", match), {"confirm": "on"})

    assert response.status_code == 302 and not Match.objects.filter(pk=match.pk).exists()


def test_the_semi_finals_result_typed_by_hand_after_the_final_was_drawn_is_refused(client):
    """The same rule for the organiser as for the table."""
    tournament = final_drawn()
    semi = semi_final(1)
    url = reverse("tournaments:tournament_result", args=[tournament.edit_token, semi.number])

    response = client.post(url, {"total_0": "300", "total_1": "-101", "reason": "yanlış"})

    assert response.status_code == 400 and ALREADY_USED in response.content.decode()
    assert not ManualResult.objects.exists()
    assert bracket(page(client, tournament, "view"))[0] == "T1 – T3 → T1"


def test_forget_unused_spares_the_matches_of_a_kept_tournament(client):
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    tournament = make_tournament(entrants=2, drawn=True)
    game = Game.objects.select_related("match").get()
    win(game, 0)
    Match.objects.update(touched_at=timezone.now() - timedelta(days=400))

    call_command("forget_unused", no_vacuum=True, stdout=None)

    assert Match.objects.filter(pk=game.match.pk).exists()
    assert standings_rows(page(client, tournament, "view"))[0][0] == "T1"


# --- The organiser's result by hand when another one came first ---------------------------


def test_a_second_organiser_is_told_the_result_already_entered_and_what_it_is(client):
    tournament = make_tournament(entrants=2, drawn=True)
    game = Game.objects.get()
    url = reverse("tournaments:tournament_result", args=[tournament.edit_token, game.number])
    seen = client.get(url).content.decode()
    shown = re.search(r'name="entered" value="(\d+)"', seen)
    entered = shown.group(1) if shown else "0"  # what the page holds (0 for none)

    first = client.post(
        url, {"total_0": "-101", "total_1": "250", "reason": "kâğıt", "entered": entered}
    )
    second = client.post(
        url, {"total_0": "300", "total_1": "-50", "reason": "başka", "entered": entered}
    )

    assert first.status_code == 302
    said = second.content.decode()
    assert second.status_code == 409
    assert "siz bu sayfayı açtıktan sonra elle girildi: T1 \u2212101 · T2 250" in said
    game.refresh_from_db()
    assert game.totals == [-101, 250] and ManualResult.objects.count() == 1
    assert 'name="entered" value="1"' in said  # the page as it is now: its next try counts


def test_a_result_form_claiming_more_results_than_were_entered_changes_nothing(client):
    tournament = make_tournament(entrants=2, drawn=True)
    game = Game.objects.get()
    url = reverse("tournaments:tournament_result", args=[tournament.edit_token, game.number])

    response = client.post(url, {"total_0": "1", "total_1": "2", "reason": "r", "entered": "7"})

    assert response.status_code == 400 and "hiçbir şey yapılmadı" in response.content.decode()
    assert not ManualResult.objects.exists()


# --- Entrants ---------------------------------------------------------------------------------


def test_a_repeated_team_name_is_refused_as_a_teams_not_a_players(client):
    tournament = make_tournament(entrants=2)
    url = reverse("tournaments:tournament_entrants", args=[tournament.edit_token])

    response = client.post(url, {"entries": "T1: Zeki, Yusuf"})

    said = response.content.decode()
    assert response.status_code == 400
    assert "1. satır: bu takım adı listede zaten var" in said
    assert Entrant.objects.filter(tournament=tournament).count() == 2


def test_entrants_repeating_a_name_added_since_the_form_was_checked_are_refused(client):
    """The check under the lock (what a double tap on "Ekle" meets; its race is
    tests/web/tournaments/test_organiser_races.py): a form checked against an older list."""
    from cetele.tournaments import play

    tournament = make_tournament(entrants=2)
    play.add_entrants(tournament, [("T9", ("Zeki", "Yusuf"))])

    with pytest.raises(play.Refused):
        play.add_entrants(tournament, [("T9", ("Zeki", "Yusuf"))])

    assert Entrant.objects.filter(tournament=tournament).count() == 3


# --- The live page after a change it shows ----------------------------------------------------


def live_poll(client, tournament: Tournament, version: str):
    url = reverse("tournaments:view_tournament_poll", args=[tournament.view_token])
    return client.get(url, {"v": version})


def shown_version(html: str) -> str:
    return re.search(r'data-live-version="([^"]+)"', html).group(1)


def test_a_games_rotated_view_link_is_the_one_the_live_page_links_at_once(client):
    """The view page's live part is a kept drawing: a game's view link rotated since it was
    drawn must not be linked by it, neither on a page opened now nor in the open pages' poll."""
    tournament = make_tournament(entrants=2, drawn=True)
    match = Game.objects.select_related("match").get().match
    retired = reverse("sharing:view_match", args=[match.view_token])
    before = page(client, tournament, "view")

    rotated = client.post(
        reverse("sharing:match_rotate", args=[match.edit_token]), {"kind": "view", "confirm": "on"}
    )
    match.refresh_from_db()
    opened = page(client, tournament, "view")
    polled = live_poll(client, tournament, shown_version(before))

    new = reverse("sharing:view_match", args=[match.view_token])
    assert rotated.status_code == 302 and retired in before
    assert new in opened and retired not in opened
    assert polled.status_code == 200 and new in polled.content.decode()


def swapped_in(page_html: str, live_html: str) -> str:
    """The page after htmx swapped the poll's answer in place of its live part (outerHTML)."""
    start = page_html.index('<section id="live"')
    depth, at = 0, start
    for tag in re.finditer(r"<section\b|</section>", page_html[start:]):
        depth += 1 if tag.group(0) == "<section" else -1
        if depth == 0:
            at = start + tag.end()
            break
    return page_html[:start] + live_html + page_html[at:]


def game_item(html: str, number: int) -> str:
    return re.search(rf'<li data-game="{number}">(.*?)</li>', html, re.S).group(1)


def test_a_game_that_ends_while_the_live_page_is_open_is_listed_with_its_result(client):
    """The café's page stays open: its poll brings the standings that count a game just
    finished, and the list of games beside them must not keep it at "0/1 el"."""
    tournament = make_tournament(entrants=2, drawn=True)
    game = Game.objects.select_related("match").get()
    opened = page(client, tournament, "view")

    win(game, 0)  # T1 goes out: −101, T2 212
    polled = live_poll(client, tournament, shown_version(opened))
    now = swapped_in(opened, polled.content.decode())

    assert "0/1 el" in game_item(opened, game.number)
    assert polled.status_code == 200
    assert standings_rows(now)[0] == ("T1", "313", "2")
    item = game_item(now, game.number)
    assert "0/1 el" not in item and "T1 \u2212101" in " ".join(item.split())


def test_a_frozen_games_scorer_is_told_before_tapping_and_other_matches_are_not(client):
    final_drawn()
    frozen_note = "Bu oyunun sonucu turnuvanın sonraki kurasında kullanıldı"

    semi = client.get(edit("matches:match_detail", semi_final(1).match)).content.decode()
    final = client.get(edit("matches:match_detail", final_game().match)).content.decode()

    assert frozen_note in semi
    assert frozen_note not in final  # no draw comes after the final: it may still change
