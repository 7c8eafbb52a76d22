"""The scoring tests need no Django: they must also run with `-p no:django`."""

import pytest


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Overrides tests/conftest.py's cache reset: the engine has no cache to reset."""
