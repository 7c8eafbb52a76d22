"""Test settings: the real settings with a fixed key, plain HTTP and plain static storage."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-a-secret")
os.environ.setdefault("DJANGO_HTTPS", "0")

from cetele.settings import *  # noqa: E402, F403
from cetele.settings import STORAGES  # noqa: E402

# The manifest storage needs collectstatic to have run; tests don't run it.
STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# One test process: its own memory is the shared cache, where the limiter counts (as with
# DJANGO_CACHE_URL=locmem; tests/web/test_shared_cache.py and test_miss_counts.py start real
# servers counting in the database, the default, and on Redis).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "sheets": SHEETS_CACHE,  # noqa: F405
}
CETELE_MISS_COUNTS = "cache"
