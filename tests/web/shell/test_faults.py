"""Faults against a real gunicorn on a real SQLite file (WAL): a crash in the middle of saves, a
retried request, a database locked past the timeout, a full disk.

The server runs as in production (DEBUG off, bench.settings = the real settings plus a minimal
view and an adjustable busy timeout); the database is checked afterwards with sqlite3 itself.
"""

import contextlib
import errno
import http.client
import os
import random
import re
import socket
import sqlite3
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from bench.harness import Client, Gunicorn, hand_form_data, prepare, sample_hand, server_env
from tests.conftest import require_or_skip

SAVED = {302, 303}
REFUSED_MESSAGE = "El kaydedilemedi: sunucu şu an veritabanına yazamıyor."


def new_server(db: Path, static_root: Path, log: Path, **env) -> Gunicorn:
    server_environment = server_env(f"sqlite:///{db}", static_root, **env)
    prepare(server_environment, static=False)
    return Gunicorn(server_environment, workers=2, log=log)


def integrity(db: Path) -> str:
    with contextlib.closing(sqlite3.connect(db)) as connection:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]


def saved_tokens(db: Path) -> list[str]:
    """The request token of every hand added, once per hand row that it created."""
    with contextlib.closing(sqlite3.connect(db)) as connection:
        rows = connection.execute(
            """SELECT c.request_token FROM cetele_change c
               JOIN cetele_hand h ON h.match_id = c.match_id AND h.number = c.hand_number
               WHERE c.action = 'create'"""
        ).fetchall()
        hands = connection.execute("SELECT count(*) FROM cetele_hand").fetchone()[0]
    assert hands == len(rows), "a hand without its history entry"
    return [token for (token,) in rows]


def hand_count(db: Path) -> int:
    with contextlib.closing(sqlite3.connect(db)) as connection:
        return connection.execute("SELECT count(*) FROM cetele_hand").fetchone()[0]


def test_a_crash_in_the_middle_of_saves_loses_no_acknowledged_hand(tmp_path, static_root):
    db = tmp_path / "crash.sqlite3"
    server = new_server(db, static_root, tmp_path / "gunicorn.log").start()
    acknowledged: list[str] = []
    in_flight: dict[str, tuple[str, dict]] = {}  # token -> (url, form): sent, never answered
    lock = threading.Lock()
    stop = threading.Event()

    def table(seed: int) -> None:
        rng = random.Random(seed)
        client = Client(server.port, timeout=10)
        try:
            while not stop.is_set():
                url = client.start_match() + "el/"
                for _ in range(13):
                    form = hand_form_data(sample_hand(rng))
                    token = form["request_token"]
                    with lock:
                        in_flight[token] = (url, form)
                    status, _, body = client.post(url, form)
                    assert status in SAVED, body[:500]
                    with lock:
                        del in_flight[token]
                        acknowledged.append(token)
        except (OSError, http.client.HTTPException):
            # The server died under us (refused, reset, or cut off mid-answer: IncompleteRead):
            # what was in flight was never acknowledged.
            return

    tables = [threading.Thread(target=table, args=(seed,)) for seed in range(4)]
    for thread in tables:
        thread.start()
    # Wait for 30 saves, not for a fixed time: a busy machine (CI ran the legs side by side)
    # acknowledged 24 in the 10 s this once waited.
    deadline = time.monotonic() + 90
    while len(acknowledged) < 30 and time.monotonic() < deadline:
        time.sleep(0.05)
    server.kill()
    stop.set()
    for thread in tables:
        thread.join(timeout=15)

    assert len(acknowledged) >= 30, "the server was killed before 30 saves were answered"
    assert integrity(db) == "ok"
    tokens = saved_tokens(db)
    assert len(tokens) == len(set(tokens)), "a hand saved twice"
    assert set(acknowledged) <= set(tokens), "an acknowledged hand was lost"
    assert set(tokens) <= set(acknowledged) | set(in_flight), "a hand nobody sent"

    # After the restart, the phones retry what was in flight: nothing is saved twice.
    with new_server(db, static_root, tmp_path / "gunicorn.log") as restarted:
        client = Client(restarted.port)
        client.get("/")
        for url, form in in_flight.values():
            status, _, _ = client.post(url, form)
            assert status in SAVED
    tokens = saved_tokens(db)
    assert sorted(tokens) == sorted(set(acknowledged) | set(in_flight))
    assert integrity(db) == "ok"


