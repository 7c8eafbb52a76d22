"""A joined phone without signal: its row and the gösterge it taps wait on the phone and are sent
when the connection is back; one that comes after its hand was saved (or, a gösterge, after the
scorer set another) is not applied, and the player is told. The join page and its pages to read
are kept by the service worker, as a view link's are: opened again without signal, the last copy
shows, marked; a changed link drops them, and a freed seat or a changed link writes nothing."""

import time

import pytest
from playwright.sync_api import expect

from cetele.deal.models import OpenIndicator
from cetele.models import Match
from cetele.seats.claims import free_seat, rotate_join_link
from tests.browser.seats.test_join_table import LIVE, join_as
from tests.browser.sheet import enter_hand, wait_for_hand
from tests.browser.shell.test_offline import (
    OFFLINE_NOTE,
    UNANSWERED_MS,
    go_offline,
    hang_the_first_post,
    kept_for_offline,
    opened_online,
    wait_until,
)
from tests.factories import NAMES, make_match

# worker: what the service worker keeps for a phone offline (tests/browser/conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

KEPT = "Bağlantı yok: satırınız bu telefonda bekliyor; bağlantı gelince gönderilir."
GOSTERGE_KEPT = "Bağlantı yok: gösterge bu telefonda bekliyor; bağlantı gelince gönderilir."


ROWS_KEPT = "cetele.row."  # seats.js's localStorage keys for the rows it keeps


def waiting_rows(page, prefix: str = ROWS_KEPT) -> dict:
    """What this phone keeps for later (the seats.js entries of localStorage)."""
    return page.evaluate(
        """(prefix) => Object.fromEntries(Object.keys(localStorage)
             .filter((k) => k.startsWith(prefix)).map((k) => [k, localStorage[k]]))""",
        prefix,
    )


# A request that met no network, on a phone whose connection comes back: the worker now answers
# the join page's requests, and Chromium gives it the connection back a moment after the page,
# so the sheet's first poll may fail (offline.js asks again): as ERR_FAILED, or, still offline
# in Chromium's eyes, ERR_INTERNET_DISCONNECTED (a slow run, 2026-12-04). Anything else is a fault.
NO_NETWORK = (
    "console: htmx:sendError,",
    "console: Failed to load resource: net::ERR_FAILED",
    "console: Failed to load resource: net::ERR_INTERNET_DISCONNECTED",
)


def script_errors(console) -> list[str]:
    return [error for error in console.errors if not error.startswith(NO_NETWORK)]


def waiting_gosterge(page) -> dict:
    return waiting_rows(page, "cetele.gosterge.")


def write_offline(player, remaining: str) -> None:
    go_offline(player)
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


def told_on_the_page_opened_again(player, console, place: str, text: str, posts: list) -> None:
    """The sentence `text` shows in `place` (the row's or the gösterge's section) of the page
    opened again; if it does not, what the phone still keeps, what it posted since it opened
    again and what it shows are part of the failure, before Playwright's long snapshot of the
    page. (Twice in a loaded make test run the row's sentence never came: this says where it
    went.)"""
    try:
        expect(player.locator(place).get_by_role("alert")).to_contain_text(text, timeout=LIVE)
    except AssertionError as error:
        kept = {**waiting_rows(player), **waiting_gosterge(player)}
        shown = player.locator(place).inner_html()
        raise AssertionError(
            f"kept on the phone: {kept}\nposted since it opened again: {posts}\n"
            f"console: {console.errors}\n{place}: {shown}\n{error}"
        ) from None


