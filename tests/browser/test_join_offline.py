"""A joined phone without signal: its row waits on the phone and is sent when the connection is
back; a row that comes after its hand was saved is not applied, and the player is told."""

import pytest
from playwright.sync_api import expect

from cetele.models import Match
from tests.browser.sheet import enter_hand, wait_for_hand
from tests.browser.test_join_table import LIVE, join_as
from tests.factories import NAMES, make_match

pytestmark = pytest.mark.django_db(transaction=True)

KEPT = "Bağlantı yok — satırınız bu telefonda saklı, bağlantı gelince gönderilecek."


def waiting_rows(page) -> dict:
    """What this phone keeps for later (the seats.js entries of localStorage)."""
    return page.evaluate(
        """() => Object.fromEntries(Object.keys(localStorage)
             .filter((k) => k.startsWith("cetele.row.")).map((k) => [k, localStorage[k]]))"""
    )


def write_offline(player, remaining: str) -> None:
    player.context.set_offline(True)
    row = player.locator("#my-row")
    row.locator(".opened-series").click()
    player.fill("#id_row-remaining", remaining)
    expect(row.locator("#row-status")).to_have_text(KEPT)
    # Typing is sent (here: kept) once the player pauses.
    player.wait_for_function(
        """(sum) => Object.keys(localStorage).some((k) => k.startsWith("cetele.row.") &&
             localStorage[k].includes("remaining=" + sum))""",
        arg=remaining,
    )


def test_a_row_written_without_signal_is_sent_when_the_connection_is_back(phone, second_phone):
    scorer, scorer_console = phone
    player, player_console = second_phone
    match = make_match(hands=1, planned_hands=5)
    join_as(player, match, NAMES[2])
    scorer.goto(f"/m/{match.edit_token}/")

    write_offline(player, "17")
    kept = waiting_rows(player)
    assert list(kept) == [f"cetele.row.{match.phone_key}.2"]
    # The link is the key: it stays where it was (the page's address), not in what waits.
    assert match.join_token not in str(kept) and match.edit_token not in str(kept)
    assert "remaining=17" in kept[f"cetele.row.{match.phone_key}.2"]
    assert not match.draft_rows.exists()

    player.context.set_offline(False)
    status = player.locator("#my-row #row-status")
    expect(status).to_contain_text("Satırınız gönderildi", timeout=LIVE)
    expect(scorer.locator("#id_p2-remaining")).to_have_value("17", timeout=LIVE)
    expect(scorer.locator("#seat-2 [data-phone-note]")).to_have_text(f"{NAMES[2]} yazdı")
    assert match.draft_rows.get().values["remaining"] == 17
    assert waiting_rows(player) == {}
    assert not scorer_console.errors and not player_console.errors


def test_a_row_whose_answer_never_came_is_kept_and_sent_when_the_page_opens_again(second_phone):
    """The phone says it is online but the café's Wi-Fi carries nothing: the row waits, and the
    page opened again puts it back in the form and sends it."""
    player, _console = second_phone
    match = make_match(hands=1, planned_hands=5)
    join_as(player, match, NAMES[1])
    player.route("**/satir/", lambda route: route.abort("connectionfailed"))
    row = player.locator("#my-row")
    row.locator(".opened-pairs").click()
    expect(row.locator("#row-status")).to_have_text(KEPT)
    assert not match.draft_rows.exists()

    player.unroute("**/satir/")
    player.reload()
    expect(player.locator("#id_row-opened_2")).to_be_checked()  # back in the form: Çift
    expect(row.locator("#row-status")).to_contain_text("Satırınız gönderildi", timeout=LIVE)
    assert match.draft_rows.get().values["opened"] == "pairs"
    assert waiting_rows(player) == {}


def test_a_row_written_offline_while_the_scorer_saves_is_refused_and_the_player_told(
    phone, second_phone
):
    scorer, scorer_console = phone
    player, player_console = second_phone
    match = make_match(hands=1, planned_hands=5)
    join_as(player, match, NAMES[2])
    scorer.goto(f"/m/{match.edit_token}/")

    write_offline(player, "40")
    # Meanwhile the scorer saves hand 2 without the phone's row (Can's "Açmadı").
    inputs = {
        "finisher": 0,
        "players": [
            {"opened": "series"},
            {"opened": "series", "remaining": 12},
            {"opened": "no"},
            {"opened": "no"},
        ],
    }
    enter_hand(scorer, NAMES, inputs)
    wait_for_hand(scorer, 3)

    player.context.set_offline(False)
    row = player.locator("#my-row")
    refused = "2. el siz yazarken kaydedildi; bu satır işlenmedi."
    expect(row.get_by_role("alert")).to_contain_text(refused, timeout=LIVE)
    expect(row.locator("#my-row-title")).to_have_text(f"3. el: {NAMES[2]}")
    # The rows' poll that follows brings hand 3's empty row: the sentence stays.
    player.wait_for_timeout(4_500)
    expect(row.get_by_role("alert")).to_contain_text(refused)
    hand = Match.objects.get().hands.get(number=2)
    assert hand.inputs["players"][2]["opened"] == "no"  # the scorer's, not the phone's
    assert not match.draft_rows.exists()
    assert waiting_rows(player) == {}
    assert not scorer_console.errors and not player_console.errors


def test_a_row_kept_for_a_hand_saved_since_is_refused_when_the_page_opens_again(
    phone, second_phone
):
    """The page opened again is at the next hand already: the row that waited for the hand
    before is still sent, and the player told it came too late."""
    scorer, _scorer_console = phone
    player, _console = second_phone  # (the failed sends are on its console)
    match = make_match(hands=1, planned_hands=5)
    join_as(player, match, NAMES[3])
    player.route("**/satir/", lambda route: route.abort("connectionfailed"))
    player.locator("#my-row .opened-pairs").click()
    expect(player.locator("#row-status")).to_have_text(KEPT)
    scorer.goto(f"/m/{match.edit_token}/")
    enter_hand(scorer, NAMES, {"finisher": 0, "players": [{"opened": "series"}] + [{}] * 3})
    wait_for_hand(scorer, 3)

    player.unroute("**/satir/")
    player.reload()
    row = player.locator("#my-row")
    expect(row.locator("#my-row-title")).to_have_text(f"3. el: {NAMES[3]}")
    expect(row.get_by_role("alert")).to_contain_text(
        "2. el siz yazarken kaydedildi; bu satır işlenmedi.", timeout=LIVE
    )
    expect(player.locator("#id_row-opened_0")).to_be_checked()  # hand 3's row starts empty
    assert not match.draft_rows.exists()
    assert waiting_rows(player) == {}
