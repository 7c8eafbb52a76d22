"""Tables (masa) and rematches through the test client: setting up a table, starting matches at
it, "Rövanş", the table's page with its statistics, and its query count."""

import re
from datetime import datetime
from urllib.parse import parse_qs, urlparse
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import scoring
from cetele.models import Hand, Match, Player, Table, TablePlayer
from cetele.tables.season import MAX_TABLE_PLAYERS, choose_season, load_table, rematch
from tests.factories import add_hand, make_match, sample_inputs
from tests.web.phones import sent_back

pytestmark = pytest.mark.django_db


def table_with(names=("Ali", "Ayşe", "Can", "Deniz")) -> Table:
    table = Table.objects.create(name="Cuma")
    TablePlayer.objects.bulk_create(
        TablePlayer(table=table, place=place, name=name) for place, name in enumerate(names)
    )
    return table


def start_at(table: Table, places: list[int], *, planned_hands: int = 2, teams=False) -> Match:
    names = dict(table.players.values_list("place", "name"))
    rules = scoring.resolve_rules("cetele-standart")
    return Match.start(
        [names[place] for place in places],
        teams=teams,
        planned_hands=planned_hands,
        rules=rules,
        preset_slug="cetele-standart",
        base_rules=rules,
        table=table,
        places=places,
    )


def play(match: Match, finishers: list[int]) -> Match:
    seats = match.players.count()
    for index, finisher in enumerate(finishers):
        add_hand(match, sample_inputs(seats, finisher=finisher, remaining=10 + index))
    return match


def seating(match: Match) -> list[tuple[str, int | None]]:
    return list(match.players.values_list("name", "table_place"))


# --- Setting up a table -----------------------------------------------------------------------


def test_a_new_table_gets_its_players_in_order_and_unguessable_links(client):
    data = {"name": "Cuma masası", "player_1": "Ali", "player_2": "Ayşe", "player_3": " Can "}

    response = client.post(reverse("tables:table_create"), data)

    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("tables:table_detail", args=[table.edit_token])
    assert list(table.players.values_list("place", "name")) == [(0, "Ali"), (1, "Ayşe"), (2, "Can")]
    assert len(table.edit_token) >= 43 and table.edit_token != table.view_token


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "Cuma", "player_1": "Ali"}, "Bu alan zorunludur"),
        ({"name": "Cuma", "player_1": "Ali", "player_2": "ali"}, "aynı adla iki oyuncu"),
        ({"name": "", "player_1": "Ali", "player_2": "Ayşe"}, "Bu alan zorunludur"),
        ({"name": "x" * 61, "player_1": "Ali", "player_2": "Ayşe"}, "en fazla 60"),
    ],
)
def test_a_bad_table_is_refused_with_a_message_and_nothing_saved(client, data, message):
    response = client.post(reverse("tables:table_create"), data)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Table.objects.exists()


def test_a_match_sets_up_a_table_with_its_players_and_joins_it(client):
    match = make_match(players=3, hands=1)

    page = client.get(reverse("tables:match_table", args=[match.edit_token]))
    response = client.post(
        reverse("tables:match_table", args=[match.edit_token]), {"name": "Pazar"}
    )
    again = client.post(reverse("tables:match_table", args=[match.edit_token]), {"name": "Başka"})

    table = Table.objects.get()
    assert page.status_code == 200 and "Masayı kur" in page.content.decode()
    assert (
        response["Location"]
        == again["Location"]
        == reverse("tables:table_detail", args=[table.edit_token])
    )
    assert table.name == "Pazar"
    assert list(table.players.values_list("name", flat=True)) == ["Ali", "Ayşe", "Can"]
    match.refresh_from_db()
    assert match.table == table
    assert seating(match) == [("Ali", 0), ("Ayşe", 1), ("Can", 2)]
    # Once at a table, the match's "Masa" link leads there.
    follow = client.get(reverse("tables:match_table", args=[match.edit_token]))
    assert follow["Location"] == reverse("tables:table_detail", args=[table.edit_token])


def test_the_match_page_links_to_its_table(client):
    match = make_match()

    html = client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()

    assert reverse("tables:match_table", args=[match.edit_token]) in html


# --- Starting a match at a table --------------------------------------------------------------


