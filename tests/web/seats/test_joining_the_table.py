"""The join link ("Masaya katıl", cetele.seats): a phone picks its name, writes its own row of
the hand being entered, and the scorer sees it and saves."""

import html
import json
import logging
import re

import pytest
from django.test import Client
from django.urls import reverse

from cetele.live.schedule import POLL_SCHEDULE, ROWS_EVERY, quiet_seconds
from cetele.models import Hand, Match, RetiredLink
from cetele.seats.claims import CLAIMS_COOKIE
from cetele.seats.models import DraftRow, SeatClaim
from cetele.shell.logs import redact
from tests.factories import add_hand, form_data, make_match, sample_inputs
from tests.web.phones import edit, join, joined_phone

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def wrote(name: str, rows: str) -> str:
    """What the rows' list says a phone wrote for `name` ("Seri · 36"), "" if nothing: the
    name once, then its row ("✓ Ayşe: Seri · 36")."""
    found = re.search(
        rf"{name}</strong>(?:<span class=\"own-mark\">[^<]*</span>)?:\s*(.*?)\s*</li>", rows, re.S
    )
    return " ".join(found[1].split()) if found else ""


def row_data(position: int, **values) -> dict:
    data = {
        "position": str(position),
        "row-opened": values.get("opened", "series"),
        "row-okeys": str(values.get("okeys", 0)),
        "row-fake_okeys": str(values.get("fake_okeys", 0)),
    }
    if values.get("remaining") is not None:
        data["row-remaining"] = str(values["remaining"])
    if values.get("finished"):
        data["finished"] = "on"
    return data


def rows_seen_by(client, match: Match) -> str:
    """The rows the scorer's page shows in its rows' section, which seats.js copies into the
    hand form for its save to name (cetele.seats.drafts.rows_seen)."""
    section = client.get(edit("seats:seat_rows", match), headers=HTMX).content.decode()
    return html.unescape(re.search(r'data-rows-seen="([^"]*)"', section)[1])


@pytest.fixture
def match() -> Match:
    match = make_match(hands=2)
    match.refresh_from_db()
    return match


# --- The link -------------------------------------------------------------------------------------


def test_every_match_has_its_own_join_token_unlike_its_other_links(match):
    other = make_match()

    assert len(match.join_token) >= 43
    assert match.join_token not in (match.edit_token, match.view_token)
    assert match.join_token != other.join_token


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_existing_match_its_own_join_token():
    # One AddField with a callable default would give every old match the same token.
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    before = [("cetele", "0011_redo_and_rescore")]
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps.get_model("cetele", "Match")
        for index in range(3):
            old.objects.create(
                planned_hands=5, rules={}, edit_token=f"e{index:030d}", view_token=f"v{index:030d}"
            )
        executor.loader.build_graph()
        executor.migrate([("cetele", "0012_join_link")])
        tokens = list(Match.objects.values_list("join_token", flat=True))
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert len(tokens) == 3 and len(set(tokens)) == 3
    assert all(len(token) >= 43 for token in tokens)


def test_the_share_page_shows_the_join_link_with_its_qr_code(client, match):
    page = client.get(edit("sharing:match_share", match)).content.decode()

    assert "Masaya katıl" in page
    assert f"/k/{match.join_token}/" in page
    assert page.count("<svg") >= 2  # the view link's QR code and the join link's


def test_join_pages_are_kept_out_of_caches_and_search_engines(client, match):
    phone = joined_phone(match, 1)
    for url in (
        join("seats:join_match", match),
        join("seats:join_rows", match),
        join("matches:join_rules", match),
    ):
        response = phone.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url
        assert response["X-Robots-Tag"] == "noindex, nofollow", url
    missing = client.get(f"/k/{'x' * 43}/")
    assert missing.status_code == 404 and missing["X-Robots-Tag"] == "noindex, nofollow"


def test_a_join_key_in_a_logged_path_is_redacted(match):
    assert match.join_token not in redact(f"Not Found: /k/{match.join_token}/satir/")


