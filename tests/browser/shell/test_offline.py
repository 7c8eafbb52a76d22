"""No signal at the café (issue 14): the app installs, an open match reads offline, and a hand
saved without a connection is kept on the phone and saved exactly once when it returns.

The network really goes away: `context.set_offline(True)` cuts the page and its service worker
off, and a reload is answered by the worker's copy. A lost answer is a real one: the request
reaches the server, which saves, and the phone gets a network error instead of the reply.
"""

import re
import time

import pytest
from django.conf import settings
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from cetele.models import Hand, Match
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, ConsoleWatcher
from tests.browser.sheet import enter_hand, is_a_save, start_match
from tests.browser.shell.test_accessibility import blocking_violations

# worker: what the service worker keeps for a phone offline (tests/browser/conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

NAMES = ["Ali", "Burak", "Can", "Deniz"]
OFFLINE_NOTE = "Bağlantı yok — çetele en son böyleydi"
WAITING = "Bağlantı yok: el bu telefonda bekliyor"
NO_PREVIEW = "Bağlantı yok: puanlar bağlantı gelince hesaplanır. “Eli kaydet” eli telefonda saklar."


def hand(finisher: int, sums: list) -> dict:
    """A series hand: `finisher` went out, the others keep `sums` (None for the finisher)."""
    return {
        "finisher": finisher,
        "players": [{"opened": "series", "remaining": s} for s in sums],
    }


HANDS = [
    hand(0, [None, 34, 12, 51]),
    hand(1, [20, None, 8, 17]),
    hand(2, [5, 40, None, 22]),
    hand(3, [11, 3, 60, None]),
]


def wait_until(page, script: str, arg=None, timeout: float = 10_000) -> None:
    """Wait until the async `script` resolves to something truthy. (`page.wait_for_function`
    takes the promise an async function returns as truthy at once: it never waited.)"""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(script, arg):
        assert time.monotonic() < deadline, f"still false after {timeout} ms: {script}"
        page.wait_for_timeout(200)


def go_offline(page) -> None:
    """The phone loses its connection, and its page knows it before the next tap, as a phone's
    does. (Chromium tells the page, navigator.onLine, a moment after the network goes; on a
    loaded machine a tap the test made at once went out as a request before that, and a
    make test run once failed on it.)"""
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")


# How long a page waits for a write's answer before it keeps the write like one that failed
# (offline.js reads it from the page; tests/settings.py shortens it).
UNANSWERED_MS = settings.CETELE_UNANSWERED_SECONDS * 1000


def hang_the_first_post(page, pattern: str) -> list:
    """The café's Wi-Fi takes the first POST to `pattern` and never answers it; every later
    request passes. Returns the requests held (the first, once it is sent)."""
    held = []

    def hang(route) -> None:
        if route.request.method == "POST" and not held:
            held.append(route)  # never answered
        else:
            route.continue_()

    page.route(pattern, hang)
    return held


def kept_for_offline(page, text: str = "") -> None:
    """Wait until the worker controls the page and its copy (holding `text`) is on the phone."""
    # The worker's first install fetches what it keeps for every page: on a busy machine that
    # has taken longer than the 10 s a step may otherwise take, and a run beside a whole make
    # test once waited 30 s for nothing (an install whose fetches fail is given up). A phone
    # tries again when the page is opened again: so does the test.
    controlled = "() => navigator.serviceWorker.controller !== null"
    try:
        page.wait_for_function(controlled, timeout=20_000)
    except PlaywrightTimeoutError:
        page.reload()
        page.wait_for_function(controlled, timeout=30_000)
    # The copy is asked for once the worker is ready (offline.js) and fetched by it: beside a
    # whole make test that has once taken longer than 10 s (CI, PostgreSQL's browser leg). A
    # phone asks again each time the page is opened: so does the test, once.
    try:
        wait_until(page, HOLDS_COPY, text, timeout=15_000)
    except AssertionError:
        page.reload()
        wait_until(page, HOLDS_COPY, text, timeout=30_000)


