"""Sharing a match between phones: the viewer's çetele follows the editor's saves live, without a
reload, and "Maçlarım" finds a match again from the home page."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from cetele.models import Match
from scoring.labels import signed
from tests.browser.sheet import enter_hand, start_match, totals
from tests.factories import add_hand, sample_inputs

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ali", "Ayşe", "Can", "Deniz"]
LIVE = 6_000  # ms: real time for a poll and its swap once it is due
TICK = 4_000  # ms: htmx's tick (match.html#sheet); app.js lets a tick through when a poll is due


def install_clock(page) -> None:
    """Fake time for the page's timers (it still flows): tests jump ahead instead of waiting out
    the poll schedule (cetele/live/schedule.py). Before the page loads, so that htmx's ticks
    use it."""
    page.clock.install()


def stop_clock(page) -> None:
    """Fake time that moves only when the test says so, for tests that count polls: a clock that
    flows adds the machine's slowness to the page's time, and on a busy machine that moved polls
    across the schedule's boundaries (a poll counted early or one dropped as not yet due). htmx
    settles a swap at once, not 20 ms later, since those 20 ms would never come on their own.
    Before the page loads."""
    page.clock.install()
    page.clock.pause_at(datetime.now(UTC) + timedelta(seconds=1))
    page.add_init_script(
        'addEventListener("DOMContentLoaded", () => { htmx.config.defaultSettleDelay = 0; });'
    )


def ticks(page, seconds: int) -> None:
    """Let `seconds` of the page's time pass, one htmx tick at a time (each fires once); after
    each, wait until the page has its answer (htmx marks an element htmx-request from the tick
    until the answer is swapped in), so that no tick overtakes the request of the last."""
    for _ in range(seconds * 1000 // TICK):
        page.clock.fast_forward(TICK)
        for _ in range(400):  # a busy machine is slow; 20 s at most
            if not page.evaluate("() => !!document.querySelector('.htmx-request')"):
                break
            page.wait_for_timeout(50)
        page.wait_for_timeout(30)  # on a clock that flows, htmx settles 20 ms after the swap


def mark_page(page) -> None:
    """A flag that a reload would wipe out."""
    page.evaluate("window.__notReloaded = true")


def not_reloaded(page) -> bool:
    return page.evaluate("window.__notReloaded === true")


def test_the_viewer_sees_the_editors_hand_appear_without_a_reload(phone, second_phone):
    editor, editor_console = phone
    viewer, viewer_console = second_phone
    start_match(editor, NAMES, hands=5)
    match = Match.objects.get()
    install_clock(viewer)
    viewer.goto(f"/v/{match.view_token}/")
    mark_page(viewer)
    expect(viewer.locator("table.sheet")).to_have_count(0)

    enter_hand(editor, NAMES, sample_inputs(finisher=2, remaining=42))
    expect(editor.locator("table.sheet tbody tr")).to_have_count(1)

    ticks(viewer, 16)  # a match started a moment ago is asked every 16 s
    expect(viewer.locator("table.sheet tbody tr")).to_have_count(1, timeout=LIVE)
    assert not_reloaded(viewer)
    assert totals(viewer) == totals(editor)
    assert "1 / 5 el oynandı" in viewer.locator("#sheet").inner_text()
    # The viewer has no edit control at all.
    assert viewer.locator("#hand-form, input[type=radio], textarea").count() == 0
    assert viewer.locator("form:not(.lang)").count() == 0
    assert viewer.locator("a[href*='/m/']").count() == 0
    assert match.edit_token not in viewer.content()
    assert viewer.get_by_role("button", name=re.compile("Geri al|Eli kaydet|sil")).count() == 0

    # A corrected hand reaches the viewer the same way.
    hand = match.hands.get()
    fixed = sample_inputs(finisher=0, remaining=7)
    match.edit_hand(hand.number, fixed, hand.version, "fix-from-another-phone")
    ticks(viewer, 16)
    expect(viewer.locator("table.sheet tfoot td").first).to_have_text(
        signed(match.hands.get().scores[0]), timeout=LIVE
    )
    assert not_reloaded(viewer)
    assert editor_console.errors == []
    assert viewer_console.errors == []


def test_the_viewer_opens_a_hands_breakdown_read_only(phone):
    page, console = phone
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=_rules())
    add_hand(match, sample_inputs(finisher=1, remaining=20))

    page.goto(f"/v/{match.view_token}/")
    page.locator("table.sheet tbody a").first.click()

    page.wait_for_url(re.compile(r"/v/[^/]+/el/\d+/"))
    assert page.locator("#score-0").is_visible()
    assert page.locator("#hand-form").count() == 0
    page.get_by_role("link", name="Çeteleye dön").click()
    page.wait_for_url(f"**/v/{match.view_token}/")
    assert console.errors == []


@pytest.mark.races
def test_an_editors_sheet_follows_another_editors_save_and_keeps_the_half_filled_form(phone):
    page, console = phone
    install_clock(page)
    start_match(page, NAMES, hands=5)
    match = Match.objects.get()
    mark_page(page)
    page.fill("#id_p1-remaining", "31")

    add_hand(match, sample_inputs(finisher=3, remaining=12))  # saved on another phone

    ticks(page, 16)
    expect(page.locator("table.sheet tbody tr")).to_have_count(1, timeout=LIVE)
    assert not_reloaded(page)
    assert page.input_value("#id_p1-remaining") == "31"
    assert console.errors == []


def test_a_rotated_view_link_stops_the_live_view_and_says_so(phone, second_phone):
    editor, _ = phone
    viewer, _ = second_phone
    start_match(editor, NAMES, hands=5)
    match = Match.objects.get()
    install_clock(viewer)
    viewer.goto(f"/v/{match.view_token}/")
    requests = []
    viewer.on("request", lambda r: requests.append(r.url) if "/poll/" in r.url else None)

    editor.get_by_role("link", name="Paylaş").click()
    editor.get_by_label("Evet, eski bağlantı çalışmasın").check()
    editor.get_by_role("button", name="Yeni izleme bağlantısı").click()
    expect(editor.get_by_text("Yeni izleme bağlantısı hazır")).to_be_visible()

    ticks(viewer, 16)
    expect(viewer.locator("[data-link-gone]")).to_be_visible(timeout=LIVE)
    seen = len(requests)
    ticks(viewer, 160)  # past every interval of the schedule
    assert len(requests) == seen  # polling stopped: no stream of misses from a stale tab


def test_my_matches_lists_the_matches_this_phone_started_or_opened(phone, second_phone):
    page, console = phone
    start_match(page, NAMES, hands=5)
    match = Match.objects.get()
    other = Match.start(["Elif", "Fatih"], teams=False, planned_hands=3, rules=_rules())
    page.goto(f"/v/{other.view_token}/")

    page.goto("/")

    box = page.locator("[data-my-matches]")
    expect(box).to_be_visible()
    links = box.locator("li a")
    expect(links).to_have_count(2)
    assert links.nth(0).get_attribute("href") == f"/v/{other.view_token}/"
    assert links.nth(1).get_attribute("href") == f"/m/{match.edit_token}/"
    assert "Ali, Ayşe, Can, Deniz" in links.nth(1).inner_text()
    assert "0/5 el" in box.locator("li").nth(1).inner_text()
    assert "izleme" in box.locator("li").nth(0).inner_text()
    links.nth(1).click()
    page.wait_for_url(f"**/m/{match.edit_token}/")
    assert console.errors == []

    # Another phone has opened nothing: its home page lists nothing.
    stranger, _ = second_phone
    stranger.goto("/")
    expect(stranger.locator("[data-my-matches]")).to_be_hidden()


def _rules() -> dict:
    import scoring

    return scoring.resolve_rules("cetele-standart")


def test_the_share_page_and_the_view_page_have_no_accessibility_violation(phone):
    from axe_playwright_python.sync_playwright import Axe

    page, console = phone
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=_rules())
    add_hand(match, sample_inputs(finisher=1, remaining=20))

    for url in (f"/m/{match.edit_token}/paylas/", f"/v/{match.view_token}/"):
        page.goto(url)
        result = Axe().run(page)
        assert result.violations_count == 0, (url, result.generate_report())
    assert console.errors == []


def set_visibility(page, visible: bool) -> None:
    """Make the page look hidden or shown to its scripts, as when the phone locks or unlocks."""
    page.evaluate(
        """(visible) => {
        const define = (name, value) =>
            Object.defineProperty(document, name, {value: value, configurable: true});
        define("hidden", !visible);
        define("visibilityState", visible ? "visible" : "hidden");
        document.dispatchEvent(new Event("visibilitychange"));
    }""",
        visible,
    )


def test_polling_pauses_while_the_page_is_hidden_and_resumes_at_once_when_shown(phone):
    page, console = phone
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=_rules())
    install_clock(page)
    page.goto(f"/v/{match.view_token}/")
    polls = []
    page.on("request", lambda r: polls.append(r.url) if "/poll/" in r.url else None)

    set_visibility(page, False)
    ticks(page, 40)  # two polls were due
    assert polls == []

    with page.expect_request(lambda r: "/poll/" in r.url, timeout=1_000):
        set_visibility(page, True)
    assert console.errors == []


def polls_in(page, match: Match, seconds: int) -> list[str]:
    """The poll requests the view page of `match` makes in `seconds` of its time."""
    stop_clock(page)
    page.goto(f"/v/{match.view_token}/")
    polls = []
    page.on("request", lambda r: polls.append(r.url) if "/poll/" in r.url else None)
    ticks(page, seconds)
    settled = -1
    for _ in range(20):  # until no poll has been sent for half a second (a busy machine is slow)
        if len(polls) == settled:
            break
        settled = len(polls)
        page.wait_for_timeout(500)
    return polls


def quiet_for(match: Match, seconds: int) -> None:
    Match.objects.filter(pk=match.pk).update(touched_at=timezone.now() - timedelta(seconds=seconds))


@pytest.mark.parametrize(
    ("quiet", "expected"),
    [
        (300, 15),  # the table plays (a hand every few minutes): every 8 s
        (30, 9),  # just saved: every 16 s until quiet for 2 min (5), then every 8 s (4)
        (1800, 3),  # a break: every 32 s
        (7200, 1),  # gone home: every 120 s
    ],
)
def test_a_match_that_has_been_quiet_for_a_while_is_asked_less_often(phone, quiet, expected):
    page, console = phone
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=_rules())
    quiet_for(match, quiet)

    polls = polls_in(page, match, 120)

    assert len(polls) == expected, polls
    assert all(f"?v={match.version}" in url for url in polls)
    assert console.errors == []


def test_a_save_brings_the_playing_pace_back(phone):
    """Quiet for an hour and a half, the page asks every 120 s; the sheet a save brings says the
    match just changed, and from then on the page follows the schedule from the start."""
    page, console = phone
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=_rules())
    quiet_for(match, 5400)
    polls = polls_in(page, match, 124)
    assert len(polls) == 1
    add_hand(match, sample_inputs(finisher=1, remaining=20))
    ticks(page, 108)  # the next poll is due 120 s after the last one (at 120 s): not yet
    assert len(polls) == 1
    ticks(page, 8)
    expect(page.locator("table.sheet tbody tr")).to_have_count(1, timeout=LIVE)
    assert len(polls) == 2
    ticks(page, 64)  # the new sheet says the match just changed: every 16 s
    page.wait_for_timeout(200)
    assert len(polls) == 6, polls
    assert console.errors == []


def seat_as_can(page, match: Match) -> None:
    """This phone opens the join link and picks Can's seat."""
    page.goto(f"/k/{match.join_token}/")
    page.locator(".seat-choices label", has_text="Can").click()
    page.get_by_role("button", name="Bu benim").click()
    expect(page.get_by_text("Bu telefonda Can olarak yazıyorsunuz")).to_be_visible()