def test_unknown_join_links_lock_no_phone_out_of_a_valid_one(client, match):
    """At a table a fresh phone opened a new match's "Masaya katıl" after misses from the café's
    address and got 429: a miss is the plain 404, and a valid join link always opens."""
    for _ in range(40):
        assert client.get(f"/k/{'a' * 43}/").status_code == 404
    assert client.get(f"/k/{'b' * 43}/").status_code == 404
    assert Client().get(f"/k/{match.join_token}/").status_code == 200


def test_no_join_page_holds_the_edit_or_the_view_token(match):
    phone = joined_phone(match, 1)
    number = match.hands.first().number
    urls = [
        join("seats:join_match", match),
        join("seats:join_rows", match),
        join("matches:join_rules", match),
        join("sharing:join_hand", match, number),
        join("sharing:join_poll", match) + "?v=0",
        join("sharing:join_export_csv", match),
        join("sharing:join_export_json", match),
    ]
    for url in urls:
        body = phone.get(url).content.decode()
        assert match.edit_token not in body and match.view_token not in body, url
    picking = Client().get(join("seats:join_match", match)).content.decode()
    assert match.edit_token not in picking and match.view_token not in picking


# --- Taking a seat --------------------------------------------------------------------------------


def test_a_phone_picks_its_name_and_is_that_players_phone_after_a_reload(match):
    phone = Client()
    picking = phone.get(join("seats:join_match", match)).content.decode()
    assert "Adınızı seçin" in picking and "Ayşe" in picking

    response = phone.post(join("seats:join_match", match), {"seat": "1"}, follow=True)

    page = response.content.decode()
    assert "Hoş geldiniz, Ayşe." in page and "3. el: satırınız" in page
    assert page.count("olarak yazıyorsunuz") == 1  # said once, under the greeting
    again = phone.get(join("seats:join_match", match)).content.decode()
    assert "3. el: satırınız" in again
    claim = SeatClaim.objects.get(match=match)
    assert claim.seat == 1
    cookie = phone.cookies[CLAIMS_COOKIE].value
    assert claim.key in cookie and cookie != claim.key  # signed


def test_the_cookie_holds_a_random_key_not_the_seat_and_a_forged_one_opens_nothing(match):
    joined_phone(match, 1)
    forger = Client()
    forger.cookies[CLAIMS_COOKIE] = "1"
    assert "Adınızı seçin" in forger.get(join("seats:join_match", match)).content.decode()
    response = forger.post(join("seats:join_row", match), row_data(3, remaining=20))
    assert response.status_code == 302 and not DraftRow.objects.exists()


def test_a_second_phone_asking_for_a_taken_seat_is_told_in_a_sentence(match):
    joined_phone(match, 1)
    second = Client()

    response = second.post(join("seats:join_match", match), {"seat": "1"})

    assert response.status_code == 409
    page = response.content.decode()
    assert "Bu adı başka bir telefon seçti: Ayşe." in page and "o telefonu çıkarabilir" in page
    assert SeatClaim.objects.count() == 1
    assert second.post(join("seats:join_match", match), {"seat": "2"}).status_code == 302


def test_two_phones_claiming_one_seat_at_once_one_wins_the_other_gets_a_sentence(match):
    # The view makes no check before the insert: the database's unique constraint decides
    # whichever phone comes second, at once or later. Here the winner's row lands between the
    # loser's page being drawn (seat free) and its tap.
    loser = Client()
    assert "Ayşe (telefonu var)" not in loser.get(join("seats:join_match", match)).content.decode()
    joined_phone(match, 1)

    response = loser.post(join("seats:join_match", match), {"seat": "1"})

    assert response.status_code == 409
    assert "Bu adı başka bir telefon seçti: Ayşe." in response.content.decode()
    assert SeatClaim.objects.filter(match=match, seat=1).count() == 1


def test_picking_nothing_or_a_seat_not_at_the_match_changes_nothing(match):
    for data in ({}, {"seat": "7"}, {"seat": "x"}):
        response = Client().post(join("seats:join_match", match), data)
        assert response.status_code == 400
        assert "Listeden adınızı seçin." in response.content.decode()
    assert not SeatClaim.objects.exists()