# Whether the phone holds a copy of the page it shows, with `text` in it (the worker's cache).
HOLDS_COPY = """async (text) => {
    const cache = await caches.open("cetele-pages");
    const copy = await cache.match(location.pathname);
    return !!copy && (await copy.text()).includes(text);
}"""


def remaining(match: Match) -> list[list]:
    """Each saved hand's tiles left, in sheet order: what tells one hand from another."""
    return [
        [p.get("remaining") for p in h.inputs["players"]]
        for h in Hand.objects.filter(match=match).order_by("number")
    ]


def sums(inputs: dict) -> list:
    return [p.get("remaining") if p.get("remaining") is not None else 0 for p in inputs["players"]]


def a_match_kept_for_offline(page) -> Match:
    """A five-hand match started on this phone, its page kept by the worker."""
    start_match(page, NAMES, hands=5)
    match = Match.objects.get()
    kept_for_offline(page)
    return match


def the_second_hand_kept_offline(page) -> Match:
    """The first hand saved online and the page kept with it; then, without a connection, the
    second hand entered (kept on the phone to be sent)."""
    match = a_match_kept_for_offline(page)
    enter_hand(page, NAMES, HANDS[0])
    expect(page.locator("#saved-note")).to_contain_text("1. el kaydedildi.")
    kept_for_offline(page, "1 / 5 el oynandı")
    go_offline(page)
    enter_hand(page, NAMES, HANDS[1])
    return match


def saved_sums(match: Match) -> list[list]:
    return [[s or 0 for s in row] for row in remaining(match)]


@pytest.mark.races
def test_a_hand_entered_offline_is_saved_once_when_the_connection_returns_even_after_a_reload(
    phone,
):
    page, _ = phone
    match = the_second_hand_kept_offline(page)
    outbox = page.locator("[data-outbox]")
    expect(outbox).to_contain_text(f"2. el · Burak bitirdi — {WAITING}")
    expect(page.locator("#entry-title")).to_have_text("3. el")
    # The next hand's preview says why it has no scores, rather than showing an empty box.
    expect(page.locator("#hand-preview")).to_have_text(NO_PREVIEW)

    # Reload without a connection: the worker's copy, marked not live, and the hand still waiting.
    page.reload()
    expect(page.get_by_text(OFFLINE_NOTE)).to_be_visible()
    expect(page.locator("table.sheet tbody tr[data-hand]")).to_have_count(1)
    expect(outbox).to_contain_text(f"2. el · Burak bitirdi — {WAITING}")
    expect(page.locator("#entry-title")).to_have_text("3. el")
    enter_hand(page, NAMES, HANDS[2])
    expect(outbox.locator("li")).to_have_count(2)
    assert Hand.objects.count() == 1
    assert blocking_violations(page) == []

    page.context.set_offline(False)
    expect(outbox).to_be_hidden(timeout=15_000)
    expect(page.locator("table.sheet tbody tr")).to_have_count(3)
    expect(page.get_by_text(OFFLINE_NOTE)).to_be_hidden()
    assert saved_sums(match) == [sums(h) for h in HANDS[:3]]
    expect(page.locator("#entry-title")).to_have_text("4. el")

    # Nothing is sent twice: another round of the outbox, a reload, and still three hands.
    page.wait_for_timeout(1_000)
    page.reload()
    expect(page.locator("table.sheet tbody tr")).to_have_count(3)
    assert page.evaluate("localStorage.getItem('cetele.outbox')") == "[]"
    assert saved_sums(match) == [sums(h) for h in HANDS[:3]]


def test_a_hand_kept_in_a_closed_tab_is_sent_from_the_next_page_opened(phone):
    page, _ = phone
    match = a_match_kept_for_offline(page)
    context = page.context
    context.set_offline(True)
    enter_hand(page, NAMES, HANDS[0])  # kept in the outbox
    expect(page.locator("[data-outbox]")).to_contain_text(WAITING)
    page.close()

    context.set_offline(False)
    home = context.new_page()
    home.goto("/")  # any page of the app sends what waits, for every match
    home.wait_for_function("() => localStorage.getItem('cetele.outbox') === '[]'", timeout=15_000)
    assert saved_sums(match) == [sums(HANDS[0])]


