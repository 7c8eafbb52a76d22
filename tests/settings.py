"""Test settings: the real settings with a fixed key, plain HTTP and plain static storage."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-a-secret")
os.environ.setdefault("DJANGO_HTTPS", "0")

from cetele.settings import *  # noqa: E402, F403
from cetele.settings import STORAGES  # noqa: E402

# The manifest storage needs collectstatic to have run; tests don't run it.
STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# One test process: its own memory is the shared cache, where the admin login counts (as with
# DJANGO_CACHE_URL=locmem; tests/web/sharing/test_guess_limit_across_servers.py and
# test_guess_limits.py start real servers counting in the database, the default, and on Redis).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "sheets": SHEETS_CACHE,  # noqa: F405
    "forms": FORMS_CACHE,  # noqa: F405
}
CETELE_MISS_COUNTS = "cache"

# The joined phones' rows are asked for eight times as often as at a table (every 1 s, not 4;
# cetele.live.schedule.rows_every): the browser tests of the whole table wait for a row to
# arrive, not out a table's pace (the whole-table test once spent most of its 90 s so).
# tests/web/seats/test_joining_the_table.py checks the pace itself, at 1.
CETELE_ROWS_POLL_SPEEDUP = 8

# A write left unanswered is given up after 8 s, not 25 (offline.js, seats.js, tea.js): the
# browser tests of a hanging Wi-Fi wait that out, on each database. Still far longer than any
# answer a loaded test run gives.
CETELE_UNANSWERED_SECONDS = 8

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # The test database as production has it: a file (WAL, IMMEDIATE, busy timeout), not
    # Django's default shared-cache memory database, whose table locks fail at once ("database
    # table is locked") when a live server's thread and the test's own queries meet, as they do
    # on a busy machine. In memory all the same (/dev/shm), one per test process: the legs of
    # make test run side by side.
    import atexit  # noqa: E402
    import shutil  # noqa: E402
    import tempfile  # noqa: E402

    _folder = tempfile.mkdtemp(
        prefix="cetele-test-db.", dir="/dev/shm" if os.path.isdir("/dev/shm") else None
    )
    atexit.register(shutil.rmtree, _folder, True)  # with the -wal and -shm files beside it
    DATABASES["default"]["TEST"] = {"NAME": os.path.join(_folder, "test.sqlite3")}  # noqa: F405