def test_the_scorer_frees_a_seat_and_another_phone_takes_it(client, match):
    first = joined_phone(match, 1)
    share = client.get(edit("sharing:match_share", match)).content.decode()
    assert "Telefonu çıkar" in share

    response = client.post(edit("seats:seat_free", match), {"seat": "1"}, follow=True)

    assert "bu adı artık başka bir telefon seçebilir: Ayşe." in response.content.decode()
    assert "Adınızı seçin" in first.get(join("seats:join_match", match)).content.decode()
    joined_phone(match, 1)


def test_a_freed_seat_forgets_the_row_its_phone_wrote(client, match):
    """An impostor's "Bitirdim" must not stay on the scorer's rows once the real player has
    taken the seat."""
    not_written = "Ayşe</strong> henüz yazmadı"
    impostor = joined_phone(match, 1)
    impostor.post(join("seats:join_row", match), row_data(3, opened="pairs", finished=True))
    assert not_written not in rows_poll(client, edit("seats:seat_rows", match))[1]

    client.post(edit("seats:seat_free", match), {"seat": "1"})
    joined_phone(match, 1)

    assert not_written in rows_poll(client, edit("seats:seat_rows", match))[1]


def test_rotating_the_join_link_lets_every_phone_go(client, match):
    phone = joined_phone(match, 1)
    phone.post(join("seats:join_row", match), row_data(3, remaining=12))
    old = match.join_token

    refused = client.post(edit("seats:join_rotate", match), {})
    assert refused.status_code == 302
    match.refresh_from_db()
    assert match.join_token == old  # no tick, no change

    client.post(edit("seats:join_rotate", match), {"confirm": "on"})

    match.refresh_from_db()
    assert match.join_token != old
    assert not SeatClaim.objects.exists() and not DraftRow.objects.exists()
    gone = phone.get(f"/k/{old}/")
    assert gone.status_code == 410 and RetiredLink.find(old) is not None


# --- Writing a row --------------------------------------------------------------------------------


def test_a_joined_phone_writes_its_own_row_for_the_open_hand(match):
    phone = joined_phone(match, 1)

    response = phone.post(
        join("seats:join_row", match), row_data(3, remaining=35, okeys=1), headers=HTMX
    )

    assert "Satırınız gönderildi" in response.content.decode()
    row = DraftRow.objects.get()
    assert (row.position, row.seat, row.finished) == (3, 1, False)
    assert row.values["remaining"] == 35 and row.values["okeys"] == 1
    assert row.values["opened"] == "series"
    assert not Hand.objects.filter(match=match, number__gt=2).exists()  # nothing saved


def test_bitirdim_is_kept_and_a_second_write_replaces_the_row(match):
    phone = joined_phone(match, 2)
    phone.post(join("seats:join_row", match), row_data(3, remaining=10))

    phone.post(join("seats:join_row", match), row_data(3, opened="pairs", finished=True))

    row = DraftRow.objects.get()
    assert row.finished and row.values["opened"] == "pairs" and row.values["remaining"] is None


def test_a_row_sent_again_unchanged_is_no_news_for_the_table(client, match):
    phone = joined_phone(match, 1)
    phone.post(join("seats:join_row", match), row_data(3, remaining=35))
    match.refresh_from_db()
    shown = f"{edit('seats:seat_rows', match)}?v={match.version}&d={match.draft_version}&p=3"

    # A phone sends its row as the sum is typed, and once more as the sum's field is left.
    again = phone.post(join("seats:join_row", match), row_data(3, remaining=35), headers=HTMX)

    assert "Satırınız gönderildi" in again.content.decode()
    assert client.get(shown, headers=HTMX).status_code == 204  # the scorer's page: nothing new
    phone.post(join("seats:join_row", match), row_data(3, remaining=36))
    status, rows = rows_poll(client, shown)
    assert status == 200 and wrote("Ayşe", rows) == "Seri · 36"  # a change is news at once


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"remaining": "abc"}, "bir tam sayı yazın"),
        ({"remaining": 999}, "Toplam 0 ile 255 arasında olur."),
        ({"remaining": -4}, "Toplam 0 ile 255 arasında olur."),
        ({"opened": "no", "remaining": 12}, "Açmadıysanız toplam yazılmaz"),
        ({"finished": True, "remaining": 12}, "Bitirdiyseniz elinizde taş kalmaz"),
        ({"opened": "maybe"}, "listeden birini seçin"),
        ({"okeys": 3}, "listeden birini seçin"),
    ],
)
def test_bad_input_gets_a_clear_message_and_changes_nothing(match, values, message):
    phone = joined_phone(match, 1)
    phone.post(join("seats:join_row", match), row_data(3, remaining=7))
    data = row_data(3, **{k: v for k, v in values.items() if k != "remaining"})
    if "remaining" in values:
        data["row-remaining"] = str(values["remaining"])
    before = list(DraftRow.objects.values())

    plain = phone.post(join("seats:join_row", match), data)
    htmx = phone.post(join("seats:join_row", match), data, headers=HTMX)

    assert plain.status_code == 400 and message in plain.content.decode()
    assert htmx.status_code == 200 and message in htmx.content.decode()
    assert list(DraftRow.objects.values()) == before