def test_the_worker_sends_a_kept_hand_by_background_sync_with_every_tab_closed(phone, live_server):
    page, _ = phone
    match = a_match_kept_for_offline(page)
    context = page.context
    context.set_offline(True)
    enter_hand(page, NAMES, HANDS[0])  # kept in the outbox
    wait_until(
        page,
        """async () => {
            const copy = await (await caches.open("cetele-outbox")).match("/outbox.json");
            return !!copy && (await copy.json()).length === 1;
        }""",
    )
    # The browser's side of Background Sync, through its DevTools protocol: the worker's
    # registration, then the "sync" event it fires when the connection is back.
    blank = context.new_page()
    cdp = context.new_cdp_session(blank)
    registrations = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    blank.wait_for_timeout(200)
    page.close()
    context.set_offline(False)

    # The last word on each registration of this server's origin that is still there (a
    # registration is reported again as it changes).
    latest = {r["registrationId"]: r for r in registrations}
    live = [
        r
        for r in latest.values()
        if not r["isDeleted"] and r["scopeURL"].startswith(live_server.url)
    ]
    assert live, registrations
    # A browser fires "sync" again while a try fails (the worker may see the connection as back
    # a moment after the page does); DevTools' dispatch is one try, so it is repeated here as
    # the browser would. However often it is sent, the hand is saved once (asserted below).
    # The database is looked at only when the worker has had time to finish: the live server
    # shares the test's in-memory SQLite connection, and a query from here in the middle of its
    # save breaks that save's transaction (Django's LiveServerTestCase documentation).
    for _attempt in range(5):
        for registration in live:
            cdp.send(
                "ServiceWorker.dispatchSyncEvent",
                {
                    "origin": live_server.url,
                    "registrationId": registration["registrationId"],
                    "tag": "cetele-outbox",
                    "lastChance": False,
                },
            )
        blank.wait_for_timeout(2000)
        if Hand.objects.filter(match=match).exists():
            break
    assert saved_sums(match) == [sums(HANDS[0])]


@pytest.mark.races
def test_a_save_whose_answer_was_lost_is_not_saved_twice_when_sent_again(phone):
    page, _ = phone
    match = a_match_kept_for_offline(page)
    lost = []

    def lose_the_answer(route):
        # The first save reaches the server, which saves it; its answer never reaches the phone.
        # (Marked first: a request the page sends while the server answers comes in meanwhile.)
        if is_a_save(route.request) and not lost:
            lost.append("sent")
            lost[0] = route.fetch().status
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/el/", lose_the_answer)
    enter_hand(page, NAMES, HANDS[0])

    # The phone kept the hand and sent it again with the same token: saved once, and shown. The
    # server answers "already saved" (its first try got there); for this phone, its hand went.
    expect(page.locator("#saved-note")).to_contain_text("1. el gönderildi.", timeout=15_000)
    assert lost == [200]
    expect(page.locator("[data-outbox]")).to_be_hidden()
    expect(page.locator("table.sheet tbody tr")).to_have_count(1)
    assert saved_sums(match) == [sums(HANDS[0])]
    assert page.evaluate("localStorage.getItem('cetele.outbox')") == "[]"
    expect(page.locator("#entry-title")).to_have_text("2. el")
    enter_hand(page, NAMES, HANDS[1])
    expect(page.locator("#saved-note")).to_contain_text("2. el kaydedildi.")
    assert saved_sums(match) == [sums(h) for h in HANDS[:2]]


