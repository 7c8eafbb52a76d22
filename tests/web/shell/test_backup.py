"""`manage.py backup` while a real gunicorn saves hands, then `manage.py restore`
(docs/deployment.md, "Backups on SQLite"). The copy must be one consistent instant: intact, every
hand with its history entry.
"""

import contextlib
import random
import sqlite3
import subprocess
import sys
import threading
import time

from bench.harness import ROOT, Client, Gunicorn, hand_form_data, prepare, sample_hand, server_env


def manage(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def content(db) -> dict:
    with contextlib.closing(sqlite3.connect(db)) as connection:
        integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
        hands = connection.execute("SELECT match_id, number FROM cetele_hand").fetchall()
        created = connection.execute(
            """SELECT c.match_id, c.hand_number FROM cetele_change c
               JOIN cetele_hand h ON h.match_id = c.match_id AND h.number = c.hand_number
               WHERE c.action = 'create'"""
        ).fetchall()
        journal = connection.execute("PRAGMA journal_mode").fetchone()[0]
    return {
        "integrity": integrity,
        "hands": sorted(hands),
        "created": sorted(created),
        "journal": journal,
    }


def test_a_backup_taken_during_saves_is_consistent_and_restores(tmp_path):
    db = tmp_path / "live.sqlite3"
    copy = tmp_path / "backup.sqlite3"
    env = server_env(f"sqlite:///{db}", tmp_path / "static", DJANGO_DEBUG="1")
    prepare(env, static=False)
    stop = threading.Event()
    saved = []

    with Gunicorn(env, workers=2, log=tmp_path / "gunicorn.log") as server:

        def table(seed: int) -> None:
            rng = random.Random(seed)
            client = Client(server.port)
            while not stop.is_set():
                url = client.start_match() + "el/"
                for _ in range(13):
                    status = client.post(url, hand_form_data(sample_hand(rng)))[0]
                    assert status in {302, 303}
                    saved.append(url)
                    if stop.is_set():
                        return

        tables = [threading.Thread(target=table, args=(seed,)) for seed in range(3)]
        for thread in tables:
            thread.start()

        def wait_for(count: int) -> None:
            """Until `count` hands are saved; a table that stopped fails the test, not hangs it."""
            deadline = time.monotonic() + 60
            while len(saved) < count:
                assert all(thread.is_alive() for thread in tables), "a table stopped saving"
                assert time.monotonic() < deadline, f"{len(saved)} hands saved in 60 s"
                stop.wait(0.05)

        wait_for(20)
        backed_up = manage(env, "backup", str(copy))
        wait_for(40)
        stop.set()
        for thread in tables:
            thread.join()

        assert backed_up.returncode == 0, backed_up.stderr
        assert "integrity ok" in backed_up.stdout
        snapshot = content(copy)
        live = content(db)
        assert snapshot["integrity"] == "ok"
        assert snapshot["journal"] == "delete"  # one self-contained file
        assert snapshot["hands"] == snapshot["created"]  # no hand without its history entry
        assert 20 <= len(snapshot["hands"]) < len(live["hands"])
        assert set(snapshot["hands"]) <= set(live["hands"])

        refused = manage(env, "backup", str(copy))
        assert refused.returncode != 0 and "exists" in refused.stderr

        restored = manage(env, "restore", "--yes", str(copy))
        assert restored.returncode == 0, restored.stderr
        assert content(db)["hands"] == snapshot["hands"]
        assert content(db)["integrity"] == "ok"
        # The running server now serves the restored database.
        client = Client(server.port)
        assert client.get("/")[0] == 200
        url = client.start_match() + "el/"
        assert client.post(url, hand_form_data(sample_hand(random.Random(9))))[0] in {302, 303}
    assert len(content(db)["hands"]) == len(snapshot["hands"]) + 1


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path):
    db = tmp_path / "live.sqlite3"
    env = server_env(f"sqlite:///{db}", tmp_path / "static", DJANGO_DEBUG="1")
    prepare(env, static=False)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database" * 100)

    refused = manage(env, "restore", "--yes", str(junk))

    assert refused.returncode != 0
    assert "not a Çetele backup" in refused.stderr
    assert content(db)["integrity"] == "ok"