def test_a_row_without_a_seat_or_with_no_place_writes_nothing(match):
    stranger = Client()
    response = stranger.post(join("seats:join_row", match), row_data(3, remaining=5), headers=HTMX)
    assert "önce adınızı seçin" in response.content.decode()
    phone = joined_phone(match, 1)
    data = row_data(3, remaining=5)
    del data["position"]
    assert phone.post(join("seats:join_row", match), data).status_code == 400
    assert not DraftRow.objects.exists()


def test_a_row_that_arrives_after_the_hand_was_saved_is_not_applied_and_the_player_is_told(
    client, match
):
    phone = joined_phone(match, 1)
    phone.post(join("seats:join_row", match), row_data(3, remaining=20))
    seen = {"rows_seen": rows_seen_by(client, match)}  # the form has shown the row
    saved = client.post(
        edit("matches:hand_create", match), form_data(sample_inputs(), position=3) | seen
    )
    assert saved.status_code == 302
    assert not DraftRow.objects.exists()  # the save cleared the rows for that place

    late = phone.post(join("seats:join_row", match), row_data(3, remaining=44), headers=HTMX)

    page = late.content.decode()
    assert "3. el siz yazarken kaydedildi; bu satır sayılmadı" in page
    assert "4. el: satırınız" in page and late["HX-Retarget"] == "#my-row"
    lost = re.search(r'<p class="message error" role="alert">([^<]*)</p>', page)
    assert lost and "bu satır sayılmadı" in lost[1]  # a row lost is a fault the player must see
    assert not DraftRow.objects.exists()
    plain = phone.post(join("seats:join_row", match), row_data(3, remaining=44), follow=True)
    assert "bu satır sayılmadı" in plain.content.decode()
    assert not DraftRow.objects.exists()


def test_a_row_for_a_finished_match_is_told_so(client):
    match = make_match(hands=1, planned_hands=2)
    phone = joined_phone(match, 1)
    add_hand(match, sample_inputs())

    response = phone.post(join("seats:join_row", match), row_data(2, remaining=3), headers=HTMX)

    assert "maç bitti; bu satır sayılmadı" in response.content.decode()
    assert (
        "Maçın bütün elleri oynandı." in phone.get(join("seats:join_match", match)).content.decode()
    )


# --- The rows, live -------------------------------------------------------------------------------


def rows_poll(client: Client, url: str) -> tuple[int, str]:
    response = client.get(url, headers=HTMX)
    return response.status_code, " ".join(response.content.decode().split())


def own_mark_of(rows: str, seat: int) -> str:
    """The "(siz)" mark the rows' list holds for a seat's row: seats.css shows it on the phone
    whose page names that seat (data-phone-of)."""
    row = re.search(rf'<li data-seat="{seat}".*?</li>', rows, re.S)
    mark = re.search(r'<span class="own-mark">(.*?)</span>', row[0]) if row else None
    return mark[1].strip() if mark else ""