def test_a_save_left_hanging_is_kept_and_sent_again(phone):
    page, _ = phone
    match = a_match_kept_for_offline(page)
    hanging = []

    def hang_the_first_save(route):
        # A café's Wi-Fi that takes the request and never answers: the route is left open.
        if is_a_save(route.request) and not hanging:
            hanging.append(route)
        else:
            route.continue_()

    page.route("**/el/", hang_the_first_save)
    # What the outbox says, every time it changes: the worker's Background Sync may send the
    # kept hand at once, and "waiting" then shows for a moment only (a loaded CI run missed it).
    page.evaluate(
        """() => {
            window.outboxSaid = [];
            const box = document.querySelector("[data-outbox]");
            new MutationObserver(() => window.outboxSaid.push(box.textContent))
                .observe(box, { subtree: true, childList: true, characterData: true });
        }"""
    )
    enter_hand(page, NAMES, HANDS[0])

    # Unanswered in time, the hand is kept, the form moves on, and the hand is sent: by the
    # page, or first by the worker's Background Sync; either way the phone's hand went.
    expect(page.locator("#saved-note")).to_contain_text(
        "1. el gönderildi.", timeout=UNANSWERED_MS + 20_000
    )
    assert any(WAITING in said for said in page.evaluate("window.outboxSaid"))
    expect(page.locator("#entry-title")).to_have_text("2. el")
    expect(page.locator("[data-outbox]")).to_be_hidden()
    assert len(hanging) == 1
    assert saved_sums(match) == [sums(HANDS[0])]
    hanging[0].abort()  # the page gave up on it long ago; close it for Playwright's sake


@pytest.mark.races
def test_a_place_taken_meanwhile_is_asked_about_as_with_two_phones(phone, second_phone):
    page, _ = phone
    other, _ = second_phone
    match = a_match_kept_for_offline(page)
    other.goto(page.url)

    go_offline(page)
    enter_hand(page, NAMES, HANDS[0])  # this phone's hand 1, waiting
    enter_hand(page, NAMES, HANDS[1])  # and its hand 2
    enter_hand(other, NAMES, HANDS[2])  # meanwhile another phone saves hand 1
    expect(other.locator("#saved-note")).to_contain_text("1. el kaydedildi.")

    page.context.set_offline(False)
    form = page.locator("#hand-form")
    expect(form).to_contain_text("1. el az önce başka bir telefondan kaydedildi", timeout=15_000)
    expect(page.locator("[data-outbox]")).to_contain_text("ne olacağını seçin")
    # The form asking about the waiting hand keeps that hand's place; nothing moves it on.
    expect(form.locator("input[name=position]")).to_have_value("1")
    assert blocking_violations(page) == []
    assert saved_sums(match) == [sums(HANDS[2])]  # the later hand waits for the answer

    page.get_by_role("button", name="Benimkini 2. el olarak ekle").click()
    # Mine go in after the other phone's, in the order entered, each once.
    expect(page.locator("table.sheet tbody tr")).to_have_count(3, timeout=15_000)
    expect(page.locator("[data-outbox]")).to_be_hidden()
    assert saved_sums(match) == [sums(h) for h in (HANDS[2], HANDS[0], HANDS[1])]
    expect(page.locator("#entry-title")).to_have_text("4. el")


def test_an_answer_given_offline_to_the_servers_question_replaces_the_waiting_hand(
    phone, second_phone
):
    page, _ = phone
    other, _ = second_phone
    match = a_match_kept_for_offline(page)
    other.goto(page.url)
    go_offline(page)
    enter_hand(page, NAMES, HANDS[0])
    enter_hand(other, NAMES, HANDS[2])
    expect(other.locator("#saved-note")).to_contain_text("1. el kaydedildi.")
    page.context.set_offline(False)
    expect(page.locator("#hand-form")).to_contain_text(
        "1. el az önce başka bir telefondan kaydedildi", timeout=15_000
    )

    # The connection drops again just as the player answers: the answer waits in the hand's
    # place (one hand, not two), and goes when the connection returns.
    go_offline(page)
    page.get_by_role("button", name="Benimkini 2. el olarak ekle").click()
    outbox = page.locator("[data-outbox]")
    expect(outbox.locator("li")).to_have_count(1)
    expect(outbox).to_contain_text(WAITING)
    page.context.set_offline(False)

    expect(outbox).to_be_hidden(timeout=15_000)
    expect(page.locator("table.sheet tbody tr")).to_have_count(2)
    assert saved_sums(match) == [sums(HANDS[2]), sums(HANDS[0])]


