"""Fixtures for the tests that start real servers (tests/web/sharing/test_guess_limits.py,
tests/web/sharing/test_guess_limit_across_servers.py)."""

import shutil
import time
from pathlib import Path

import pytest

from bench.harness import RedisServer, prepare, server_env
from cetele.shell.wrong_passwords import current_window
from tests.conftest import require_or_skip


@pytest.fixture(scope="session")
def admin_static_root(tmp_path_factory) -> Path:
    """static_root with the admin on (its login page's styles): for the servers whose admin
    login counts wrong passwords (sharing/test_guess_limits.py,
    sharing/test_guess_limit_across_servers.py)."""
    from tests.web.shell.test_admin import ADMIN_PATH

    root = tmp_path_factory.mktemp("static-admin")
    database = f"sqlite:///{tmp_path_factory.mktemp('db')}/static.sqlite3"
    prepare(server_env(database, root, DJANGO_ADMIN_PATH=ADMIN_PATH), static=True)
    return root


@pytest.fixture
def redis_url(tmp_path):
    require_or_skip(shutil.which("redis-server") is not None, "redis-server (Debian package)")
    with RedisServer(tmp_path) as redis:
        yield redis.url


@pytest.fixture
def whole_window():
    """Start in a counting window with time to spare, for a test whose servers (gunicorn) count
    wrong passwords: they count per fixed 10-minute window on the real clock, and a test whose
    misses straddle two windows would see its count start again (the limiter's real behaviour, not
    what these tests are about). Waits at most a minute. (In this process each test is held in
    one window: tests/conftest.py.)"""
    left = current_window()[1]
    if left < 60:
        time.sleep(left + 0.5)
