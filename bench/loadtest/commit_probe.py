"""`--commit-probe`: what a SQLite commit costs this disk and what concurrent writers wait, with
synchronous=FULL (the app's) and NORMAL; no app involved."""

from __future__ import annotations

import time
from pathlib import Path

from bench.loadtest.figures import percentile


def commit_probe(directory: Path, writers: int = 8, commits: int = 40) -> None:
    """What a commit costs this disk, and what writers wait for one another, in WAL mode with
    synchronous=FULL (the app's) and NORMAL: one writer alone, then `writers` threads at once,
    each reading then writing in a BEGIN IMMEDIATE transaction with the app's 20 s timeout, as
    a save does. SQLite only (the sqlite3 module, a throw-away file): no app involved."""
    import sqlite3
    import threading

    def connect(sync: str):
        db = sqlite3.connect(
            directory / f"probe-{sync}.sqlite3",
            timeout=20,
            isolation_level=None,
            check_same_thread=False,
        )
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={sync}")
        db.execute("CREATE TABLE IF NOT EXISTS probe (n INTEGER, s TEXT)")
        return db

    def figures(values: list[float]) -> str:
        return (
            f"p50 {percentile(values, 0.5):.2f}  p95 {percentile(values, 0.95):.2f}  "
            f"max {max(values):.1f} ms"
        )

    for sync in ("FULL", "NORMAL"):
        db, alone = connect(sync), []
        for n in range(300):
            started = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO probe VALUES (?, ?)", (n, "x" * 500))
            db.execute("COMMIT")
            alone.append((time.perf_counter() - started) * 1000)
        waits: list[float] = []

        def writer(sync: str = sync, waits: list[float] = waits) -> None:
            db = connect(sync)
            for n in range(commits):
                started = time.perf_counter()
                db.execute("BEGIN IMMEDIATE")
                waits.append((time.perf_counter() - started) * 1000)
                db.execute("SELECT count(*) FROM probe")
                db.execute("INSERT INTO probe VALUES (?, ?)", (n, "x" * 500))
                db.execute("COMMIT")
                time.sleep(0.005)

        threads = [threading.Thread(target=writer) for _ in range(writers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(
            f"synchronous={sync:<6} a commit alone: {figures(alone)};  {writers} writers at "
            f"once, waiting for the write lock: {figures(waits)}"
        )