def test_an_open_match_and_my_matches_read_offline(phone, live_server):
    page, _ = phone
    start_match(page, NAMES, hands=5)
    enter_hand(page, NAMES, HANDS[0])
    expect(page.locator("#saved-note")).to_contain_text("1. el kaydedildi.")
    match_url = page.url
    kept_for_offline(page, "1 / 5 el oynandı")
    page.goto("/")
    kept_for_offline(page, "Maçlarım")

    page.context.set_offline(True)
    page.goto(match_url)
    expect(page.get_by_text(OFFLINE_NOTE)).to_be_visible()
    expect(page.locator("table.sheet tbody tr")).to_have_count(1)
    expect(page.locator("table.sheet tfoot")).to_contain_text("Toplam")
    page.goto("/")
    expect(page.get_by_text(OFFLINE_NOTE)).to_be_visible()
    my_matches = page.locator("[data-my-matches]")
    expect(my_matches.get_by_role("link", name="Ali, Burak, Can, Deniz")).to_be_visible()

    # The connection comes back: the open sheet is live again.
    page.goto(match_url)
    page.context.set_offline(False)
    expect(page.get_by_text(OFFLINE_NOTE)).to_be_hidden(timeout=20_000)


def copy_kept(page, path: str) -> bool:
    return page.evaluate(
        "async (path) => !!(await (await caches.open('cetele-pages')).match(path))", path
    )


def test_a_rotated_edit_link_leaves_the_phone_at_its_next_use_and_its_waiting_hand_follows(
    phone,
):
    page, _ = phone
    start_match(page, NAMES, hands=5)
    match = Match.objects.get()
    old_path = f"/m/{match.edit_token}/"
    kept_for_offline(page)

    go_offline(page)
    enter_hand(page, NAMES, HANDS[0])
    match.rotate_token("edit")  # meanwhile, someone changed the edit link
    page.context.set_offline(False)

    # The old link answers "changed": its copy is dropped, the hand stays on the phone.
    outbox = page.locator("[data-outbox]")
    expect(outbox).to_contain_text("Bu bağlantı değişti", timeout=15_000)
    wait_until(
        page, "async (path) => !(await (await caches.open('cetele-pages')).match(path))", old_path
    )
    assert Hand.objects.count() == 0
    page.goto(old_path)
    expect(page.get_by_role("heading", name="Bu bağlantı değişti")).to_be_visible()
    assert not copy_kept(page, old_path)

    # Opening the match's new link sends the hand there.
    page.goto(f"/m/{match.edit_token}/")
    expect(page.locator("table.sheet tbody tr[data-hand]")).to_have_count(1, timeout=15_000)
    assert saved_sums(match) == [sums(HANDS[0])]
    assert copy_kept(page, f"/m/{match.edit_token}/")


def test_a_match_deleted_on_the_phone_leaves_its_copy_and_its_waiting_hands(phone):
    page, _ = phone
    start_match(page, NAMES, hands=5)
    match = Match.objects.get()
    path = f"/m/{match.edit_token}/"
    kept_for_offline(page)
    go_offline(page)
    enter_hand(page, NAMES, HANDS[0])
    page.context.set_offline(False)
    page.route("**/el/", lambda route: route.abort())  # the hand stays on the phone meanwhile
    page.goto(path)
    expect(page.locator("[data-outbox] li")).to_have_count(1)

    page.get_by_role("link", name="Maçı sil").click()
    page.get_by_label("Evet, silinsin. Bunun geri dönüşü yok.").check()
    page.get_by_role("button", name="Sil").click()
    expect(page.get_by_text("Maç silindi")).to_be_visible()

    wait_until(
        page, "async (path) => !(await (await caches.open('cetele-pages')).match(path))", path
    )
    assert page.evaluate("() => localStorage.getItem('cetele.outbox')") == "[]"