def test_every_joined_phone_gets_the_same_rows_and_its_page_says_whose_phone_it_is(client, match):
    ayse, can = joined_phone(match, 1), joined_phone(match, 2)
    match.refresh_from_db()
    url = f"{join('seats:join_rows', match)}?v={match.version}&d={match.draft_version}&p=3"
    ayse.post(join("seats:join_row", match), row_data(3, remaining=35))

    (_, for_ayse), (_, for_can) = rows_poll(ayse, url), rows_poll(can, url)

    assert for_ayse == for_can and wrote("Ayşe", for_can)
    can_page = can.get(join("seats:join_match", match)).content.decode()
    assert 'data-phone-of="2"' in can_page and own_mark_of(can_page, seat=2) == "(siz)"
    assert 'data-phone-of="1"' in ayse.get(join("seats:join_match", match)).content.decode()


def test_the_rows_drawn_for_the_scorer_are_never_a_joined_phones(client, match):
    """The rows are kept once drawn (cetele.seats.rows): the scorer's, which name the edit link,
    are never given to a joined phone asking for the same state."""
    ayse = joined_phone(match, 1)
    ayse.post(join("seats:join_row", match), row_data(3, remaining=35))
    shown = f"?v={match.version}&d=0&p=3"
    assert rows_poll(client, edit("seats:seat_rows", match) + shown)[0] == 200

    status, rows = rows_poll(ayse, join("seats:join_rows", match) + shown)

    assert status == 200 and wrote("Ayşe", rows)
    assert match.edit_token not in rows and match.view_token not in rows
    assert match.join_token in rows


def test_the_scorer_sees_who_wrote_what_and_who_has_not(client, match):
    ayse = joined_phone(match, 1)
    joined_phone(match, 2)
    ayse.post(join("seats:join_row", match), row_data(3, remaining=35))

    status, rows = rows_poll(client, edit("seats:seat_rows", match))

    assert status == 200
    assert wrote("Ayşe", rows).endswith("35")
    assert "Can</strong> henüz yazmadı" in rows
    assert "Deniz</strong> — telefonu yok" in rows
    assert '"remaining": 35' in rows.replace("&quot;", '"')


def test_the_rows_poll_answers_nothing_changed_until_a_row_or_the_sheet_changes(
    client, match, django_assert_num_queries
):
    ayse = joined_phone(match, 1)
    match.refresh_from_db()
    url = f"{edit('seats:seat_rows', match)}?v={match.version}&d={match.draft_version}&p=3"

    with django_assert_num_queries(1):
        assert client.get(url, headers=HTMX).status_code == 204
    ayse.post(join("seats:join_row", match), row_data(3, remaining=8))
    assert client.get(url, headers=HTMX).status_code == 200
    match.refresh_from_db()
    fresh = f"{edit('seats:seat_rows', match)}?v={match.version}&d={match.draft_version}&p=3"
    assert client.get(fresh, headers=HTMX).status_code == 204
    add_hand(match, sample_inputs())
    assert client.get(fresh, headers=HTMX).status_code == 200


def test_other_joined_phones_see_the_row_and_learn_when_the_hand_is_saved(client, match):
    ayse, can = joined_phone(match, 1), joined_phone(match, 2)
    match.refresh_from_db()
    url = f"{join('seats:join_rows', match)}?v={match.version}&d={match.draft_version}&p=3"
    ayse.post(join("seats:join_row", match), row_data(3, remaining=35))

    status, rows = rows_poll(can, url)
    assert status == 200 and wrote("Ayşe", rows) and own_mark_of(rows, seat=2) == "(siz)"
    add_hand(match, sample_inputs())
    status, rows = rows_poll(can, url)
    assert status == 200
    assert 'id="my-row"' in rows and 'hx-swap-oob="true"' in rows and "4. el: satırınız" in rows
    # News, not a fault: said as a status, never styled or announced as an error.
    told = '<p class="message" role="status">El kaydedildi: şimdi 4. el için satırınızı yazın.</p>'
    assert told in rows and 'role="alert"' not in rows


def test_the_rows_poll_stops_once_the_match_is_over(client):
    match = make_match(hands=1, planned_hands=1)
    assert client.get(edit("seats:seat_rows", match), headers=HTMX).status_code == 286


