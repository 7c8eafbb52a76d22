"""What serving a request costs the app server at all, by how many arrive a second.

    python -m bench.floor [--rates 200,500,1000] [--seconds 8] [--worker-class gthread]
                          [--workers 2] [--threads 4] [--server gunicorn|granian|both]

Four kinds of request, each at fixed rates, open-loop and on a new connection each (as
bench/loadtest/'s phones send them), against gunicorn with the load test's defaults (2 gthread
workers × 4 threads: `make serve` on 2 cores):
- an application that only answers 204 (bench.floor:bare): gunicorn and the operating system;
- the minimal Django view (/bench/minimal/): Django's whole request cycle around nothing;
- a live poll whose match has not changed, as a phone that opened the page sends it: the fast
  path (cetele/live/fastpoll.py), nearly every request of a live table that polls;
- and a match's page as a phone loads it (what push leaves of a live table's requests, with the
  saves and previews).
For each it prints the server's CPU (every server process, from /proc) divided by the requests.
`--server both` runs gunicorn and granian (Rust I/O, its WSGI interface, the same workers ×
threads) in turn, kind by kind: issue 53 asks whether granian's lower floor pays. Measured here, a
request's cost falls as the rate rises (likely: at a low rate each one wakes the server from idle,
at a high one a wake-up serves several). docs/performance.md ("Where the time goes") reads these
figures: about half of a "nothing changed" poll's cost is paid whatever the app does.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from pathlib import Path

from bench.harness import Client, Gunicorn, prepare, server_env
from bench.loadtest.machine import cpu_seconds, cpu_used


def bare(environ, start_response):
    """The least a WSGI application can answer: the floor under every request."""
    start_response("204 No Content", [])
    return []


async def send(port: int, request: bytes) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await reader.read()  # to the end: the request asks the server to close
    writer.close()


async def at_rate(port: int, request: bytes, rate: int, seconds: float) -> int:
    """Send `rate` requests a second for `seconds`, each on its clock whatever the answers."""
    count, started, sent = int(rate * seconds), time.monotonic(), []
    for n in range(count):
        await asyncio.sleep(max(0.0, started + n / rate - time.monotonic()))
        sent.append(asyncio.create_task(send(port, request)))
    await asyncio.gather(*sent)
    return count


def measure(server: Gunicorn, label: str, path: str, cookies: dict, args) -> None:
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        + (f"Cookie: {cookie}\r\n" if cookie else "")
        + "\r\n"
    ).encode()
    status, _, _ = Client(server.port).request("GET", path, headers={"Cookie": cookie})
    for rate in args.rates:
        before = cpu_seconds(server.pids())
        count = asyncio.run(at_rate(server.port, request, rate, args.seconds))
        cpu = cpu_used(before, cpu_seconds(server.pids()))
        print(
            f"{label:<44}{status:>4}{rate:>8}/s{cpu / args.seconds:>8.2f} cores"
            f"{1000 * cpu / count:>10.3f} ms a request"
        )


class Granian(Gunicorn):
    """granian's WSGI server in place of gunicorn: the same workers, its blocking threads as
    gunicorn's gthread threads."""

    def __init__(self, env: dict[str, str], app: str = "cetele.wsgi:application", **config):
        super().__init__(env)
        self.args = [
            sys.executable, "-m", "granian", "--interface", "wsgi", app,
            "--host", "127.0.0.1", "--port", str(self.port),
            "--workers", str(config["workers"]), "--blocking-threads", str(config["threads"]),
            "--backlog", "4096", "--no-log",
        ]  # fmt: skip


def servers(env: dict, args, app: str) -> list[Gunicorn]:
    """The servers asked for, each serving `app`, in the order they are measured."""
    config = {"workers": args.workers, "threads": args.threads}
    found = []
    if args.server in ("gunicorn", "both"):
        found.append(Gunicorn(env, app=app, worker_class=args.worker_class, **config))
    if args.server in ("granian", "both"):
        found.append(Granian(env, app=app.replace(".wsgi", ".wsgi:application"), **config))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", default="200,500,1000")
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--worker-class", default="gthread", choices=["sync", "gthread"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--server", default="gunicorn", choices=["gunicorn", "granian", "both"])
    args = parser.parse_args()
    args.rates = [int(rate) for rate in args.rates.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="cetele-floor."))
    env = server_env(f"sqlite:///{folder / 'db.sqlite3'}", folder / "static")
    prepare(env)
    print(f"{args.workers} workers × {args.threads} threads (gunicorn: {args.worker_class})")
    print(f"{'request':<44}{'':>4}{'rate':>10}{'server':>14}{'CPU':>19}")
    for server in servers(env, args, "bench.floor:bare"):
        server.ready = ("/", 204)  # it has no other page
        with server:
            measure(server, f"{kind(server)}: bare WSGI application", "/", {}, args)
    for server in servers(env, args, "cetele.wsgi"):
        with server:
            name = kind(server)
            measure(server, f"{name}: minimal Django view", "/bench/minimal/", {}, args)
            phone = Client(server.port)
            sheet = phone.start_match()
            page = phone.get(sheet)[2].decode()
            poll = re.search(r'hx-get="(/m/[^"]+/poll/\?v=\d+)"', page)
            measure(
                server, f"{name}: live poll, nothing changed", poll.group(1), phone.cookies, args
            )
            measure(server, f"{name}: a match's page", sheet, phone.cookies, args)


def kind(server: Gunicorn) -> str:
    return "granian" if isinstance(server, Granian) else "gunicorn"


if __name__ == "__main__":
    main()