def test_the_app_passes_chromiums_installability_check(browser, live_server, tmp_path):
    # Chromium reports "in-incognito" for any ordinary context: a profile on disk it is.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        headless=True,
        base_url=live_server.url,
        **PHONE,
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        console = ConsoleWatcher(page)
        page.goto("/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        cdp = context.new_cdp_session(page)

        manifest = cdp.send("Page.getAppManifest")
        errors = cdp.send("Page.getInstallabilityErrors")

        assert manifest["errors"] == []
        assert errors["installabilityErrors"] == []
        assert console.errors == []
    finally:
        context.close()


# Issue 27, item 10: offline, the phone never says something untrue about a hand.
KEPT = "bu telefonda bekliyor; bağlantı gelince gönderilir"


def pending_rows(page):
    return page.locator("#sheet table.sheet tbody tr.pending")


def test_a_hand_saved_offline_waits_in_the_sheet_where_it_will_land_and_the_note_says_so(phone):
    page, console = phone
    match = the_second_hand_kept_offline(page)
    note = page.locator("#saved-note")
    # The sheet: hand 1 as saved, then hand 2 in its place, marked as waiting.
    rows = page.locator("#sheet table.sheet tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-hand", re.compile(r"\d+"))
    expect(rows.nth(1)).to_have_class(re.compile(r"\bpending\b"))
    expect(rows.nth(1).locator("th")).to_have_text("2")
    expect(rows.nth(1)).to_contain_text("bekliyor")
    # The note in view is about this hand, not the one before (nor its "Geri al").
    expect(note).to_contain_text(f"2. el {KEPT}")
    expect(note).not_to_contain_text("1. el kaydedildi")
    expect(note.get_by_role("button", name=re.compile("Geri al"))).to_have_count(0)

    enter_hand(page, NAMES, HANDS[2])
    expect(pending_rows(page)).to_have_count(2)
    expect(pending_rows(page).locator("th")).to_have_text(["2", "3"])
    expect(note).to_contain_text(f"3. el {KEPT}")
    # Still there after a reload from the worker's copy.
    page.reload()
    expect(page.get_by_text(OFFLINE_NOTE)).to_be_visible()
    expect(pending_rows(page).locator("th")).to_have_text(["2", "3"])
    expect(page.locator("#sheet tbody tr[data-hand]")).to_have_count(1)
    assert saved_sums(match) == [sums(HANDS[0])]
    assert blocking_violations(page) == []
    assert console.errors == []


def test_a_first_hand_saved_offline_waits_in_a_sheet_of_its_own(phone):
    page, _ = phone
    a_match_kept_for_offline(page)
    expect(page.locator("#sheet table.sheet")).to_have_count(0)  # no hand yet: no table

    go_offline(page)
    enter_hand(page, NAMES, HANDS[0])
    expect(pending_rows(page)).to_have_count(1)
    expect(pending_rows(page).locator("th")).to_have_text("1")
    expect(pending_rows(page)).to_contain_text("bekliyor")
    expect(page.locator("#saved-note")).to_contain_text(f"1. el {KEPT}")
    assert blocking_violations(page) == []


def test_on_reconnect_the_phone_says_its_hand_was_sent_and_the_real_row_takes_its_place(phone):
    page, console = phone
    match = the_second_hand_kept_offline(page)
    expect(pending_rows(page)).to_have_count(1)
    page.context.set_offline(False)

    note = page.locator("#saved-note")
    expect(note).to_contain_text("2. el gönderildi.", timeout=15_000)
    expect(note).not_to_contain_text("zaten")
    expect(page.locator("#sheet tbody tr[data-hand]")).to_have_count(2, timeout=15_000)
    expect(pending_rows(page)).to_have_count(0)
    expect(page.locator("#sheet tbody tr")).to_have_count(2)
    expect(page.locator("#entry-title")).to_have_text("3. el")
    # Exactly once, whichever of the page and the worker's Background Sync got there first.
    page.wait_for_timeout(1_000)
    assert saved_sums(match) == [sums(h) for h in HANDS[:2]]
    # A poll that met the network still coming back is htmx's to log; no script failed.
    assert [e for e in console.errors if "pageerror" in e] == []


def test_a_double_tap_online_is_still_told_already_saved(phone):
    """ "N. el gönderildi" is the outbox's word for its own hand: the same form sent twice from
    the page (a second tap that left before the first answer came) is still told the truth."""
    page, _ = phone
    start_match(page, NAMES, hands=5)
    match = Match.objects.get()
    token = page.locator("#hand-form input[name=request_token]").input_value()
    enter_hand(page, NAMES, HANDS[0])
    expect(page.locator("#saved-note")).to_contain_text("1. el kaydedildi.")
    page.locator("#hand-form input[name=request_token]").evaluate(
        "(input, token) => { input.value = token; }", token
    )
    enter_hand(page, NAMES, HANDS[0])
    expect(page.locator("#saved-note")).to_contain_text("Bu el zaten kaydedildi.")
    expect(page.locator("#saved-note")).not_to_contain_text("gönderildi")
    assert saved_sums(match) == [sums(HANDS[0])]


def opened_online(page, path: str, text: str) -> None:
    page.goto(path)
    expect(page.locator("h1")).to_contain_text(text)
    kept_for_offline(page, text)


def test_a_matchs_pages_opened_online_open_offline(phone):
    page, _ = phone
    start_match(page, NAMES, hands=5)
    match = Match.objects.get()
    enter_hand(page, NAMES, HANDS[0])
    expect(page.locator("#saved-note")).to_contain_text("1. el kaydedildi.")
    number = Hand.objects.get().number
    edit, view = f"/m/{match.edit_token}/", f"/v/{match.view_token}/"
    pages = [
        (f"{edit}gecmis/", "Geçmiş"),
        (f"{edit}el/{number}/", "1. el"),
        (f"{edit}kurallar/", match.rules_name),
        (f"{view}el/{number}/", "1. el"),
        (f"{view}kurallar/", match.rules_name),
    ]
    for path, heading in pages:
        opened_online(page, path, heading)

    page.context.set_offline(True)
    for path, heading in pages:
        page.goto(path)
        expect(page.locator("h1")).to_contain_text(heading)
        expect(page.get_by_text(OFFLINE_NOTE)).to_be_visible()


def cached_paths(page) -> list[str]:
    return page.evaluate(
        """async () => (await (await caches.open("cetele-pages")).keys())
            .map((request) => new URL(request.url).pathname)"""
    )


def test_deleting_a_match_on_the_phone_wipes_its_pages_kept_for_offline(phone):
    page, _ = phone
    start_match(page, NAMES, hands=5)
    match = Match.objects.get()
    enter_hand(page, NAMES, HANDS[0])
    expect(page.locator("#saved-note")).to_contain_text("1. el kaydedildi.")
    number = Hand.objects.get().number
    edit = f"/m/{match.edit_token}/"
    kept_for_offline(page, "1 / 5 el oynandı")
    opened_online(page, f"{edit}gecmis/", "Geçmiş")
    opened_online(page, f"{edit}el/{number}/", "1. el")
    opened_online(page, f"{edit}kurallar/", match.rules_name)
    page.goto(edit)
    assert {edit, f"{edit}gecmis/", f"{edit}el/{number}/", f"{edit}kurallar/"} <= set(
        cached_paths(page)
    )

    page.get_by_role("link", name="Maçı sil").click()
    page.get_by_label("Evet, silinsin. Bunun geri dönüşü yok.").check()
    page.get_by_role("button", name="Sil").click()
    expect(page.get_by_text("Maç silindi")).to_be_visible()
    wait_until(
        page,
        """async (prefix) => (await (await caches.open("cetele-pages")).keys())
            .every((request) => !new URL(request.url).pathname.startsWith(prefix))""",
        edit,
    )


def test_a_changed_link_takes_every_page_kept_under_it(phone):
    page, _ = phone
    start_match(page, NAMES, hands=5)
    match = Match.objects.get()
    old = f"/m/{match.edit_token}/"
    kept_for_offline(page)
    opened_online(page, f"{old}gecmis/", "Geçmiş")
    opened_online(page, f"{old}kurallar/", match.rules_name)
    match.rotate_token("edit")

    page.goto(f"{old}gecmis/")  # "Bu bağlantı değişti"
    expect(page.get_by_role("heading", name="Bu bağlantı değişti")).to_be_visible()
    assert [path for path in cached_paths(page) if path.startswith(old)] == []


def test_the_pages_own_requests_never_pass_the_worker(phone):
    """The worker keeps pages and static files; a poll every few seconds, a preview or a save
    goes straight to the network (sw.js, the Static Routing API), never waking it."""
    page, _ = phone
    start_match(page, NAMES, hands=5)
    kept_for_offline(page)
    answers = []
    page.on("response", lambda answer: answers.append(answer))
    page.reload()  # the worker now controls the page from its first request
    expect(page.locator("#sheet")).to_be_visible()

    enter_hand(page, NAMES, HANDS[0])  # previews and the save; the save asks for the sheet
    expect(page.locator("table.sheet tbody tr[data-hand]")).to_have_count(1)
    page.wait_for_timeout(500)

    static = [a for a in answers if "/static/" in a.url]
    own = [a for a in answers if a.request.resource_type in ("xhr", "fetch")]
    assert static and all(a.from_service_worker for a in static)  # the worker's own cache
    assert {a.request.method for a in own} == {"GET", "POST"}
    assert any("/poll/" in a.url for a in own)
    assert not [a.url for a in own if a.from_service_worker]


def type_part_of_the_next_hand(page) -> None:
    """Tap who finished and type one sum of the next hand, not saved."""
    page.locator("#seat-3 .finish").click()
    page.fill("#id_p1-remaining", "19")


def typed_hand_is_back_as_the_third(page) -> None:
    """The form is the third hand's, holding what type_part_of_the_next_hand typed."""
    expect(page.locator("#entry-title")).to_have_text("3. el")
    expect(page.locator("#hand-form input[name=finisher][value='3']")).to_be_checked()
    expect(page.locator("#id_p1-remaining")).to_have_value("19")


def test_the_next_hand_typed_behind_a_waiting_one_outlives_reloads_and_its_sending(phone):
    """Offline, a hand kept for sending and the next one half typed: a reload (the worker's
    copy) brings the typed part back at its place; the connection returning sends the kept hand
    and leaves the typed one as it was, and a reload then brings it back again."""
    page, console = phone
    match = the_second_hand_kept_offline(page)
    expect(page.locator("#entry-title")).to_have_text("3. el")
    type_part_of_the_next_hand(page)

    page.reload()
    expect(page.get_by_text(OFFLINE_NOTE)).to_be_visible()
    typed_hand_is_back_as_the_third(page)

    page.context.set_offline(False)
    expect(page.locator("[data-outbox]")).to_be_hidden(timeout=15_000)
    expect(page.locator("table.sheet tbody tr[data-hand]")).to_have_count(2)
    typed_hand_is_back_as_the_third(page)
    page.reload()
    typed_hand_is_back_as_the_third(page)
    assert saved_sums(match) == [sums(h) for h in HANDS[:2]]
    assert console.errors == []


def test_the_next_hand_typed_while_a_waiting_one_is_asked_about_comes_back_after_the_answer(
    phone, second_phone
):
    """A hand waits on the phone, the next one is half typed, and another phone has saved the
    waiting hand's place meanwhile: the player opens the question ("Göster") and answers it.
    What was typed for the next hand comes back in the form that follows, and after a reload."""
    page, console = phone
    other, _ = second_phone
    match = a_match_kept_for_offline(page)
    other.goto(page.url)
    go_offline(page)
    enter_hand(page, NAMES, HANDS[0])  # this phone's hand 1, waiting
    type_part_of_the_next_hand(page)  # and its next hand, half typed
    enter_hand(other, NAMES, HANDS[2])  # another phone saves hand 1
    expect(other.locator("#saved-note")).to_contain_text("1. el kaydedildi.")

    page.context.set_offline(False)
    outbox = page.locator("[data-outbox]")
    expect(outbox).to_contain_text("ne olacağını seçin", timeout=15_000)
    outbox.get_by_role("button", name="Göster").click()
    expect(page.locator("#hand-form")).to_contain_text("başka bir telefondan kaydedildi")
    page.get_by_role("button", name="Benimkini 2. el olarak ekle").click()
    expect(page.locator("table.sheet tbody tr[data-hand]")).to_have_count(2, timeout=15_000)

    typed_hand_is_back_as_the_third(page)
    page.reload()
    typed_hand_is_back_as_the_third(page)
    assert saved_sums(match) == [sums(HANDS[2]), sums(HANDS[0])]
    assert console.errors == []
