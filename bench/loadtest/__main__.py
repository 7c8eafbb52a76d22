"""`python -m bench.loadtest` (make loadtest): the command line. Parses the options, runs each
stack (bench/loadtest/stacks.py: push and polling side by side, then nginx restarted), then the
exactly-once check over all of them and each stack's summary against the issue's goals; exits 1
when a check failed.

    python -m bench.loadtest [--database sqlite|postgres] [--workers 2] [--worker-class gthread]
                             [--threads 4] [--steps 1000,2000,3000,4000,5000,6000]
                             [--step-seconds 30] [--servers 1,2 --balancer --cache redis]
                             [--live push,poll] [--restart-seconds 40] [--wait-sample]
                             [--commit-probe]
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
from pathlib import Path

from bench.harness import RedisServer, prepare, server_env
from bench.loadtest.checks import check_hands
from bench.loadtest.commit_probe import commit_probe
from bench.loadtest.figures import MODES, summary
from bench.loadtest.stacks import run_stack

MAX_STREAMS = 18_000  # one process may hold 20,000 files here (ulimit -Hn): the client's streams


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench.loadtest")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-class", default="gthread", choices=["sync", "gthread"])
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--steps", default="1000,2000,3000,4000,5000,6000")
    parser.add_argument("--step-seconds", type=float, default=30)
    parser.add_argument("--save-every", type=float, default=300)
    parser.add_argument(
        "--poll-every", type=float, default=0, help="fixed poll interval; 0: app.js's schedule"
    )
    parser.add_argument("--viewers", type=int, default=3)
    parser.add_argument(
        "--joined",
        type=float,
        default=0.25,
        help="share of tables whose --viewers are the players' own phones (Masaya katıl)",
    )
    parser.add_argument(
        "--previews",
        type=int,
        default=None,
        help="previews per hand; default: one a tap (a sum typed is one, about 4 a hand)",
    )
    parser.add_argument(
        "--entry-seconds",
        type=float,
        default=120,
        help="the previews come in this long before a save",
    )
    parser.add_argument(
        "--corrections", type=float, default=0.1, help="share of hands with a correction"
    )
    parser.add_argument(
        "--reloads-per-minute", type=float, default=0.03, help="page reloads per phone a minute"
    )
    parser.add_argument(
        "--arrivals-per-minute",
        type=float,
        default=-1,
        help="new tables a minute (default: a table's match of --match-hands ends as one begins)",
    )
    parser.add_argument("--match-hands", type=int, default=13, help="hands of a new match")
    parser.add_argument("--hands", type=int, default=3, help="hands already played per table")
    parser.add_argument(
        "--commit-probe",
        action="store_true",
        help="only measure SQLite commits on this disk (synchronous FULL and NORMAL), then stop",
    )
    parser.add_argument(
        "--wait-sample",
        action="store_true",
        help="sample where the app servers' threads are (running, GIL, fsync, …) every 10 ms",
    )
    parser.add_argument(
        "--tournament",
        type=int,
        default=0,
        help="also a café tournament of this many eşli teams playing (e.g. 64): its first game "
        "at each of --tournament-tables tables is one of the live tables, and --spectators "
        "phones follow its view page",
    )
    parser.add_argument("--tournament-tables", type=int, default=16)
    parser.add_argument("--spectators", type=int, default=40)
    parser.add_argument("--p95-ms", type=float, default=100)
    parser.add_argument("--servers", default="1", help="app servers, e.g. 1,2 (one stack each)")
    parser.add_argument(
        "--balancer",
        action="store_true",
        help="the scaled-out stack: several app servers (nginx is always in front), checked "
        "across servers after the load",
    )
    parser.add_argument("--cache", choices=["db", "redis", "locmem"], default="db")
    parser.add_argument(
        "--live",
        choices=["push,poll", "push", "poll"],
        default="push,poll",
        help="how phones learn of a change: push (a stream from nginx's nchan), polling (the "
        "app without a publisher), or both side by side, their steps alternating",
    )
    parser.add_argument(
        "--restart-seconds",
        type=float,
        default=40,
        help="after the steps, tables play on push this long and nginx is stopped and started "
        "halfway (0: no restart step)",
    )
    return parser


def stacks_asked(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[int]:
    """The stacks to run (app servers in each), once the options are checked (bounded runs)."""
    args.step_list = [int(n) for n in args.steps.split(",")]
    stacks = [int(n) for n in args.servers.split(",")]
    if not all(0 < n <= 20000 for n in args.step_list) or not 0 < args.step_seconds <= 120:
        parser.error("steps must be 1..20000 tables and at most 120 s each")
    if not all(1 <= n <= 4 for n in stacks) or (max(stacks) > 1 and not args.balancer):
        parser.error("--servers: 1 to 4, and more than one needs --balancer")
    if not 0 <= args.restart_seconds <= 120:
        parser.error("--restart-seconds: at most 120")
    args.modes = args.live.split(",")
    phones = max(args.step_list) * (args.viewers + 1) + args.spectators * bool(args.tournament)
    if "push" in args.modes and phones > MAX_STREAMS:
        parser.error(
            f"push: at most {MAX_STREAMS:,} phones (the client holds a connection for each)"
        )
    return stacks


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    stacks = stacks_asked(parser, args)
    if args.commit_probe:
        with tempfile.TemporaryDirectory(prefix="cetele-commits-") as tmp:
            commit_probe(Path(tmp))
        return 0
    # Terminated (a timeout, ^C from make): unwind, so that every server started is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="cetele-load-") as tmp:
        if args.database == "postgres":
            database_url = os.environ.get("DATABASE_URL", "")
            if not database_url.startswith("postgres"):
                parser.error("--database postgres needs DATABASE_URL (scripts/with-postgres.sh)")
        else:
            database_url = f"sqlite:///{tmp}/load.sqlite3"
        redis = RedisServer(Path(tmp)).start() if args.cache == "redis" else None
        args.side_pids = [redis.process.pid] if redis else []
        try:
            cache_url = redis.url if redis else args.cache
            env = server_env(database_url, Path(tmp) / "static", DJANGO_CACHE_URL=cache_url)
            prepare(env)
            os.environ.update(env)
            # Each stack and mode plays tables of its own (stacks.py seeds them): a joined
            # phone's seat stays taken after its stack ends, so another stack's phones, asking
            # for the same seats, would be told "this name is taken" (409) at every joined table.
            results = [run_stack(args, env, n, Path(tmp)) for n in stacks]
        finally:
            if redis:
                redis.stop()
        return check_all(results, args)


def check_all(results: list[dict[str, dict]], args: argparse.Namespace) -> int:
    """The exactly-once check over every stack's phones (both modes: their hands are in one
    database), then each stack's summary; 1 when any check failed."""
    loads = [r["load"] for stack in results for r in stack.values()]
    found = check_hands(
        set().union(*(load.sent for load in loads)),
        [token for load in loads for token in load.acknowledged],
        set().union(*(load.corrections_sent for load in loads)),
        [token for load in loads for token in load.corrections_acknowledged],
    )
    errors = sum(sum(s.errors.values()) for load in loads for s in load.steps)
    print(
        f"\nhands: {sum(len(load.sent) for load in loads)} sent, "
        f"{sum(len(load.acknowledged) for load in loads)} acknowledged, {found['lost']} lost, "
        f"{found['duplicated']} duplicated, {found['not sent']} not sent by anyone; "
        f"corrections: {sum(len(load.corrections_sent) for load in loads)} sent, "
        f"{sum(len(load.corrections_acknowledged) for load in loads)} acknowledged, "
        f"{found['corrections lost']} lost, {found['corrections doubled']} doubled, "
        f"{found['corrections not sent']} not sent by anyone; "
        f"{errors} request errors in all (steps past capacity included)"
    )
    failures = [f for stack in results for r in stack.values() for f in r["failures"]]
    failures += [f"{n} {what}" for what, n in found.items() if n]
    for stack in results:
        first = next(iter(stack.values()))
        where = f"{first['servers']} app server(s)" if first["servers"] > 1 else "one app server"
        print(
            f"\n{args.database}, {where} behind nginx, "
            + " and ".join(MODES[mode] for mode in stack)
            + f" (minimal view median at the start {first['minimal']:.2f} ms):"
        )
        print("\n".join(summary(stack, args)))
    for failure in failures:
        print(f"FAILED: {failure}")
    return 0 if not failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