def open_again_with_signal(player, cut: str) -> list[str]:
    """The phone closes the page while the requests matching `cut` still meet no network, and
    opens it again with signal. (Signal back on the open page would let its next send go
    first, and the page opened again would have nothing left to send.) Returns the list its
    POSTs go into from then on, each with its answer, for a failure to show."""
    url = player.url
    player.goto("about:blank")
    player.unroute(cut)
    posts: list[str] = []
    ends = lambda url: url.rsplit("/", 2)[-2] + "/"  # never the link itself  # noqa: E731
    player.on(
        "response",
        lambda r: posts.append(f"{ends(r.url)} {r.status}") if r.request.method == "POST" else None,
    )
    player.on(
        "requestfailed",
        lambda r: posts.append(f"{ends(r.url)} {r.failure}") if r.method == "POST" else None,
    )
    player.goto(url)
    return posts


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
    expect(scorer.locator("#seat-2 [data-phone-note]")).to_have_text("Telefonundan yazdı")
    assert match.draft_rows.get().values["remaining"] == 17
    assert waiting_rows(player) == {}
    assert not scorer_console.errors and not script_errors(player_console)


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

    open_again_with_signal(player, "**/satir/")
    expect(player.locator("#id_row-opened_2")).to_be_checked()  # back in the form: Çift
    expect(row.locator("#row-status")).to_contain_text("Satırınız gönderildi", timeout=LIVE)
    assert match.draft_rows.get().values["opened"] == "pairs"
    assert waiting_rows(player) == {}


@pytest.mark.races
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
    refused = "2. el siz yazarken kaydedildi; bu satır sayılmadı."
    expect(row.get_by_role("alert")).to_contain_text(refused, timeout=LIVE)
    expect(row.locator("#my-row-title")).to_have_text("3. el: satırınız")
    # The rows' poll that follows brings hand 3's empty row: the sentence stays.
    player.wait_for_timeout(4_500)
    expect(row.get_by_role("alert")).to_contain_text(refused)
    hand = Match.objects.get().hands.get(number=2)
    assert hand.inputs["players"][2]["opened"] == "no"  # the scorer's, not the phone's
    assert not match.draft_rows.exists()
    assert waiting_rows(player) == {}
    assert not scorer_console.errors and not script_errors(player_console)


def test_a_row_whose_answer_hangs_waits_and_is_sent_again(phone, second_phone):
    """The café's Wi-Fi takes the row and carries nothing back: unanswered in time, the row waits
    on the phone as one that failed, and the next send carries it (a hanging request no longer
    holds every later send of the page behind it)."""
    scorer, scorer_console = phone
    player, console = second_phone  # (the hanging request's failure is on its console)
    match = make_match(hands=1, planned_hands=5)
    join_as(player, match, NAMES[2])
    scorer.goto(f"/m/{match.edit_token}/")
    held = hang_the_first_post(player, "**/satir/")
    # What the row's status said, and what the phone kept as it said it: "kept" may last only
    # a moment (the next send is due as soon as a request gets through), too short for a check
    # that looks every second on a busy machine (a make test run once missed it).
    player.evaluate(
        """(prefix) => {
            window.seen = [];
            const note = () => {
                const el = document.querySelector("#my-row #row-status");
                const text = el ? el.textContent.trim() : "";
                if (!seen.length || seen[seen.length - 1][0] !== text) {
                    const rows = Object.keys(localStorage).filter((k) => k.startsWith(prefix));
                    seen.push([text, rows]);
                }
            };
            new MutationObserver(note).observe(document.body,
                { subtree: true, childList: true, characterData: true });
        }""",
        ROWS_KEPT,
    )
    player.locator("#my-row .opened-pairs").click()
    status = player.locator("#my-row #row-status")
    expect(status).to_contain_text("Satırınız gönderildi", timeout=UNANSWERED_MS + 5_000 + LIVE)
    seen = player.evaluate("() => window.seen")
    kept = [keys for text, keys in seen if text == KEPT]
    assert kept and kept[0] == [f"cetele.row.{match.phone_key}.2"], seen
    expect(scorer.locator("#seat-2 [data-phone-note]")).to_have_text("Telefonundan yazdı")
    assert match.draft_rows.get().values["opened"] == "pairs"
    assert waiting_rows(player) == {} and len(held) == 1
    hung = "console: htmx:timeout,"  # htmx says so: the row's own request, given up
    assert not scorer_console.errors
    assert [error for error in script_errors(console) if not error.startswith(hung)] == []