def test_rows_poll_query_counts_do_not_grow_with_hands(client, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for hands in (1, 40):
        match = make_match(hands=hands, planned_hands=60)
        phone = joined_phone(match, 1)
        phone.post(join("seats:join_row", match), row_data(hands + 1, remaining=3))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(edit("seats:seat_rows", match), headers=HTMX).status_code == 200
        counts.append(len(queries))
        with CaptureQueriesContext(connection) as queries:
            assert phone.get(join("seats:join_match", match)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[2] and counts[1] == counts[3], counts


def test_the_scorers_page_asks_for_the_rows_only_while_a_hand_is_open(client):
    playing = make_match(hands=1, planned_hands=3)
    over = make_match(hands=1, planned_hands=1)

    assert (
        edit("seats:seat_rows", playing)
        in client.get(edit("matches:match_detail", playing)).content.decode()
    )
    assert (
        edit("seats:seat_rows", over)
        not in client.get(edit("matches:match_detail", over)).content.decode()
    )


def test_the_save_clears_the_rows_and_the_phones_rows_count_only_through_the_scorer(client, match):
    ayse = joined_phone(match, 1)
    ayse.post(join("seats:join_row", match), row_data(3, remaining=35))
    inputs = sample_inputs(finisher=0, remaining=35)  # seat 1 opened with 35, as Ayşe wrote
    seen = {"rows_seen": rows_seen_by(client, match)}  # the form has shown her row

    client.post(edit("matches:hand_create", match), form_data(inputs, position=3) | seen)

    hand = match.hands.order_by("-number").first()
    assert hand.inputs["players"][1]["remaining"] == 35
    assert not DraftRow.objects.exists()


def test_logging_a_join_request_carries_no_key(client, match, caplog):
    with caplog.at_level(logging.WARNING):
        client.get(f"/k/{match.join_token}/el/999/")
    assert match.join_token not in caplog.text


def test_a_joined_phone_sees_what_the_view_link_shows_through_its_own_link(match):
    phone = joined_phone(match, 1)
    number = match.hands.first().number
    page = phone.get(join("seats:join_match", match)).content.decode()
    viewer = Client().get(reverse("sharing:view_match", args=[match.view_token])).content.decode()

    assert page.count("<tr data-hand=") == viewer.count("<tr data-hand=") == 2
    assert f"/k/{match.join_token}/el/{number}/" in page
    hand = phone.get(join("sharing:join_hand", match, number))
    assert hand.status_code == 200 and f"/k/{match.join_token}/" in hand.content.decode()
    assert phone.get(join("matches:join_rules", match)).status_code == 200
    for name in ("export_csv", "export_json"):
        mine = phone.get(join(f"sharing:join_{name}", match))
        theirs = Client().get(reverse(f"sharing:view_{name}", args=[match.view_token]))
        assert mine.status_code == 200 and mine.content == theirs.content, name
        assert match.view_token.encode() not in mine.content


def test_the_join_pages_speak_english_with_the_switch(match):
    phone = Client()
    phone.cookies["django_language"] = "en"

    picking = phone.get(join("seats:join_match", match)).content.decode()
    assert "Join the table" in picking and "Pick your name" in picking
    response = phone.post(join("seats:join_match", match), {"seat": "1"}, follow=True)
    assert "You're Ayşe on this phone" in response.content.decode()


def test_a_seat_taken_or_freed_is_news_to_the_scorers_rows_poll(client, match, settings):
    settings.CETELE_ROWS_POLL_SPEEDUP = 1  # the schedule itself, as production has it
    url = f"{edit('seats:seat_rows', match)}?v={match.version}&d={match.draft_version}&p=3"
    assert client.get(url, headers=HTMX).status_code == 204
    quiet = " ".join(
        client.get(edit("seats:seat_rows", match), headers=HTMX).content.decode().split()
    )
    # Nobody joined yet: the page still asks every 4 s, for its first news is often a phone
    # joining and writing at once (not a viewer's 16 s right after a save).
    assert f'hx-trigger="every {ROWS_EVERY}s, cetele:rows-now from:body"' in quiet
    assert "telefonu yok" not in quiet

    phone = joined_phone(match, 1)

    status, rows = rows_poll(client, url)
    assert status == 200 and "Ayşe</strong> henüz yazmadı" in rows
    # The match was touched a moment ago, as right after a save: the scorer's page still asks
    # every 4 s, for a player who finished fast writes at once (not the quiet's 16 s).
    assert quiet_seconds(match.touched_at) < POLL_SCHEDULE[0][0]
    assert f'hx-trigger="every {ROWS_EVERY}s, cetele:rows-now from:body"' in rows
    # The joined phone too: another player's first row reaches it as it reaches the scorer.
    waiting = phone.get(join("seats:join_rows", match), headers=HTMX).content.decode()
    assert f'hx-trigger="every {ROWS_EVERY}s, cetele:rows-now from:body"' in waiting
    phone.post(join("seats:join_row", match), row_data(3, remaining=12))
    for asker, url_name in (
        (client, edit("seats:seat_rows", match)),
        (phone, join("seats:join_rows", match)),
    ):
        writing = asker.get(url_name, headers=HTMX).content.decode()
        # The hand is being written: every tick, whatever the quiet.
        assert f'hx-trigger="every {ROWS_EVERY}s' in writing
    match.refresh_from_db()
    url = f"{edit('seats:seat_rows', match)}?v={match.version}&d={match.draft_version}&p=3"
    client.post(edit("seats:seat_free", match), {"seat": "1"})
    assert client.get(url, headers=HTMX).status_code == 200


def sheet_trigger(page: str) -> str:
    """The live sheet's hx-trigger on a page (match.html#sheet)."""
    return re.search(r'<section id="sheet"[^>]*?hx-trigger="([^"]*)"', page, re.S)[1]


def test_a_page_asking_for_the_rows_asks_for_its_sheet_only_when_they_say_it_changed(client, match):
    """Before: the scorer's page and a joined phone asked twice, for the sheet and the rows."""
    phone = joined_phone(match, 1)
    scorer_page = client.get(edit("matches:match_detail", match)).content.decode()
    joined_page = phone.get(join("seats:join_match", match)).content.decode()
    view_page = Client().get(f"/v/{match.view_token}/").content.decode()
    assert sheet_trigger(scorer_page) == sheet_trigger(joined_page) == "visible-again"
    assert sheet_trigger(view_page) == "every 4s, visible-again"  # a view link has no rows

    url = f"{edit('seats:seat_rows', match)}?v={match.version}&d={match.draft_version}&p=3"
    add_hand(match, sample_inputs(finisher=1, remaining=9))  # saved by another editor
    response = client.get(url, headers=HTMX)
    assert response.status_code == 200
    assert list(json.loads(response["HX-Trigger"])) == ["cetele:poll-now"]
    answer = client.get(f"{edit('sharing:match_poll', match)}?v=0", headers=HTMX).content.decode()
    assert sheet_trigger(answer) == "visible-again"  # the sheet it brings still waits for them


def test_the_last_hand_s_rows_poll_stops_and_brings_the_sheet_that_polls_again(client):
    match = make_match(hands=2, planned_hands=3)
    phone = joined_phone(match, 1)
    match.refresh_from_db()
    url = f"{join('seats:join_rows', match)}?v={match.version}&d={match.draft_version}&p=3"
    add_hand(match, sample_inputs(finisher=2, remaining=9))  # the last hand
    response = phone.get(url, headers=HTMX)
    assert response.status_code == 286
    assert list(json.loads(response["HX-Trigger"])) == ["cetele:poll-now"]
    # The phone's own row and its gösterge go: no hand is open to write for.
    answer = response.content.decode()
    assert '<section id="my-row" class="card" hx-swap-oob="true">' in answer
    assert "Maçın bütün elleri oynandı." in answer
    assert '<section id="indicator" hx-swap-oob="delete">' in answer
    sheet = phone.get(f"{join('sharing:join_poll', match)}?v=0", headers=HTMX).content.decode()
    assert sheet_trigger(sheet) == "every 4s, visible-again"  # corrections still come
    scorer_page = client.get(edit("matches:match_detail", match)).content.decode()
    assert sheet_trigger(scorer_page) == "every 4s, visible-again"