def test_a_match_at_a_table_seats_its_players_by_place(client):
    table = table_with(("Ali", "Ayşe", "Can", "Deniz", "Ece"))
    data = {
        "name_1": "4",
        "name_2": "0",
        "name_3": "2",
        "name_4": "",
        "preset": "om-klasik",
        "cezali": "1",
        "planned_hands": "3",
    }

    response = client.post(reverse("tables:table_match", args=[table.edit_token]), data)

    match = Match.objects.get()
    assert response["Location"] == reverse("matches:match_detail", args=[match.edit_token])
    assert match.table == table
    assert seating(match) == [("Ece", 4), ("Ali", 0), ("Can", 2)]
    assert match.preset_slug == "om-klasik" and match.planned_hands == 3


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (["0", "0", "", ""], "iki yerde"),
        (["0", "", "", ""], "Bu alan zorunludur"),
        (["0", "1", "", "2"], "3. oyuncu"),
        (["0", "9", "", ""], "9 mevcut seçeneklerden biri değil"),
    ],
)
def test_a_bad_seating_is_refused_and_starts_nothing(client, seats, message):
    table = table_with()
    data = {f"name_{n}": place for n, place in enumerate(seats, start=1)}
    data.update(preset="cetele-standart", cezali="1", planned_hands="5")

    response = client.post(reverse("tables:table_match", args=[table.edit_token]), data)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_the_next_match_at_a_table_starts_from_the_last_one_moved_on_by_one_seat(client):
    table = table_with()
    start_at(table, [0, 1, 2, 3], planned_hands=7)

    form = client.get(reverse("tables:table_match", args=[table.edit_token])).context["form"]

    seats = [form.initial[f"name_{n}"] for n in range(1, 5)]
    assert seats == ["3", "0", "1", "2"]
    assert form.initial["planned_hands"] == 7 and form.initial["preset"] == "cetele-standart"


def test_only_a_table_that_played_says_its_places_moved_on_from_the_last_match(client):
    table = table_with()
    url = reverse("tables:table_match", args=[table.edit_token])
    moved = "Masanın son maçına göre herkes bir yer kaydırıldı."

    first = client.get(url).content.decode()
    start_at(table, [0, 1, 2, 3], planned_hands=7)
    next_one = client.get(url).content.decode()

    assert moved not in first and "Boş bıraktığınız yer oyuna katılmaz." in first
    assert moved in next_one


# --- Rematch ----------------------------------------------------------------------------------


def test_a_rematch_keeps_players_and_frozen_rules_and_moves_every_seat_on_by_one(client):
    table = table_with()
    match = play(start_at(table, [0, 1, 2, 3], planned_hands=2), [0, 1])
    Match.objects.filter(pk=match.pk).update(rules={**match.rules, "pair_opener_multiplier": 3})
    match.refresh_from_db()

    response = client.post(reverse("tables:match_rematch", args=[match.edit_token]))

    new = Match.objects.exclude(pk=match.pk).get()
    assert response["Location"] == reverse("matches:match_detail", args=[new.edit_token])
    assert seating(new) == [("Deniz", 3), ("Ali", 0), ("Ayşe", 1), ("Can", 2)]
    assert new.rules == match.rules  # the match's own rules, adjustments included
    assert (new.planned_hands, new.teams, new.table, new.rematch_of) == (2, False, table, match)
    assert new.hands.count() == 0


def test_a_rematch_of_a_team_match_keeps_partners_together():
    match = play(make_match(teams=True, planned_hands=1), [0])

    new = rematch(match)

    names = [player.name for player in new.players.all()]
    assert names == ["Deniz", "Ali", "Ayşe", "Can"]
    assert {names[0], names[2]} == {"Deniz", "Ayşe"}  # partners before: Ayşe & Deniz


def test_a_double_tap_on_rematch_starts_one_match(client):
    match = make_match(planned_hands=1, hands=1)
    url = reverse("tables:match_rematch", args=[match.edit_token])

    first, second = client.post(url), client.post(url)

    assert Match.objects.count() == 2
    assert first["Location"] == second["Location"]


def test_no_rematch_before_the_match_is_finished(client):
    match = make_match(planned_hands=3, hands=2)

    response = client.post(reverse("tables:match_rematch", args=[match.edit_token]), follow=True)

    assert Match.objects.count() == 1
    assert "maç bitince" in response.content.decode()