def test_a_row_kept_for_a_hand_saved_since_is_refused_when_the_page_opens_again(
    phone, second_phone
):
    """The page opened again is at the next hand already: the row that waited for the hand
    before is still sent, and the player told it came too late."""
    scorer, _scorer_console = phone
    player, console = second_phone  # (the failed sends are on its console)
    match = make_match(hands=1, planned_hands=5)
    join_as(player, match, NAMES[3])
    player.route("**/satir/", lambda route: route.abort("connectionfailed"))
    player.locator("#my-row .opened-pairs").click()
    expect(player.locator("#row-status")).to_have_text(KEPT)
    scorer.goto(f"/m/{match.edit_token}/")
    enter_hand(scorer, NAMES, {"finisher": 0, "players": [{"opened": "series"}] + [{}] * 3})
    wait_for_hand(scorer, 3)

    posts = open_again_with_signal(player, "**/satir/")
    row = player.locator("#my-row")
    expect(row.locator("#my-row-title")).to_have_text("3. el: satırınız")
    told_on_the_page_opened_again(
        player, console, "#my-row", "2. el siz yazarken kaydedildi; bu satır sayılmadı.", posts
    )
    expect(player.locator("#id_row-opened_0")).to_be_checked()  # hand 3's row starts empty
    assert not match.draft_rows.exists()
    assert waiting_rows(player) == {}


# --- The join page itself, kept by the service worker ---------------------------------------------


def joined_and_kept(player, match: Match, name: str) -> str:
    """`player` joins as `name`; returns the join page's path once its copy is on the phone."""
    join_as(player, match, name)
    kept_for_offline(player, f"Bu telefonda {name} olarak yazıyorsunuz")
    return f"/k/{match.join_token}/"


def test_the_join_page_and_its_pages_open_without_signal_as_last_seen(second_phone):
    player, _console = second_phone  # (the requests that fail offline are on its console)
    match = make_match(hands=1, planned_hands=5)
    path = joined_and_kept(player, match, NAMES[2])
    number = match.hands.get().number
    pages = [(f"{path}el/{number}/", "1. el"), (f"{path}kurallar/", match.rules_name)]
    for read, heading in pages:
        opened_online(player, read, heading)

    player.context.set_offline(True)
    player.goto(path)
    expect(player.get_by_text(OFFLINE_NOTE)).to_be_visible()
    expect(player.locator("#my-row-title")).to_have_text("2. el: satırınız")
    expect(player.locator("table.sheet tbody tr[data-hand]")).to_have_count(1)
    for read, heading in pages:
        player.goto(read)
        expect(player.locator("h1")).to_contain_text(heading)
        expect(player.get_by_text(OFFLINE_NOTE)).to_be_visible()

    # The copy is the phone's page as it was: the row written on it waits, and goes when back.
    player.goto(path)
    write_offline(player, "23")
    player.context.set_offline(False)
    status = player.locator("#my-row #row-status")
    expect(status).to_contain_text("Satırınız gönderildi", timeout=LIVE)
    assert match.draft_rows.get().values["remaining"] == 23
    expect(player.get_by_text(OFFLINE_NOTE)).to_be_hidden(timeout=LIVE)


def test_the_join_pages_kept_stay_when_the_last_hand_is_saved(phone, second_phone):
    """The rows' poll stops (286) when the match is over: that says nothing of the link, and
    the phone keeps its pages, the last sheet with them."""
    scorer, _scorer_console = phone
    player, _console = second_phone
    match = make_match(hands=1, planned_hands=2)
    path = joined_and_kept(player, match, NAMES[1])
    opened_online(player, f"{path}kurallar/", match.rules_name)
    player.goto(path)
    scorer.goto(f"/m/{match.edit_token}/")
    enter_hand(scorer, NAMES, {"finisher": 0, "players": [{"opened": "series"}] + [{}] * 3})
    # The rows' poll hears of it first (286, and "ask for the sheet now").
    expect(player.locator("table.sheet tbody tr[data-hand]")).to_have_count(2, timeout=2 * LIVE)
    kept_for_offline(player, 'data-match-state="bitti"')
    player.wait_for_timeout(1_000)  # anything the worker still does with that answer

    player.context.set_offline(True)
    player.goto(f"{path}kurallar/")
    expect(player.locator("h1")).to_contain_text(match.rules_name)
    player.goto(path)
    expect(player.get_by_text(OFFLINE_NOTE)).to_be_visible()
    expect(player.locator("table.sheet tbody tr[data-hand]")).to_have_count(2)


