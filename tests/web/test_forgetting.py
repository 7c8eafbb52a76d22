"""A deleted match leaves none of its pages in any process's memory (cetele.your_data.forgetting):
the
process that deleted it forgets at once, every other one within two seconds, a real gunicorn's
workers included. Before: each process kept the match's sheet, pages and players' fields, names
and all, for up to an hour after the deletion."""

import json
import time
from datetime import timedelta

import pytest
from django.core.cache import cache, caches
from django.utils import timezone
from django.utils.translation import override

from bench.harness import Client as PhoneClient
from bench.harness import Gunicorn, prepare, server_env
from cetele.live.board import SHEETS, board_key
from cetele.sharing.links import VIEW, link_context
from cetele.your_data.deletion import forget_unused
from cetele.your_data.forgetting import MARK, DeletionWatch
from tests.factories import make_match


@pytest.mark.django_db(transaction=True)  # the deletion's commit is what announces it
def test_the_process_that_deletes_a_match_forgets_its_pages_at_once(client):
    match = make_match(hands=2)
    client.get(f"/m/{match.edit_token}/")
    client.get(f"/v/{match.view_token}/")
    with override("tr"):
        sheet = board_key(match, link_context(match, VIEW))
    assert caches[SHEETS].get(sheet) is not None

    client.post(f"/m/{match.edit_token}/sil/", {"confirm": "on"})

    assert caches[SHEETS].get(sheet) is None


@pytest.mark.django_db(transaction=True)
def test_forget_unused_forgets_the_pages_of_what_it_deletes(client):
    match = make_match(hands=1)
    client.get(f"/v/{match.view_token}/")
    with override("tr"):
        sheet = board_key(match, link_context(match, VIEW))
    assert caches[SHEETS].get(sheet) is not None

    forget_unused(timezone.now() + timedelta(days=1))

    assert caches[SHEETS].get(sheet) is None


def test_a_process_forgets_when_another_announces_a_deletion():
    caches[SHEETS].set("canary", 1)
    watch = DeletionWatch(every=0.05)
    watch.start()
    try:
        time.sleep(0.2)
        assert caches[SHEETS].get("canary") == 1  # nothing announced: nothing forgotten
        cache.set(MARK, "another process deleted a match")
        deadline = time.monotonic() + 2
        while caches[SHEETS].get("canary") is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert caches[SHEETS].get("canary") is None
    finally:
        watch.stopped.set()
        watch.join()


def each_worker(port: int, workers: int) -> dict[int, dict]:
    """/bench/kept/ as each worker first answers it."""
    seen: dict[int, dict] = {}
    for _ in range(300):
        answer = json.loads(PhoneClient(port).get("/bench/kept/")[2])
        seen.setdefault(answer["pid"], answer)
        if len(seen) == workers:
            return seen
    raise AssertionError(f"only {len(seen)} of {workers} workers answered")


@pytest.mark.django_db(transaction=True)
def test_every_gunicorn_worker_forgets_a_deleted_match(tmp_path):
    env = server_env(f"sqlite:///{tmp_path}/db.sqlite3", tmp_path / "static")
    prepare(env, static=True)
    with Gunicorn(env, workers=2, log=tmp_path / "gunicorn.log") as server:
        scorer = PhoneClient(server.port)
        page = scorer.start_match(("Zerrin", "Ayşe", "Can", "Deniz"))
        for _ in range(100):  # until each worker has drawn the match's pages
            scorer.get(page)
            if all(a["canary_kept"] for a in each_worker(server.port, 2).values()):
                break
        before = each_worker(server.port, 2)  # each now holds the canary too
        assert all(answer["canary_kept"] for answer in before.values())

        status, _, _ = scorer.post(f"{page}sil/", {"confirm": "on"})
        deleted = time.monotonic()
        assert status in (302, 303)
        forgot: dict[int, float] = {}  # worker: seconds after the deletion it was seen empty
        while forgot.keys() != before.keys() and time.monotonic() < deleted + 10:
            for pid, answer in each_worker(server.port, 2).items():
                if not answer["canary_kept"]:
                    forgot.setdefault(pid, time.monotonic() - deleted)
            time.sleep(0.1)

    assert forgot.keys() == before.keys(), forgot
    assert max(forgot.values()) < 5, forgot  # a look each second (two under a loaded machine)
