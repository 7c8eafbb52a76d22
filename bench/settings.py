"""The real settings, plus what benchmarks and fault tests need (never used in production).

ROOT_URLCONF adds /bench/minimal/, the baseline every server time is compared with.
CETELE_STATIC_ROOT      where collectstatic writes (a temporary folder, not the work tree).
CETELE_SQLITE_TIMEOUT   seconds a writer waits for SQLite's lock (fault tests make it small).
"""

import os

from cetele.settings import *  # noqa: F403
from cetele.settings import DATABASES, STATIC_ROOT

ROOT_URLCONF = "bench.urls"
STATIC_ROOT = os.environ.get("CETELE_STATIC_ROOT") or STATIC_ROOT

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" and os.environ.get(
    "CETELE_SQLITE_TIMEOUT"
):
    DATABASES["default"]["OPTIONS"]["timeout"] = float(os.environ["CETELE_SQLITE_TIMEOUT"])