def test_a_join_link_changed_while_offline_writes_nothing_and_takes_its_copies(second_phone):
    player, _console = second_phone
    match = make_match(hands=1, planned_hands=5)
    path = joined_and_kept(player, match, NAMES[2])
    player.context.set_offline(True)
    rotate_join_link(match)  # the scorer's "Yenile": every joined phone is let go
    player.reload()  # the last copy, which knows nothing of it
    expect(player.get_by_text(OFFLINE_NOTE)).to_be_visible()

    write_offline(player, "30")
    player.context.set_offline(False)
    expect(player.locator("[data-link-gone]")).to_be_visible(timeout=LIVE)
    expect(player.locator("#row-status")).to_have_text(
        "Satırınız gönderilemedi: sayfayı yenileyin.", timeout=LIVE
    )
    assert not match.draft_rows.exists()
    assert waiting_rows(player) == {}
    wait_until(
        player,
        """async (link) => (await (await caches.open("cetele-pages")).keys())
            .every((copy) => !new URL(copy.url).pathname.startsWith(link))""",
        path,
    )


def test_a_seat_freed_while_offline_writes_nothing_and_the_player_is_told(second_phone):
    player, _console = second_phone
    match = make_match(hands=1, planned_hands=5)
    joined_and_kept(player, match, NAMES[2])
    player.context.set_offline(True)
    assert free_seat(match, 2)  # the scorer's "Yeri boşalt"
    player.reload()
    expect(player.get_by_text(OFFLINE_NOTE)).to_be_visible()

    write_offline(player, "30")
    player.context.set_offline(False)
    expect(player.locator("#row-status")).to_have_text(
        "Bu maçta henüz adınızı seçmediniz: önce adınızı seçin.", timeout=LIVE
    )
    assert not match.draft_rows.exists()
    assert waiting_rows(player) == {}
    # Opened again, the page is the name choice, and so is its copy from now on.
    player.reload()
    expect(player.get_by_role("button", name="Bu benim")).to_be_visible()
    kept_for_offline(player, "Bu benim")


# --- The gösterge without signal -----------------------------------------------------------


def tap_gosterge(player, colour: str, number: str) -> None:
    section = player.locator("#indicator")
    section.locator(".colours").get_by_text(colour).click()
    section.locator(".numbers").get_by_text(number, exact=True).click()


def tap_gosterge_offline(player, colour: str, number: str) -> None:
    go_offline(player)
    tap_gosterge(player, colour, number)
    expect(player.locator("#indicator-status")).to_have_text(GOSTERGE_KEPT)
    player.wait_for_function(
        """(number) => Object.keys(localStorage).some((k) => k.startsWith("cetele.gosterge.") &&
             localStorage[k].includes("indicator=" + number))""",
        arg=number,
    )


def test_a_gosterge_tapped_without_signal_is_sent_when_back_and_shows_on_the_scorers_page(
    phone, second_phone
):
    scorer, scorer_console = phone
    player, _console = second_phone
    match = make_match(hands=1, planned_hands=5)
    join_as(player, match, NAMES[2])
    scorer.goto(f"/m/{match.edit_token}/")

    tap_gosterge_offline(player, "Kırmızı", "7")
    kept = waiting_gosterge(player)
    assert list(kept) == [f"cetele.gosterge.{match.phone_key}.2"]
    assert match.join_token not in str(kept) and match.edit_token not in str(kept)
    assert not OpenIndicator.objects.exists()

    player.context.set_offline(False)
    expect(player.locator("#indicator .okey-words")).to_contain_text(
        f"Okey: kırmızı 8 ({NAMES[2]} gösterdi)", timeout=LIVE
    )
    expect(scorer.locator("[data-deal]")).to_contain_text("Okey: kırmızı 8", timeout=LIVE)
    picker = scorer.locator("#indicator-picker")
    expect(picker.locator('input[name="indicator"][value="7"]')).to_be_checked()
    expect(picker.locator('input[name="colour"][value="red"]')).to_be_checked()
    kept_row = OpenIndicator.objects.get(match=match)
    assert (kept_row.position, kept_row.colour, kept_row.number, kept_row.seat) == (2, "red", 7, 2)
    assert waiting_gosterge(player) == {}
    assert not scorer_console.errors


