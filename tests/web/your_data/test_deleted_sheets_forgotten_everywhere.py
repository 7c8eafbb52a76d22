"""A deleted match leaves no sheet of it, names and all, in any process's memory
(cetele.your_data.forgetting): the process that deleted it forgets at once, every other one within
two seconds, a real gunicorn's workers included; and no phone is ever shown it again."""

import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.core.cache import cache, caches
from django.utils import timezone
from django.utils.translation import override

from bench.harness import Client as PhoneClient
from bench.harness import Gunicorn, prepare, server_env
from cetele.live.kept import FORMS, SHEETS
from cetele.matches.sheet import board_key
from cetele.sharing.links import VIEW, link_context
from cetele.your_data.deletion import forget_unused
from cetele.your_data.forgetting import MARK, DeletionWatch
from tests.factories import make_match


def view_sheet_key(match) -> str:
    with override("tr"):
        return board_key(match, link_context(match, VIEW))


@pytest.mark.django_db(transaction=True)  # the deletion's commit is what announces it
def test_the_process_that_deletes_a_match_forgets_its_sheet_at_once(client):
    match = make_match(hands=2)
    client.get(f"/m/{match.edit_token}/")
    watcher = client.get(f"/v/{match.view_token}/").content.decode()
    assert "Ali" in watcher and caches[SHEETS].get(view_sheet_key(match)) is not None
    caches[FORMS].set("the-next-hands-empty-fields", "Ali")  # where they are kept: named too

    client.post(f"/m/{match.edit_token}/sil/", {"confirm": "on"})

    assert caches[SHEETS].get(view_sheet_key(match)) is None
    assert caches[FORMS].get("the-next-hands-empty-fields") is None
    for url in (f"/v/{match.view_token}/", f"/m/{match.edit_token}/"):
        answer = client.get(url)
        assert answer.status_code in (404, 410) and "Ali" not in answer.content.decode()


@pytest.mark.django_db(transaction=True)
def test_forget_unused_forgets_the_sheets_of_what_it_deletes(client):
    match = make_match(hands=1)
    client.get(f"/v/{match.view_token}/")
    assert caches[SHEETS].get(view_sheet_key(match)) is not None

    forget_unused(timezone.now() + timedelta(days=1))

    assert caches[SHEETS].get(view_sheet_key(match)) is None


@pytest.mark.django_db(transaction=True)
def test_a_process_forgets_when_another_announces_a_deletion(client):
    match = make_match(hands=1)
    client.get(f"/v/{match.view_token}/")
    watch = DeletionWatch(every=0.05)
    watch.start()
    try:
        time.sleep(0.2)
        assert caches[SHEETS].get(view_sheet_key(match)) is not None  # nothing announced yet
        cache.set(MARK, "another process deleted a match")
        deadline = time.monotonic() + 2
        while caches[SHEETS].get(view_sheet_key(match)) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert caches[SHEETS].get(view_sheet_key(match)) is None
    finally:
        watch.stopped.set()
        watch.join()


def each_worker(port: int, workers: int, query: str) -> dict[int, dict]:
    """/bench/kept/?<query> as each worker first answers it. Asked `workers` at a time: one
    request after another, an idle machine let one worker take every connection (300 times)."""

    def ask(_) -> dict:
        return json.loads(PhoneClient(port).get(f"/bench/kept/?{query}")[2])

    seen: dict[int, dict] = {}
    with ThreadPoolExecutor(workers) as pool:
        for _ in range(300):
            for answer in pool.map(ask, range(workers)):
                seen.setdefault(answer["pid"], answer)
            if len(seen) == workers:
                return seen
    raise AssertionError(f"only {len(seen)} of {workers} workers answered")


@pytest.mark.django_db(transaction=True)
def test_no_gunicorn_worker_keeps_or_shows_a_deleted_match_s_sheet(tmp_path):
    env = server_env(f"sqlite:///{tmp_path}/db.sqlite3", tmp_path / "static")
    prepare(env, static=True)
    with Gunicorn(env, workers=2, log=tmp_path / "gunicorn.log") as server:
        scorer = PhoneClient(server.port)
        page = scorer.start_match(("Zerrin", "Ayşe", "Can", "Deniz"))
        share = scorer.get(f"{page}paylas/")[2].decode()
        view = re.search(r"/v/([A-Za-z0-9_-]{22,64})/", share)[1]
        watchers = [PhoneClient(server.port) for _ in range(6)]
        before: dict[int, dict] = {}
        for _ in range(100):  # until each worker has drawn the view link's sheet
            for watcher in watchers:
                assert "Zerrin" in watcher.get(f"/v/{view}/")[2].decode()
            before = each_worker(server.port, 2, f"view={view}")
            if all(answer["kept"] for answer in before.values()):
                break
        assert all(answer["kept"] for answer in before.values()), before
        key = next(iter(before.values()))["key"]

        status, _, _ = scorer.post(f"{page}sil/", {"confirm": "on"})
        deleted = time.monotonic()
        assert status in (302, 303)
        forgot: dict[int, float] = {}  # worker: seconds after the deletion it was seen empty
        while forgot.keys() != before.keys() and time.monotonic() < deleted + 10:
            for pid, answer in each_worker(server.port, 2, f"key={key}").items():
                if not answer["kept"]:
                    forgot.setdefault(pid, time.monotonic() - deleted)
            time.sleep(0.1)
        for watcher in watchers:  # whichever worker answers, and however it is asked
            for url in (f"/v/{view}/", f"/v/{view}/poll/?v=1"):
                assert "Zerrin" not in watcher.get(url)[2].decode()

    assert forgot.keys() == before.keys(), forgot
    assert max(forgot.values()) < 5, forgot  # a look each second (two under a loaded machine)
