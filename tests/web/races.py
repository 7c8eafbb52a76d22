"""The harness of the race tests that run for real (tests/web/seats/test_join_link_races.py,
tournaments/test_organiser_races.py, tea/test_write_races.py,
seats/test_rows_at_the_save_races.py): a gunicorn with several workers, each phone a client of
its own, requests released at the same moment (`at_once`, also for the in-process races of
tests/web/seats/test_seat_races.py), and a match with a joined phone (`a_table`, also for
tests/web/bench/test_loadtest_checks.py).

The server's database is a SQLite file, or the PostgreSQL of scripts/with-postgres.sh when it runs
the tests: a race test is marked `pytest.mark.database` so that it runs on both legs.
"""

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.harness import Client, Gunicorn, prepare, server_env
from bench.loadtest.page import JOIN_LINK

# Bora's row for the first hand, as his joined phone sends it: "Seri 20".
ROW = {"position": "1", "row-opened": "series", "row-remaining": "20"}
ROW |= {"row-okeys": "0", "row-fake_okeys": "0"}


def database_url(tmp_path: Path) -> str:
    """The PostgreSQL of scripts/with-postgres.sh when it runs the tests, else a SQLite file."""
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith("postgres") else f"sqlite:///{tmp_path}/races.sqlite3"


@contextmanager
def race_server(tmp_path: Path, static_root: Path, workers: int) -> Iterator[Gunicorn]:
    """A production-like gunicorn on a migrated database, stopped when the block ends."""
    env = server_env(database_url(tmp_path), static_root)
    prepare(env, static=False)
    with Gunicorn(env, workers=workers, log=tmp_path / "gunicorn.log") as running:
        yield running


def at_once(*calls: Callable[[], Any], after: Callable[[], None] | None = None) -> list:
    """Run the calls in threads released together; their answers in order. `after` runs in each
    thread once its call is done, even if it raised (in-process races close the database
    connection Django opened for the thread: tests/web/seats/test_seat_races.py)."""
    start = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)

    def run(index: int, call) -> None:
        start.wait()
        try:
            answers[index] = call()
        finally:
            if after is not None:
                after()

    threads = [threading.Thread(target=run, args=(n, call)) for n, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def same_phone(phone: Client) -> Client:
    """The same phone (its cookies) sending a request of its own: another tab, or a second tap
    at the same moment."""
    other = Client(phone.port)
    other.cookies = dict(phone.cookies)
    return other


def a_table(port: int) -> tuple[Client, str, Client, str]:
    """A new match and Bora's phone joined to it: (scorer, edit path, phone, join path)."""
    scorer = Client(port)
    edit = scorer.start_match()
    join = "/k/" + JOIN_LINK.search(scorer.get(edit + "paylas/")[2].decode())[1] + "/"
    phone = Client(port)
    phone.get(join)
    status, _, _ = phone.post(join, {"seat": "1"})
    assert status == 302, status
    return scorer, edit, phone, join