def stored_by_scorer(match: Match, colour: str, number: int, seconds: float = 10) -> None:
    """Wait until the server holds the scorer's gösterge for the open hand."""
    deadline = time.monotonic() + seconds
    while not OpenIndicator.objects.filter(
        match=match, colour=colour, number=number, seat=None
    ).exists():
        assert time.monotonic() < deadline, "the scorer's gösterge never reached the server"
        time.sleep(0.05)


COUNT_DRAWINGS = """() => {
  window.indicatorDrawn = 0;
  new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach(
    (node) => { if (node.id === "indicator") window.indicatorDrawn++; }
  ))).observe(document.body, { childList: true, subtree: true });
}"""


@pytest.mark.races
def test_a_gosterge_kept_without_signal_does_not_replace_the_scorers_and_the_player_is_told(
    phone, second_phone
):
    scorer, scorer_console = phone
    player, _console = second_phone
    match = make_match(hands=1, planned_hands=5)
    join_as(player, match, NAMES[2])
    scorer.goto(f"/m/{match.edit_token}/")

    tap_gosterge_offline(player, "Kırmızı", "7")
    # Meanwhile the scorer, who sees the tile, taps it on the hand form.
    picker = scorer.locator("#indicator-picker")
    picker.locator(".colours").get_by_text("Sarı/yeşil").click()
    picker.locator(".numbers").get_by_text("12", exact=True).click()
    expect(scorer.locator("#okey-words")).to_contain_text("Okey: sarı/yeşil 13", timeout=LIVE)
    # The colour and the number are two requests: the server holds the scorer's gösterge before
    # the phone's connection comes back (on a busy machine the number's may still be on its way).
    stored_by_scorer(match, "yellow", 12)

    # Each time the section is drawn anew: the answer to the gösterge, then the rows' poll's.
    player.evaluate(COUNT_DRAWINGS)
    player.context.set_offline(False)
    section = player.locator("#indicator")
    refused = "Göstergeyi çeteleyi tutan gösterdi (Okey: sarı/yeşil 13); sizinki kullanılmadı."
    expect(section.get_by_role("alert")).to_contain_text(refused, timeout=LIVE)
    expect(section.locator('input[name="indicator"][value="12"]')).to_be_checked()
    expect(section.locator('input[name="colour"][value="yellow"]')).to_be_checked()
    # The rows' poll draws the section again (the sheet changed): the sentence stays.
    player.wait_for_function("() => window.indicatorDrawn >= 2", timeout=LIVE)
    expect(section.get_by_role("alert")).to_contain_text(refused)
    kept_row = OpenIndicator.objects.get(match=match)
    assert (kept_row.colour, kept_row.number, kept_row.seat) == ("yellow", 12, None)
    assert waiting_gosterge(player) == {}
    expect(picker.locator('input[name="indicator"][value="12"]')).to_be_checked()
    assert not scorer_console.errors


def test_a_gosterge_kept_for_a_hand_saved_since_is_refused_when_the_page_opens_again(
    phone, second_phone
):
    scorer, _scorer_console = phone
    player, console = second_phone  # (the failed sends are on its console)
    match = make_match(hands=1, planned_hands=5)
    join_as(player, match, NAMES[3])
    player.route("**/gosterge/", lambda route: route.abort("connectionfailed"))
    tap_gosterge(player, "Mavi", "3")
    expect(player.locator("#indicator-status")).to_have_text(GOSTERGE_KEPT)
    scorer.goto(f"/m/{match.edit_token}/")
    enter_hand(scorer, NAMES, {"finisher": 0, "players": [{"opened": "series"}] + [{}] * 3})
    wait_for_hand(scorer, 3)

    posts = open_again_with_signal(player, "**/gosterge/")
    section = player.locator("#indicator")
    expect(section.locator("#indicator-title")).to_have_text("3. el: gösterge")
    told_on_the_page_opened_again(
        player, console, "#indicator", "2. el kaydedildi; gösterge kullanılmadı.", posts
    )
    expect(section.locator('input[name="indicator"]:checked')).to_have_count(0)
    assert not OpenIndicator.objects.exists()
    assert waiting_gosterge(player) == {}