def send_and_hang_up(port: int, path: str, form: dict, csrf: str) -> None:
    """A phone whose request times out: it sends the save and never reads the answer."""
    body = urlencode(form).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\nCookie: csrftoken={csrf}\r\nX-CSRFToken: {csrf}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(head + body)
        sock.shutdown(socket.SHUT_WR)


def test_a_request_retried_after_a_timeout_creates_no_duplicate(tmp_path, static_root):
    db = tmp_path / "retry.sqlite3"
    with new_server(db, static_root, tmp_path / "gunicorn.log") as server:
        client = Client(server.port)
        url = client.start_match() + "el/"
        form = hand_form_data(sample_hand(random.Random(1)))

        send_and_hang_up(server.port, url, form, client.csrf)
        deadline = time.monotonic() + 10
        while hand_count(db) == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        retried = client.post(url, form, htmx=True)
        again = client.post(url, form)
        # Two phones (or a double tap) sending the same form at the same moment.
        twin = hand_form_data(sample_hand(random.Random(2)))
        twin_answers = []

        def phone() -> None:
            other = Client(server.port)
            other.csrf = client.csrf
            twin_answers.append(other.post(url, twin)[0])

        threads = [threading.Thread(target=phone) for _ in "ab"]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    assert retried[0] == 200
    assert again[0] in SAVED
    assert sorted(twin_answers) == [302, 302]  # one saved, one "already saved": both go on
    assert sorted(saved_tokens(db)) == sorted([form["request_token"], twin["request_token"]])


def typed_input_kept(body: bytes, form: dict) -> None:
    """The re-rendered form holds what the user typed, and the same one-time token."""
    html = body.decode()
    for seat in range(4):
        name = f"p{seat}-remaining"
        value = form.get(name)  # a player who did not open has no sum
        if value:
            assert re.search(rf'name="{name}"[^>]*value="{value}"', html), name
    assert f'value="{form["request_token"]}"' in html
    assert re.search(rf'name="finisher" value="{form["finisher"]}"[^>]*checked', html)


def test_a_locked_database_says_so_and_keeps_the_input(tmp_path, static_root):
    db = tmp_path / "locked.sqlite3"
    with new_server(
        db, static_root, tmp_path / "gunicorn.log", CETELE_SQLITE_TIMEOUT="0.3"
    ) as server:
        client = Client(server.port)
        page = client.start_match()
        url = page + "el/"
        form = hand_form_data(sample_hand(random.Random(3)))
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another writer holding the lock past the timeout
        try:
            htmx = client.post(url, form, htmx=True)
            plain = client.post(url, form)
            reading = client.get(page)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert hand_count(db) == 0
        retried = client.post(url, form)

    assert htmx[0] == 200
    assert REFUSED_MESSAGE in htmx[2].decode()
    assert "<html" not in htmx[2].decode()
    typed_input_kept(htmx[2], form)
    assert plain[0] == 503
    assert REFUSED_MESSAGE in plain[2].decode()
    typed_input_kept(plain[2], form)
    assert reading[0] == 200  # WAL: reading goes on beside a writer
    assert retried[0] in SAVED
    assert saved_tokens(db) == [form["request_token"]]


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MB tmpfs: a disk that the test can fill (needs root and mount, as here and on CI)."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount_point)],
        capture_output=True,
    )
    require_or_skip(mounted.returncode == 0, "mounting a tmpfs (root)")
    yield mount_point
    subprocess.run(["umount", "-l", str(mount_point)], check=False)


def fill(folder: Path) -> Path:
    """Write zeros until the disk says "no space left"."""
    filler = folder / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (1 << 16, 1 << 12, 1 << 9, 1):
            try:
                while os.write(descriptor, b"\0" * size):
                    pass
            except OSError as error:
                assert error.errno == errno.ENOSPC
    finally:
        os.close(descriptor)
    return filler


