"""Shared test configuration."""

import os
from pathlib import Path

import pytest

from bench.harness import prepare, server_env

# pytest-django's ways of asking for its test database: the marker, or one of these fixtures
# (or a fixture that uses one, such as admin_client: item.fixturenames holds the whole closure).
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def require_or_skip(available: bool, what: str) -> None:
    """Skip loudly on a developer machine that lacks `what`; fail on CI, where no leg may skip."""
    if available:
        return
    message = f"{what} is not available on this machine"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI: {message}; this test leg may not skip.")
    pytest.skip(f"!!! SKIPPED: {message} (run `make test` as root to install it) !!!")


@pytest.fixture(scope="session")
def static_root(tmp_path_factory) -> Path:
    """collectstatic once for the run, for the tests that start real servers (they only read
    it): they run with DEBUG off."""
    root = tmp_path_factory.mktemp("static")
    env = server_env(f"sqlite:///{tmp_path_factory.mktemp('db')}/static.sqlite3", root)
    prepare(env, static=True)
    return root


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Wrong admin passwords may be counted in the cache (cetele.shell.wrong_passwords; in the
    database they go with the test's transaction): no test inherits another's, or a later test's
    admin login would see 429."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _one_counting_window(monkeypatch) -> None:
    """Wrong admin passwords are counted per fixed 10-minute window
    (cetele.shell.wrong_passwords.current_window): a test whose misses straddle two windows sees its
    count start again, which is the limiter's real behaviour but not what any test in this
    process is about. Each test is held in the
    window it starts in, however long a loaded machine makes it take: three make test runs saw
    an address's count start again between its 20th and 21st miss (404 where 429 was due),
    although each test began with a minute to spare. Servers of their own (gunicorn) keep the
    real clock: their tests wait for time to spare in one window (tests/web/conftest.py:
    whole_window)."""
    from cetele.shell import wrong_passwords

    window = wrong_passwords.current_window()
    monkeypatch.setattr(wrong_passwords, "current_window", lambda: window)


@pytest.fixture(autouse=True)
def _default_language():
    """A request with the English cookie leaves English active in the thread (LocaleMiddleware
    activates, nothing deactivates): each test starts in the site's default language, Turkish,
    whatever ran before it."""
    yield
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


def pytest_collection_modifyitems(items) -> None:
    """Mark `database` every test that uses pytest-django's test database (the marker or one of
    its fixtures: without them pytest-django refuses any query). Tests that start servers of their
    own on DATABASE_URL carry the marker by hand. The PostgreSQL leg (scripts/test.sh) runs
    `-m database`: what runs no query on the leg's database (the engine, parsers, servers on
    their own SQLite files) would only repeat the SQLite leg."""
    for item in items:
        if item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames):
            item.add_marker(pytest.mark.database)
