"""The tournament engine's tests need no Django, as the scoring engine's do not."""

import pytest


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Overrides tests/conftest.py's cache reset: the engine has no cache to reset."""