def test_a_full_disk_says_so_and_keeps_the_input(tmp_path, static_root, small_disk):
    db = small_disk / "full.sqlite3"
    with new_server(db, static_root, tmp_path / "gunicorn.log") as server:
        client = Client(server.port)
        page = client.start_match()
        url = page + "el/"
        form = hand_form_data(sample_hand(random.Random(4)))
        filler = fill(small_disk)
        try:
            htmx = client.post(url, form, htmx=True)
            plain = client.post(url, form)
            reading = client.get(page)
        finally:
            os.unlink(filler)
        retried = client.post(url, form)
        after = client.post(url, hand_form_data(sample_hand(random.Random(5))), htmx=True)

    assert htmx[0] == 200, htmx[2][:500]
    assert REFUSED_MESSAGE in htmx[2].decode()
    typed_input_kept(htmx[2], form)
    assert plain[0] == 503
    typed_input_kept(plain[2], form)
    assert reading[0] == 200
    assert retried[0] in SAVED
    assert after[0] == 200
    assert len(saved_tokens(db)) == 2
    assert integrity(db) == "ok"


def test_two_phones_saving_the_same_place_at_once_get_one_saved_and_one_told(tmp_path, static_root):
    """Two phones send a hand for the same place at the same moment, rounds over: one is saved,
    the other is told another phone saved that place (and keeps its input), never "already
    saved" for a hand that was not. SQLite's IMMEDIATE transaction makes the second wait until
    the first is written; tests/web/hand_form/test_hand_entry.py holds PostgreSQL to the same."""
    db = tmp_path / "same-place.sqlite3"
    with new_server(db, static_root, tmp_path / "gunicorn.log") as server:
        scorer = Client(server.port)
        url = scorer.start_match() + "el/"
        phones = [Client(server.port), Client(server.port)]
        for phone in phones:
            phone.cookies = dict(scorer.cookies)
        for place in range(1, 9):
            forms = [
                hand_form_data(sample_hand(random.Random(place * 10 + n))) | {"position": place}
                for n in range(2)
            ]
            start = threading.Barrier(2)
            answers: list = [None, None]

            def send(n: int, start: threading.Barrier, form: dict, answers: list) -> None:
                start.wait()
                answers[n] = phones[n].post(url, form, htmx=True)

            threads = [
                threading.Thread(target=send, args=(n, start, forms[n], answers)) for n in range(2)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

            saved = [
                n for n in range(2) if "cetele:hand-saved" in answers[n][1].get("hx-trigger", "")
            ]
            assert len(saved) == 1, [a[1].get("hx-trigger") for a in answers]
            told = answers[1 - saved[0]]
            assert told[0] == 200
            assert f"{place}. el az önce başka bir telefondan kaydedildi." in told[2].decode()
            typed_input_kept(told[2], forms[1 - saved[0]])
            assert hand_count(db) == place
        saved_now = saved_tokens(db)
    assert len(saved_now) == 8 and integrity(db) == "ok"


def undo_change_of(page_html: str) -> str:
    """The change the "Geri al" beside the sheet names, as the page drew it."""
    form = page_html.split('/geri-al/"')[1].split("</form>")[0]
    return re.search(r'name="change" value="(\d+)"', form).group(1)


def test_many_parallel_taps_on_one_geri_al_undo_one_change(tmp_path, static_root):
    """Phones tapping the same "Geri al" at once (a double tap, a retried request, the same
    page on two phones): one change is undone and every tap gets an answer, never a 500."""
    db = tmp_path / "undo.sqlite3"
    with new_server(db, static_root, tmp_path / "gunicorn.log") as server:
        scorer = Client(server.port)
        page = scorer.start_match()
        for n in range(3):
            form = hand_form_data(sample_hand(random.Random(n))) | {"position": n + 1}
            assert scorer.post(page + "el/", form)[0] in SAVED
        change = undo_change_of(scorer.get(page)[2].decode())
        start = threading.Barrier(8)
        answers: list = []

        def tap() -> None:
            phone = Client(server.port)
            phone.cookies = dict(scorer.cookies)
            start.wait()
            answers.append(phone.post(page + "geri-al/", {"change": change})[0])

        threads = [threading.Thread(target=tap) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert answers == [302] * 8
    assert hand_count(db) == 2
    with contextlib.closing(sqlite3.connect(db)) as connection:
        undos = connection.execute("SELECT count(*) FROM cetele_change WHERE action = 'undo'")
        assert undos.fetchone()[0] == 1


def test_corrections_and_deletions_racing_an_undo_are_answered_with_a_sentence(
    tmp_path, static_root
):
    """One phone corrects or deletes the last hand while another undoes its adding: a page
    (200 or a redirect) every time, never a 500; a correction that lost keeps its typing."""
    db = tmp_path / "race.sqlite3"
    with new_server(db, static_root, tmp_path / "gunicorn.log") as server:
        scorer = Client(server.port)
        page = scorer.start_match()
        answers: list = []
        for place in range(1, 9):
            form = hand_form_data(sample_hand(random.Random(place)))
            assert scorer.post(page + "el/", form | {"position": hand_count(db) + 1})[0] in SAVED
            html = scorer.get(page)[2].decode()
            change = undo_change_of(html)
            number = re.findall(r'data-hand="(\d+)"', html)[-1]
            typed = hand_form_data(sample_hand(random.Random(100 + place))) | {"version": "1"}
            if place % 2:
                other = (f"{page}el/{number}/sil/", {})
            else:
                other = (f"{page}el/{number}/duzelt/", typed)
            start = threading.Barrier(2)

            def send(path: str, form: dict, start=start) -> None:
                phone = Client(server.port)
                phone.cookies = dict(scorer.cookies)
                start.wait()
                answers.append(phone.post(path, form))

            threads = [
                threading.Thread(target=send, args=(page + "geri-al/", {"change": change})),
                threading.Thread(target=send, args=other),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    assert {status for status, _, _ in answers} <= {200, 302}, [a[0] for a in answers]
    told = [body.decode() for status, _, body in answers if status == 200]
    assert all("silindi ya da geri alındı" in html for html in told)


def test_a_locked_database_refuses_every_write_with_a_sentence_not_a_500(tmp_path, static_root):
    """Renaming, undo, starting or deleting a match, deleting a hand, and opening a page not
    opened for a day (which records the visit), while another writer holds the database past
    the timeout: our answer, the form as typed where there is one, and nothing changed."""
    db = tmp_path / "locked-writes.sqlite3"
    with new_server(
        db, static_root, tmp_path / "gunicorn.log", CETELE_SQLITE_TIMEOUT="0.3"
    ) as server:
        client = Client(server.port)
        page = client.start_match()
        assert client.post(page + "el/", hand_form_data(sample_hand(random.Random(1))))[0] in SAVED
        change = undo_change_of(client.get(page)[2].decode())
        with contextlib.closing(sqlite3.connect(db)) as connection:
            connection.execute("UPDATE cetele_match SET touched_at = '2020-01-01 00:00:00'")
            connection.commit()
        names = {"seat_0": "Zeynep", "seat_1": "Bora", "seat_2": "Cem", "seat_3": "Deniz"}
        new = {"name_1": "Ece", "name_2": "Fikret", "name_3": "Gül", "name_4": "Hakan"}
        new |= {"preset": "cetele-standart", "cezali": "1", "planned_hands": "5"}
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            opened = client.get(page)
            renamed = client.post(page + "oyuncular/", names)
            undone = client.post(page + "geri-al/", {"change": change})
            started = client.post("/yeni/", new)
            hand_deleted = client.post(page + "el/1/sil/", {})
            match_deleted = client.post(page + "sil/", {"confirm": "on"})
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        retried = client.post(page + "geri-al/", {"change": change})

    assert opened[0] == 200  # a visit that cannot be recorded is left for the next one
    answers = {
        "renamed": renamed,
        "undone": undone,
        "started": started,
        "hand deleted": hand_deleted,
        "match deleted": match_deleted,
    }
    for what, answer in answers.items():
        assert answer[0] == 503, (what, answer[0])
        assert "kaydedilemedi" in answer[2].decode().lower()
    assert 'value="Zeynep"' in renamed[2].decode()  # the form as typed
    assert 'value="Ece"' in started[2].decode()
    assert retried[0] in SAVED  # tapping again later is safe
    assert hand_count(db) == 0
    with contextlib.closing(sqlite3.connect(db)) as connection:
        assert connection.execute("SELECT count(*) FROM cetele_match").fetchone()[0] == 1
        names_now = connection.execute("SELECT name FROM cetele_player ORDER BY seat").fetchall()
        assert names_now[0] == ("Ayşe",)