def rows_asked_in(page, url: str, seconds: int) -> list[str]:
    """The open hand's rows' polls the page at `url` makes in `seconds` of its time."""
    stop_clock(page)
    page.goto(url)
    # The scorer's page asks for them once as soon as it is drawn (not counted): its answer
    # brings the section that asks again.
    expect(page.locator('#table-rows[hx-trigger^="every"]')).to_have_count(1)
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/satirlar/" in r.url else None)
    ticks(page, seconds)
    page.wait_for_timeout(300)
    return asked


@pytest.mark.parametrize(
    ("page_of", "quiet", "expected"),
    [
        # A phone has joined: every page of the table asks every 4 s, the first row is due any
        # moment (a player who finished fast writes right after the save).
        ("joined", 300, 30),
        ("joined", 30, 30),
        ("scorer", 300, 30),
        ("scorer", 30, 30),
        # No phone joined yet: the scorer's page asks every 4 s too, for its first news is often
        # a phone joining and writing at once (at a viewer's pace, 16 s after a save, a save in
        # that time had not seen the row).
        ("scorer alone", 300, 30),
        ("scorer alone", 30, 30),
    ],
)
def test_the_rows_are_asked_every_4_s_once_a_phone_has_joined(
    phone, second_phone, settings, page_of, quiet, expected
):
    """cetele.live.schedule.rows_every: a row (the hand's first too) shows on the scorer's form
    and on every other joined phone about 2 s after it is written, whatever the match's quiet,
    and the scorer's page opened before anyone joined learns of the first phone as soon."""
    settings.CETELE_ROWS_POLL_SPEEDUP = 1  # the table's own pace
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=_rules())
    if page_of != "scorer alone":
        Client().post(reverse("seats:join_match", args=[match.join_token]), {"seat": "1"})
    quiet_for(match, quiet)
    page, console = phone
    url = f"/k/{match.join_token}/" if page_of == "joined" else f"/m/{match.edit_token}/"
    if page_of == "joined":  # this phone joins, as Ayşe's does
        seat_as_can(page, match)

    asked = rows_asked_in(page, url, 120)

    assert abs(len(asked) - expected) <= 1, asked  # the page's first tick may fall either side
    assert console.errors == []


def test_a_joined_phone_shows_another_players_row_within_a_poll(phone, settings):
    """Another player's row, the hand's first, reaches a joined phone at its next 4-s tick,
    right after a save too; the phone keeps asking at every tick while the hand is written."""
    settings.CETELE_ROWS_POLL_SPEEDUP = 1
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=_rules())
    ayse = Client()
    ayse.post(reverse("seats:join_match", args=[match.join_token]), {"seat": "1"})
    quiet_for(match, 30)
    page, console = phone
    seat_as_can(page, match)
    asked = rows_asked_in(page, f"/k/{match.join_token}/", 8)
    assert len(asked) == 2, asked  # every 4 s from when the page was drawn

    row = {"position": "1", "row-opened": "series", "row-okeys": "0", "row-fake_okeys": "0"}
    ayse.post(reverse("seats:join_row", args=[match.join_token]), {**row, "row-remaining": "12"})
    ticks(page, 4)  # the next tick brings the row
    expect(page.locator("#table-rows li.written")).to_have_count(1)
    before = len(asked)
    ticks(page, 40)
    page.wait_for_timeout(300)

    assert len(asked) - before == 10, asked
    assert console.errors == []