def test_rematch_is_post_only(client):
    match = make_match(planned_hands=1, hands=1)

    assert client.get(reverse("tables:match_rematch", args=[match.edit_token])).status_code == 405
    assert Match.objects.count() == 1


def test_a_match_outside_any_table_rematches_outside_too():
    match = make_match(players=2, planned_hands=1, hands=1)

    new = rematch(match)

    assert new.table is None
    assert seating(new) == [("Ayşe", None), ("Ali", None)]


# --- The table's page -------------------------------------------------------------------------


def test_the_table_page_shows_matches_standings_and_player_statistics(client):
    table = table_with(("Ali", "Ayşe", "Can", "Deniz", "Ece"))
    first = play(start_at(table, [0, 1, 2, 3]), [0, 0])
    second = play(start_at(table, [3, 0, 1, 2]), [2, 2])
    start_at(table, [0, 4], planned_hands=3)  # still going, no hands yet
    record = load_table(table)

    response = client.get(reverse("tables:table_detail", args=[table.edit_token]))

    html = response.content.decode()
    assert response.status_code == 200
    for match in (first, second):
        assert reverse("matches:match_detail", args=[match.edit_token]) in html
    assert "sürüyor: 0 / 3 el" in html
    standings = re.search(r'<table class="sheet stats" id="standings">.*?</table>', html, re.S)
    names = re.findall(r'<th scope="row">(.*?)</th>', standings.group(0))
    assert names == [standing.record.name for standing in record.stats.standings]
    assert "Ece" not in names  # has not finished a match yet
    assert "Sezon sıralaması" in html and "Karşı karşıya" in html
    assert "Yeni maç" in html


def test_the_table_page_counts_wins_as_the_sheets_decide(client):
    table = table_with(("Ali", "Ayşe"))
    won_by_ali = play(start_at(table, [0, 1], planned_hands=2), [0, 0])
    won_by_ali_again = play(start_at(table, [1, 0], planned_hands=1), [1])

    record = load_table(table)

    ali, ayse = record.stats.records
    assert (ali.played, ali.won, ayse.won) == (2, 2, 0)
    assert record.matches[0].match == won_by_ali_again and record.matches[1].match == won_by_ali
    assert record.matches[0].played.winner_places == (0,)


def test_the_standings_go_to_whatsapp_as_a_plain_link_with_the_view_link(client):
    table = table_with(("Ali", "Ayşe"))
    play(start_at(table, [0, 1], planned_hands=1), [1])

    html = client.get(reverse("tables:table_detail", args=[table.edit_token])).content.decode()

    link = re.search(r'href="(https://wa\.me/\?text=[^"]+)"', html).group(1)
    text = parse_qs(urlparse(link.replace("&amp;", "&")).query)["text"][0]
    view_url = "http://testserver" + reverse("tables:view_table", args=[table.view_token])
    assert text.splitlines() == [
        "Cuma: 1 maç bitti",
        "1. Ayşe: 1 galibiyet / 1 maç",
        "2. Ali: 0 galibiyet / 1 maç",
        f"Masanın sayfası: {view_url}",
    ]


def test_the_match_share_page_has_a_whatsapp_link_beside_the_share_button(client):
    match = make_match(hands=1)

    html = client.get(reverse("sharing:match_share", args=[match.edit_token])).content.decode()

    link = re.search(r'href="(https://wa\.me/\?text=[^"]+)"', html).group(1)
    text = parse_qs(urlparse(link.replace("&amp;", "&")).query)["text"][0]
    assert "1 / 13 el oynandı" in text
    assert reverse("sharing:view_match", args=[match.view_token]) in text


def test_renaming_a_table_player_keeps_their_record_and_newcomers_join(client):
    table = table_with(("Ali", "Ayşe"))
    play(start_at(table, [0, 1], planned_hands=1), [0])
    data = {"place_0": "Ali Rıza", "place_1": "Ayşe", "new_0": "Can", "new_1": ""}

    response = client.post(reverse("tables:table_players", args=[table.edit_token]), data)

    assert response.status_code == 302
    assert list(table.players.values_list("place", "name")) == [
        (0, "Ali Rıza"),
        (1, "Ayşe"),
        (2, "Can"),
    ]
    winner = load_table(table).stats.standings[0].record
    assert (winner.name, winner.won) == ("Ali Rıza", 1)


