"""`make bench`: median server times of the pages that matter, each beside a minimal view.

One run on this machine: real gunicorn (DEBUG off, hashed compressed static files) on a
throw-away SQLite file, requests sent one at a time from 127.0.0.1 by a client that keeps its
cookies, as a phone does. Endpoints are measured in turn, round after round, so that a burst of
load from elsewhere on the machine hits them all alike; each is divided by the minimal Django
view (same server, same middleware) measured in the same rounds, and printed beside its goal.
A save waits for the disk (SQLite's WAL is fsync'ed at each commit): the minimal view that
commits one row is measured beside it, and the save's time apart from that fsync, i.e. save -
(that view - the minimal POST), is divided by the minimal POST. Then the scoring engine's own
benchmark.

    python -m bench.bench_server [--rounds 300] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.harness import (
    ROOT,
    Client,
    Gunicorn,
    encode_form,
    hand_form_data,
    prepare,
    sample_hand,
    seed_match,
    server_env,
)

SAVE_MATCHES = 20
# The goals, as ratios to the minimal view (issue 17).
GOALS = {
    "match page, 13 hands": 3,
    "view page, 13 hands": 2.5,
    "hand preview (HTMX)": 2.5,
    "poll, nothing changed": 1.2,
}


def seed(hand_counts: dict[str, int], save_matches: int) -> dict:
    """Matches made through the ORM (Match.start + add_hand with the engine's results)."""
    import django

    django.setup()
    from cetele.models import Match

    rng = random.Random(101)

    def match_with(hands: int, planned: int) -> Match:
        return seed_match(planned=planned, hands=hands, rng=rng)

    made = {name: match_with(count, count) for name, count in hand_counts.items()}
    made["preview"] = match_with(5, 13)
    made["saves"] = [match_with(13, 1000) for _ in range(save_matches)]
    from django.db import connections

    connections.close_all()
    return made


Send = Callable[[], tuple[int, dict, bytes]]


def timed(ready: Callable[[], Send], expect: set[int]) -> float:
    """One request's time, from sending it to its last byte. Its form is made and encoded
    before the clock starts: that is the client's work, not the server's."""
    send = ready()
    start = time.perf_counter()
    status, _, body = send()
    elapsed = time.perf_counter() - start
    if status not in expect:
        raise RuntimeError(f"unexpected status {status}: {body[:300]!r}")
    return elapsed * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_server")
    parser.add_argument("--rounds", type=int, default=300, help="requests per endpoint")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="cetele-bench-") as tmp:
        env = server_env(f"sqlite:///{tmp}/bench.sqlite3", Path(tmp) / "static")
        prepare(env)
        os.environ.update(env)
        print("seeding matches (13 and 200 hands) through the ORM ...", flush=True)
        matches = seed({"13": 13, "200": 200}, SAVE_MATCHES)
        rng = random.Random(7)
        with Gunicorn(env, workers=args.workers) as server:
            client = Client(server.port)
            page13 = f"/m/{matches['13'].edit_token}/"
            page200 = f"/m/{matches['200'].edit_token}/"
            preview_url = f"/m/{matches['preview'].edit_token}/el/"
            save_urls = [f"/m/{m.edit_token}/el/" for m in matches["saves"]]
            client.get(page13)  # the CSRF cookie, and the link's mark (cetele_links)
            client.get(f"/v/{matches['13'].view_token}/")
            view13 = f"/v/{matches['13'].view_token}/"
            # The form carries the hand's place ("6. el"), as the page writes it.
            preview_data = hand_form_data(sample_hand(rng)) | {"action": "preview", "position": "6"}
            preview_body = encode_form(preview_data)
            preview_headers = {"HX-Target": "hand-preview"}
            poll_url = f"/v/{matches['13'].view_token}/poll/?v={matches['13'].version}"
            has_poll = client.get(poll_url)[0] in (200, 204)

            saves = iter(range(10**9))
            played = dict.fromkeys(save_urls, 13)

            def save() -> Send:  # the next hand of the next match, sent when the clock starts
                url = save_urls[next(saves) % len(save_urls)]
                played[url] += 1
                form = hand_form_data(sample_hand(rng)) | {"position": str(played[url])}
                body = encode_form(form)
                return lambda: client.post(url, body, htmx=True)

            def get(path: str) -> Callable[[], Send]:
                return lambda: lambda: client.get(path)

            def post(path: str, body: bytes, **options) -> Callable[[], Send]:
                return lambda: lambda: client.post(path, body, **options)

            small = encode_form({"a": "b"})
            endpoints: dict[str, tuple[Callable[[], Send], set[int], str]] = {
                "minimal view GET": (get("/bench/minimal/"), {200}, ""),
                "minimal view POST": (post("/bench/minimal/", small), {200}, ""),
                "minimal view, 1 row committed": (post("/bench/minimal-write/", small), {200}, ""),
                "match page, 13 hands": (get(page13), {200}, "minimal view GET"),
                "view page, 13 hands": (get(view13), {200}, "minimal view GET"),
                "match page, 200 hands": (get(page200), {200}, "minimal view GET"),
                "hand preview (HTMX)": (
                    post(preview_url, preview_body, htmx=True, headers=preview_headers),
                    {200},
                    "minimal view POST",
                ),
                "hand save (HTMX)": (save, {200}, "minimal view POST"),
            }
            if has_poll:
                endpoints["poll, nothing changed"] = (get(poll_url), {204}, "minimal view GET")
            for ready, expect, _ in endpoints.values():  # warm up every worker
                for _ in range(10):
                    timed(ready, expect)
            samples: dict[str, list[float]] = {name: [] for name in endpoints}
            for _ in range(args.rounds):
                for name, (ready, expect, _) in endpoints.items():
                    samples[name].append(timed(ready, expect))

        medians = {name: statistics.median(values) for name, values in samples.items()}
        print()
        print(
            f"Server times: gunicorn -w {args.workers} sync, DEBUG off, SQLite, one request at a "
            f"time from 127.0.0.1, median of {args.rounds} each"
        )
        print(f"{'endpoint':<34}{'median ms':>10}{'minimal ms':>12}{'ratio':>8}{'goal':>8}")
        for name, (_, _, baseline) in endpoints.items():
            base = medians[baseline] if baseline else None
            ratio = f"{medians[name] / base:8.2f}" if base else ""
            goal = f"{'≤ ' + format(GOALS[name], 'g'):>8}" if name in GOALS else ""
            shown = f"{base:>12.2f}" if base else " " * 12
            print(f"{name:<34}{medians[name]:>10.2f}{shown}{ratio:>8}{goal}")
        fsync = medians["minimal view, 1 row committed"] - medians["minimal view POST"]
        apart = medians["hand save (HTMX)"] - fsync
        print(
            f"{'hand save apart from the fsync':<34}{apart:>10.2f}"
            f"{medians['minimal view POST']:>12.2f}{apart / medians['minimal view POST']:>8.2f}"
            f"{'≤ 3':>8}   (the fsync floor: {fsync:.2f} ms)"
        )
        if not has_poll:
            print("poll endpoint (/m/<token>/poll/) not there yet: not measured")
        print()
    print("Scoring engine (python -m scoring bench):", flush=True)
    return subprocess.run([sys.executable, "-m", "scoring", "bench"], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
