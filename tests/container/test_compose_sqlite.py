"""compose.sqlite.yaml, the one-machine shape: the same image with its SQLite file in the volume
`data`, which the app's own user (not root) must be able to write, behind the same nginx; a match
and a hand saved, a save reaching its page's stream within a second, and a backup taken into the
volume while it runs, as docs/self-hosting.md says."""

import os
import random
import shlex

import pytest

from bench.harness import hand_form_data, sample_hand
from tests.container.stack import (
    A_SECOND,
    PORT,
    Phone,
    a_save_reaches_the_stream,
    run_compose,
    wait_until_healthy,
)

COMMAND = shlex.split(os.environ.get("CETELE_COMPOSE_SQLITE", ""))


def compose(*args: str, timeout: float = 120) -> str:
    return run_compose(COMMAND, *args, timeout=timeout)


@pytest.fixture(scope="module")
def stack():
    compose("up", "-d", timeout=300)
    try:
        print(f"\n   SQLite shape healthy {wait_until_healthy():.1f} s after up")
        yield
    finally:
        compose("down", "-v", "-t", "5")


def test_a_hand_is_saved_in_the_volume_and_backed_up_beside_it(stack):
    phone = Phone(PORT)
    match = phone.start_match()

    status, _, _ = phone.post(match + "el/", hand_form_data(sample_hand(random.Random(3))))

    assert status in (302, 303), status
    assert phone.get(match + "el/1/")[0] == 200
    delay = a_save_reaches_the_stream(phone, match, seed=4)
    print(f"\n   a save reached its page's stream {delay * 1000:.0f} ms after it was answered")
    assert delay < A_SECOND
    printed = compose(
        "exec", "-T", "app", "python", "manage.py", "backup", "/data/backups/cetele-test.sqlite3"
    )
    assert "1 matches, 2 hands, integrity ok." in printed
