"""Real-browser fixtures: Playwright for Python driving Debian's chromium on a phone viewport.

Playwright never downloads a browser here: it launches Debian's build of Chromium's headless
shell (the package chromium-headless-shell, from the same sources and version as `chromium`),
the browser Playwright itself runs headless: the same Blink, V8 and network stack without the
desktop browser around them, at half the CPU a test (docs/decisions.md).
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from tests.conftest import require_or_skip

CHROMIUM = Path("/usr/lib/chromium/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "tr-TR",
}


@pytest.fixture(scope="session")
def browser() -> Iterator:
    require_or_skip(CHROMIUM.exists(), "Debian's chromium-headless-shell")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


# htmx logs a request it aborted (hx-sync "replace" or "queue last" dropping the one in flight
# for a newer one, a poll in flight when the page goes elsewhere) as an error, with the
# afterRequest that follows it: the app's own design, not a fault. A request that failed leaves
# its own line (htmx:sendError, htmx:responseError), which still counts.
ABORTED = ("htmx:sendAbort,", "htmx:afterRequest,")


class ConsoleWatcher:
    """Collects console errors and uncaught page errors, which a test then asserts are absent."""

    def __init__(self, page) -> None:
        self.errors: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))

    def _on_console(self, message) -> None:
        if message.type == "error" and not message.text.startswith(ABORTED):
            self.errors.append(f"console: {message.text}")


def open_phone(browser, live_server, request=None, **options) -> Iterator:
    """A fresh phone-sized browser context, nothing shared; yields (page, console watcher).
    `request`: the test's, whose markers say whether the phone runs the service worker
    (`with_worker`); `options`: more of Playwright's context options."""
    if request is not None and not with_worker(request):
        options.setdefault("service_workers", "block")
    context = browser.new_context(base_url=live_server.url, **PHONE, **options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    # A whole page load (a link followed, a form's redirect) is given longer: on a run whose six
    # legs share two slow cores, one took over 10 s (the PostgreSQL leg, 2026-12-04).
    page.set_default_navigation_timeout(20_000)
    yield page, ConsoleWatcher(page)
    context.close()


def with_worker(request) -> bool:
    """Whether the test's phones run the service worker: always on SQLite, where every browser
    test runs as a phone runs it; on PostgreSQL (make test's second browser leg) only in tests
    marked `worker`, which test what it does (offline copies, the outbox, installability).
    Elsewhere the worker is the same script on either database and sends the server nothing a
    page would not (the static files it keeps, the pages it keeps a copy of, as GETs), so the
    PostgreSQL leg leaves it out (two files measured there: 71 s of CPU with the worker, 52 s
    without)."""
    marked = request.node.get_closest_marker("worker") is not None
    return marked or connection.vendor != "postgresql"


@pytest.fixture
def phone(browser, live_server, request):
    yield from open_phone(browser, live_server, request)


@pytest.fixture
def second_phone(browser, live_server, request):
    """Another phone at the table (or at home)."""
    yield from open_phone(browser, live_server, request)


@pytest.fixture
def third_phone(browser, live_server, request):
    """A third phone: the whole table joins (tests/browser/seats/test_join_table.py)."""
    yield from open_phone(browser, live_server, request)


@pytest.fixture
def fourth_phone(browser, live_server, request):
    yield from open_phone(browser, live_server, request)


def pytest_collection_modifyitems(items) -> None:
    """Every test here is `browser`. Those also marked `races` run again on PostgreSQL
    (scripts/test.sh): two phones' writes meet (two hands for one place, a row at the save, a
    gösterge kept offline over the scorer's), or one write arrives twice (an answer lost, a tap
    kept offline), and the database's locks and constraints decide which stands. The rest
    draw, type and wait in the browser the same on either database, and every query their
    pages make runs on PostgreSQL in the web tests (tests/web, the `postgres` leg): run there
    again they cost the run a fifth of its CPU and tested nothing new (docs/performance.md)."""
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