def test_two_table_players_may_not_share_a_name(client):
    table = table_with(("Ali", "Ayşe"))

    response = client.post(
        reverse("tables:table_players", args=[table.edit_token]),
        {"place_0": "Ali", "place_1": "Ayşe", "new_0": "AYŞE"},
    )

    assert response.status_code == 200
    assert table.players.count() == 2


def test_a_page_drawn_before_a_rename_adds_its_newcomer_without_undoing_the_rename(client):
    table = table_with(("Ali", "Ayşe"))
    url = reverse("tables:table_players", args=[table.edit_token])
    form = sent_back(client.get(url).content.decode())
    client.post(url, form | {"place_0": "Ali Rıza"})  # another phone renames meanwhile

    response = client.post(url, form | {"new_0": "Can"})

    assert response.status_code == 302
    assert list(table.players.values_list("name", flat=True)) == ["Ali Rıza", "Ayşe", "Can"]


def test_a_newcomer_past_the_last_place_is_refused_with_a_sentence_not_dropped(client):
    table = table_with([f"Oyuncu {n}" for n in range(MAX_TABLE_PLAYERS - 1)])
    url = reverse("tables:table_players", args=[table.edit_token])
    form = sent_back(client.get(url).content.decode())
    client.post(url, form | {"new_0": "Can"})  # another phone takes the last place

    response = client.post(url, form | {"new_0": "Cem"})

    assert "Masada en çok 8 oyuncu olabilir." in response.content.decode()
    assert table.players.count() == MAX_TABLE_PLAYERS
    assert not table.players.filter(name="Cem").exists()


# --- Query count: the table's page does not grow with its matches -----------------------------


def fill_table(table: Table, matches: int) -> None:
    """`matches` finished 4-hand matches, saved in bulk (the page is measured, not the saves)."""
    rules = scoring.resolve_rules("cetele-standart")
    made = Match.objects.bulk_create(
        Match(teams=False, planned_hands=4, rules=rules, base_rules=rules, table=table)
        for _ in range(matches)
    )
    Player.objects.bulk_create(
        Player(match=match, seat=seat, name=f"P{seat}", table_place=(seat + index) % 4)
        for index, match in enumerate(made)
        for seat in range(4)
    )
    results = [
        scoring.score_json({"rules": rules, "teams": False, "hand": sample_inputs(4, finisher=f)})
        for f in range(4)
    ]
    Hand.objects.bulk_create(
        Hand(
            match=match,
            number=number,
            inputs=sample_inputs(4, finisher=number - 1),
            result=results[number - 1],
        )
        for match in made
        for number in range(1, 5)
    )


@pytest.mark.parametrize("matches", [1, 10, 100])
def test_table_page_queries_do_not_grow_with_matches(client, matches):
    table = table_with()
    fill_table(table, matches)

    with CaptureQueriesContext(connection) as edit_page:
        edit = client.get(reverse("tables:table_detail", args=[table.edit_token]))
    with CaptureQueriesContext(connection) as view_page:
        view = client.get(reverse("tables:view_table", args=[table.view_token]))

    assert edit.status_code == view.status_code == 200
    assert len(edit.context["record"].matches) == matches
    # The table, its seasons, its players, its matches, their seats, their hands; the tea
    # tally of its latest match: the table's items and the match's drinks (cetele.tea); the
    # live part's version (cetele.tables.live).
    assert len(edit_page) == len(view_page) == 9
    assert sum(r.played for r in edit.context["stats"].records) == 4 * matches


def test_the_table_page_and_the_summary_follow_the_language_cookie(client, settings):
    table = table_with(("Ali", "Ayşe"))
    match = play(start_at(table, [0, 1], planned_hands=1), [1])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    table_page = client.get(
        reverse("tables:table_detail", args=[table.edit_token])
    ).content.decode()
    match_page = client.get(
        reverse("matches:match_detail", args=[match.edit_token])
    ).content.decode()

    assert "Season standings" in table_page and "Head to head" in table_page
    assert "1. Ayşe: 1 won / 1 played" in table_page
    assert "Match summary" in match_page and "Rematch" in match_page
    assert "Totals hand by hand" in match_page
    assert "Sezon sıralaması" not in table_page and "Maçın özeti" not in match_page


