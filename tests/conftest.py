"""Shared test configuration."""

import os

import pytest


def require_or_skip(available: bool, what: str) -> None:
    """Skip loudly on a developer machine that lacks `what`; fail on CI, where no leg may skip."""
    if available:
        return
    message = f"{what} is not available on this machine"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI: {message}; this test leg may not skip.")
    pytest.skip(f"!!! SKIPPED: {message} (run `make test` as root to install it) !!!")


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Bad match links may be counted in the cache (cetele.sharing.links; in the database they go
    with the test's transaction): no test inherits another's misses, or a test that opens
    unknown links would make a later one see 429."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _default_language():
    """A request with the English cookie leaves English active in the thread (LocaleMiddleware
    activates, nothing deactivates): each test starts in the site's default language, Turkish,
    whatever ran before it."""
    yield
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
