"""Where a request's time goes: the endpoints of `make bench`, in one process under cProfile.

Django's own WSGI handler with the production settings (DEBUG off, every middleware), driven by
Django's test client on a throw-away SQLite file, so that what is left is the app's own work:

    python -m bench.profile KIND [--requests 300] [--sort tottime|cumulative] [--lines 40] [--cold]
    (KIND: match, match200, view, preview, save, poll, fastpoll, rows, joinrows, fastrows or
    minimal)
    python -m bench.profile all [--requests 300]   # no profiler: in-process medians, interleaved

Prints the mean time per request in this process (no server, no socket), then the profile.
--cold forgets the drawn sheets (cetele/matches/sheet.py) before each request: what a page costs the
first time its version is shown. `poll` is a poll through Django's request cycle (a phone whose
cookies the fast path does not take); `fastpoll` is the same poll through cetele.wsgi's fast path
(cetele/live/fastpoll.py), as nearly every poll of a live table is answered. `rows` and
`joinrows` are the open hand's rows with news (a row written since the page's versions), on the
scorer's page and on a joined phone's, three phones joined and two rows written: kept after the
first (cetele/seats/rows.py), drawn each time with --cold; `fastrows` is the rows' "nothing
changed" answer through the fast path.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from bench.harness import hand_form_data, prepare, sample_hand, seed_match, server_env

# As a browser and htmx send a form (the test client's default, multipart, costs more to parse).
FORM = "application/x-www-form-urlencoded"
KINDS = [
    "match",
    "match200",
    "view",
    "preview",
    "save",
    "poll",
    "fastpoll",
    "rows",
    "joinrows",
    "fastrows",
    "minimal",
]


def wsgi_get(application, path: str, query: str, cookies) -> int:
    """A GET through a WSGI application as gunicorn hands it one; returns the status."""
    import io

    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HX_REQUEST": "true",
        "HTTP_COOKIE": "; ".join(f"{name}={morsel.value}" for name, morsel in cookies.items()),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": io.StringIO(),
    }
    answer = []
    body = application(environ, lambda status, headers, exc_info=None: answer.append(status))
    b"".join(body)
    if hasattr(body, "close"):
        body.close()
    return int(answer[0].split()[0])


def interleaved(request, rounds: int) -> int:
    """Each kind in turn, round after round, without the profiler: medians and ratios of the
    CPU time each request takes (process time: on a busy machine, waiting is not counted)."""
    import statistics

    samples: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for round_ in range(rounds + 10):
        for kind in KINDS:
            started = time.process_time()
            status = request(kind)
            status = getattr(status, "status_code", status)
            if status not in (200, 204):
                raise RuntimeError(f"{kind} answered {status}")
            if round_ >= 10:  # the first rounds warm up
                samples[kind].append((time.process_time() - started) * 1000)
    minimal = statistics.median(samples["minimal"])
    for kind, values in samples.items():
        median = statistics.median(values)
        print(f"{kind:<10}{median:8.3f} ms CPU{median / minimal:8.2f} × minimal (in-process)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile")
    parser.add_argument("kind", choices=[*KINDS, "all"])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--sort", default="tottime", choices=["tottime", "cumulative"])
    parser.add_argument("--lines", type=int, default=40)
    parser.add_argument("--only", default="", help="a regular expression on file:function")
    parser.add_argument("--dump", default="", help="also write the profile to this file")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="forget drawn sheets before each request (cetele.matches.sheet)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cetele-profile-") as tmp:
        env = server_env(f"sqlite:///{tmp}/profile.sqlite3", Path(tmp) / "static")
        prepare(env)
        os.environ.update(env)
        import django

        django.setup()
        from django.test import Client

        rng = random.Random(3)
        thirteen = seed_match(planned=13, hands=13, rng=rng)
        big = seed_match(planned=200, hands=200, rng=rng)
        # Saves go round 20 matches of 13 hands, as in make bench, so that none grows far.
        saves = [seed_match(planned=10_000, hands=13, rng=rng) for _ in range(20)]
        turn = iter(range(10**9))
        played = {match.pk: 13 for match in saves}
        preview_match = seed_match(planned=13, hands=5, rng=rng)
        client = Client(HTTP_HOST="127.0.0.1")
        htmx = {"HTTP_HX_REQUEST": "true"}
        preview = hand_form_data(sample_hand(rng)) | {"action": "preview", "position": "6"}
        client.get(f"/v/{thirteen.view_token}/")  # a phone polls the page it opened: its cookie
        from cetele.seats.drafts import write_row

        joined = seed_match(planned=13, hands=5, rng=rng)
        joined_phone = Client(HTTP_HOST="127.0.0.1")
        for seat in (1, 2, 3):
            joined_phone.get(f"/k/{joined.join_token}/")
            joined_phone.post(f"/k/{joined.join_token}/", {"seat": str(seat)})
        for seat, remaining in ((1, 41), (2, 17)):
            write_row(joined, 6, seat, {"opened": "series", "remaining": remaining}, False)
        joined.refresh_from_db()
        client.get(f"/m/{joined.edit_token}/")  # the scorer's page, which asks for the rows
        rows_query = f"v={joined.version}&d={joined.draft_version - 1}&p=6"

        from django.core.handlers.wsgi import WSGIHandler

        from cetele.live.fastpoll import PollFastPath
        from cetele.your_data.forgetting import forget_kept

        fast = PollFastPath(WSGIHandler())

        def request(kind: str = args.kind):
            if args.cold:
                forget_kept()
            if kind == "match":
                return client.get(f"/m/{thirteen.edit_token}/")
            if kind == "match200":
                return client.get(f"/m/{big.edit_token}/")
            if kind == "view":
                return client.get(f"/v/{thirteen.view_token}/")
            if kind == "preview":
                return client.post(
                    f"/m/{preview_match.edit_token}/el/",
                    urlencode(preview),
                    content_type=FORM,
                    **htmx,
                    HTTP_HX_TARGET="hand-preview",
                )
            if kind == "save":
                match = saves[next(turn) % 20]
                played[match.pk] += 1  # the form carries the hand's place, as the page writes it
                form = hand_form_data(sample_hand(rng)) | {"position": str(played[match.pk])}
                return client.post(
                    f"/m/{match.edit_token}/el/",
                    urlencode(form),
                    content_type=FORM,
                    **htmx,
                )
            if kind == "poll":
                return client.get(f"/v/{thirteen.view_token}/poll/?v={thirteen.version}", **htmx)
            if kind == "rows":
                return client.get(f"/m/{joined.edit_token}/satirlar/?{rows_query}", **htmx)
            if kind == "joinrows":
                return joined_phone.get(f"/k/{joined.join_token}/satirlar/?{rows_query}", **htmx)
            if kind == "fastrows":
                path = f"/m/{joined.edit_token}/satirlar/"
                query = f"v={joined.version}&d={joined.draft_version}&p=6"
                return wsgi_get(fast, path, query, client.cookies)
            if kind == "fastpoll":
                path, query = f"/v/{thirteen.view_token}/poll/", f"v={thirteen.version}"
                return wsgi_get(fast, path, query, client.cookies)
            return client.get("/bench/minimal/")

        if args.kind == "all":
            return interleaved(request, args.requests)
        for _ in range(20):  # warm up: templates compiled, catalogues loaded
            status = request()
            status = getattr(status, "status_code", status)
        if status not in (200, 204):
            raise RuntimeError(f"{args.kind} answered {status}")
        started = time.perf_counter()
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.requests):
            request()
        profiler.disable()
        elapsed = (time.perf_counter() - started) / args.requests * 1000
        print(f"{args.kind}: {elapsed:.2f} ms a request in-process (profiled, so slower)")
        if args.dump:
            profiler.dump_stats(args.dump)
        stats = pstats.Stats(profiler)
        stats.sort_stats(args.sort).print_stats(*([args.only] if args.only else []), args.lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