def test_the_match_list_names_the_rules_as_the_preset_list_does_in_the_pages_language(client):
    table = table_with(("Ali", "Ayşe"))
    start_at(table, [0, 1])
    url = reverse("tables:table_detail", args=[table.edit_token])

    turkish = client.get(url).content.decode()
    client.cookies["django_language"] = "en"
    english = client.get(url).content.decode()

    assert "· Çetele Standart" in turkish
    assert "· Çetele Standard" in english


def test_setting_up_a_table_from_a_rematch_takes_the_whole_chain_with_everyone_in_place(client):
    first = play(make_match(planned_hands=1), [0])
    second = play(rematch(first), [1])
    third = rematch(second)
    second.players.filter(seat=1).update(name="Ali K.")  # renamed in one match only

    client.post(reverse("tables:match_table", args=[second.edit_token]), {"name": "Pazar"})

    table = Table.objects.get()
    assert set(table.matches.all()) == {first, second, third}
    # Seats moved on by one each rematch; places follow the person, whatever the spelling.
    assert seating(first) == [("Ali", 1), ("Ayşe", 2), ("Can", 3), ("Deniz", 0)]
    assert seating(second) == [("Deniz", 0), ("Ali K.", 1), ("Ayşe", 2), ("Can", 3)]
    assert seating(third) == [("Can", 3), ("Deniz", 0), ("Ali", 1), ("Ayşe", 2)]
    assert list(table.players.values_list("name", flat=True)) == ["Deniz", "Ali K.", "Ayşe", "Can"]


# --- Seasons ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("asked", "years", "season"),
    [
        (None, [2026], None),  # one season: everything
        ("2026", [2026], None),
        (None, [2026, 2025], 2026),  # several: the latest
        ("2025", [2026, 2025], 2025),
        ("tumu", [2026, 2025], None),
        ("1999", [2026, 2025], 2026),  # not played then
        ("20x6", [2026, 2025], 2026),
        ("²⁰²⁵", [2026, 2025], 2026),
        ("9" * 5000, [2026, 2025], 2026),
        ("", [], None),
    ],
)
def test_the_season_shown_is_the_one_asked_for_if_the_table_played_in_it(asked, years, season):
    assert choose_season(asked, years) == season


def in_year(match: Match, year: int) -> Match:
    started = datetime(year, 6, 1, 20, 0, tzinfo=ZoneInfo("Europe/Istanbul"))
    Match.objects.filter(pk=match.pk).update(created_at=started)
    return match


def test_the_table_page_opens_on_the_latest_season_and_offers_the_others(client):
    table = table_with(("Ali", "Ayşe"))
    in_year(play(start_at(table, [0, 1], planned_hands=1), [0]), 2025)
    in_year(play(start_at(table, [0, 1], planned_hands=1), [0]), 2025)
    in_year(play(start_at(table, [1, 0], planned_hands=1), [0]), 2026)  # Ayşe wins
    url = reverse("tables:view_table", args=[table.view_token])

    latest = client.get(url)
    earlier = client.get(url, {"sezon": "2025"})
    every = client.get(url, {"sezon": "tumu"})
    nonsense = client.get(url, {"sezon": "<script>"})

    def wins(response):
        return {r.name: r.won for r in response.context["stats"].records}

    assert wins(latest) == {"Ali": 0, "Ayşe": 1}
    assert wins(earlier) == {"Ali": 2, "Ayşe": 0}
    assert wins(every) == {"Ali": 2, "Ayşe": 1}
    assert wins(nonsense) == wins(latest) and nonsense.status_code == 200
    assert len(latest.context["record"].matches) == 1
    assert len(every.context["record"].matches) == 3
    html = latest.content.decode()
    assert "2026 sezonu sıralaması" in html
    assert 'href="?sezon=2025"' in html and 'href="?sezon=tumu"' in html
    assert "Cuma (2026): 1 maç bitti" in html


def test_a_table_of_one_season_shows_no_season_choice(client):
    table = table_with(("Ali", "Ayşe"))
    play(start_at(table, [0, 1], planned_hands=1), [0])

    html = client.get(reverse("tables:table_detail", args=[table.edit_token])).content.decode()

    assert "?sezon=" not in html and "Sezon sıralaması" in html
