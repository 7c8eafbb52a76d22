"""The stacks the load runs against (stack.py), push and polling side by side: for each number of
app servers, a stack that pushes and one that does not, both up for the whole run, each with its
own tables (a joined phone's seat stays taken). Their steps alternate, push then polling at each
table count, so that both meet the same load from the rest of the machine (it is shared: a
burst of someone else's work lands on both modes alike, not on a whole run of one of them). A
mode that did not carry a step twice stops there; the other goes on. Then the restart step, on
the push stack."""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.harness import Client
from bench.loadtest.checks import check_across_servers
from bench.loadtest.figures import MODES, Step, percentile, report, restart_lines
from bench.loadtest.machine import WaitSampler, cpu_seconds, cpu_used, postgres_pids
from bench.loadtest.push import Restart
from bench.loadtest.seed import seeded
from bench.loadtest.stack import Stack
from bench.loadtest.traffic import Load

try:
    import uvloop

    runner = uvloop.run
except ImportError:
    runner = asyncio.run


def minimal_median(port: int, requests: int = 400) -> float:
    """The minimal view's median (ms), one request at a time: today's speed of this machine."""
    client = Client(port)
    samples = []
    for _ in range(requests):
        started = time.perf_counter()
        status, _, _ = client.get("/bench/minimal/")
        samples.append((time.perf_counter() - started) * 1000)
        if status != 200:
            raise RuntimeError(f"the minimal view answered {status}")
    return statistics.median(samples[requests // 10 :])  # the first ones warm the workers up


@dataclass
class Run:
    """One mode's stack, tables and phones, and what its steps carried."""

    mode: str
    stack: Stack
    tables: list
    load: Load
    tournament_view: str = ""
    carried: int = 0
    carried_step: Step | None = None
    steady: int = 0  # the largest step carried once every phone had arrived (Step.steady_carried)
    retried: set[int] = field(default_factory=set)
    stopped: bool = False  # past its capacity: no more steps
    failures: list[str] = field(default_factory=list)
    restart: dict | None = None


def start_run(args, env, servers: int, directory: Path, mode: str) -> Run:
    stack = Stack(env, args, servers, directory, push=mode == "push").start()
    try:
        tables = seeded(args)
        client = Client(stack.port)
        page = client.get(f"/m/{tables[0].edit_token}/")[2]
        if (b'data-stream="/canli/' in page) != (mode == "push"):
            raise RuntimeError(f"{MODES[mode]}: the sheet's page does not carry what it should")
        status = client.get(f"/v/{tables[0].view_token}/poll/?v={tables[0].version}")[0]
        if status != 204:
            raise RuntimeError(f"the poll endpoint answered {status}, not 204")
    except BaseException:
        stack.stop()
        raise
    load = Load(stack.port, client.csrf, args, push=mode == "push")
    return Run(mode, stack, tables, load, tournament_view=args.tournament_view)


def measured(run: Run, step: Step, args, play) -> None:
    """Run `play` (a coroutine function) as a step of this run, with the CPU it cost."""
    stack, load = run.stack, run.load
    runner(load.join_for(step, run.tables))
    if run.tournament_view and not load.spectators:
        runner(load.open_tournament(run.tournament_view, args.spectators))
        print(f"{'':>14}{args.spectators} phones follow the tournament's view page")
    nginx_pids = stack.nginx.pids()
    app_pids = stack.app_pids() + nginx_pids
    side = ([] if args.database == "sqlite" else postgres_pids()) + args.side_pids
    server_before, side_before = cpu_seconds(app_pids), cpu_seconds(side)
    nginx_before = cpu_seconds(nginx_pids)
    client_before = time.process_time()
    load.server_pids = app_pids
    if args.wait_sample:
        workers = [pid for server in stack.servers for pid in server.pids()[1:]]
        with WaitSampler(workers) as sampler:
            runner(play())
        step.waits = sampler.summary()
    else:
        runner(play())
    nginx_pids = stack.nginx.pids()  # new ones after a restart
    server_after = cpu_seconds(stack.app_pids() + nginx_pids)
    step.server_cpu = cpu_used(server_before, server_after)
    step.nginx_cpu = cpu_used(nginx_before, cpu_seconds(nginx_pids))
    step.arrived_cpu_used = cpu_used(step.arrived_cpu, server_after)
    step.client_cpu = time.process_time() - client_before
    step.database_cpu = cpu_used(side_before, cpu_seconds(side))


def play_step(run: Run, count: int, args) -> None:
    """One step of `count` tables; once more if not carried (the machine may have been busy
    elsewhere), and the last of this mode if it fails again."""
    while True:
        step = Step(count, args.step_seconds)
        run.load.steps.append(step)
        print(f"{MODES[run.mode]}:", flush=True)
        measured(run, step, args, lambda step=step: run.load.run(step))
        passed = report(step, args.p95_ms)
        time.sleep(2)  # let the server settle between steps
        if step.steady_carried:
            run.steady = max(run.steady, count)
        if passed:
            run.carried, run.carried_step = count, step
            return
        if step.steady_carried:
            return  # past its whole-step capacity, not its steady one: the next step is asked
        if count in run.retried:
            run.stopped = True  # past capacity: more load would only pile up timeouts
            return
        run.retried.add(count)
        print(f"{'':>14}(once more, in case the machine was busy elsewhere)")


def restart_step(run: Run, args) -> dict:
    """The tables push carried (its largest step carried, over the whole step or once every
    phone had arrived; else its last step's) playing for --restart-seconds; halfway, nginx is
    stopped and started again. Returns what the phones did (figures.restart_lines). A restart
    past the server's capacity would measure only its backlog: its phones' asks, answered in
    seconds before the stop, are so after it too."""
    count = max(run.carried, run.steady) or len(run.load.live) or args.step_list[0]
    step = Step(count, args.restart_seconds)  # not in load.steps: its refusals are expected
    load, at = run.load, args.restart_seconds / 2
    restart = Restart()

    async def play() -> None:
        async def stop_and_start() -> None:
            await asyncio.sleep(at)
            restart.were_open = set(load.open_streams)
            restart.stopped_at = time.monotonic()
            load.restart = restart
            await asyncio.to_thread(run.stack.restart_nginx)
            restart.started_at = time.monotonic()

        await asyncio.gather(load.run(step, only=count), stop_and_start())

    print(f"{MODES[run.mode]}, restarting nginx {at:g} s in:", flush=True)
    measured(run, step, args, play)
    load.restart = None
    report(step, args.p95_ms)
    back = [restart.caught_up.get(phone, float("inf")) for phone in restart.were_open]
    before = [
        len(values)
        for second, values in step.by_second.items()
        if restart.stopped_at - 10 <= second < int(restart.stopped_at)
    ]
    result = {
        "tables": step.started_with,
        "at": at,
        "down": restart.started_at - restart.stopped_at,
        "were_open": len(restart.were_open),
        "reopened": len(restart.reopened),
        "last_open": max(restart.reopened.values(), default=restart.started_at)
        - restart.started_at,
        "every": (max(back) if back else restart.started_at) - restart.started_at,
        "median": (percentile(back, 0.5) if back else restart.started_at) - restart.started_at,
        "not_seen": sum(at == float("inf") for at in back),  # never seen up to date in the step
        "rate_before": sum(before) / len(before) if before else 0.0,
        "peak_after": max(
            (len(v) for s, v in step.by_second.items() if s >= int(restart.started_at)), default=0
        ),
        "refused": sum(step.errors.values()),
        "unseen": never_up_to_date(restart, load),
    }
    print("\n".join(restart_lines(result)))
    return result


def never_up_to_date(restart: Restart, load, most: int = 5) -> list[str]:
    """What the load client knows of each phone (up to `most`) not seen up to date after the
    restart: what it is, what it showed, its table's newest save and its stream's last message,
    in seconds from nginx's stop."""
    pages = [(table, phone) for table in load.live for phone in table.phones]
    pages += [(None, spectator.phone) for spectator in load.spectators]
    lines = []
    for table, phone in pages:
        if id(phone) not in restart.were_open or id(phone) in restart.caught_up:
            continue
        if len(lines) == most:
            break
        stop = restart.stopped_at
        parts = [f"role {phone.role or 'tournament'}", f"shows {phone.known}"]
        if phone.rows_url:
            parts.append(f"rows {phone.rows_url.partition('?')[2]}")
        if table is not None:
            version, at = max(table.saves, default=(table.version, stop))
            parts.append(f"its table's newest save {version} at {at - stop:+.2f} s")
        opened = restart.reopened.get(id(phone))
        parts.append(f"open again at {opened - stop:+.2f} s" if opened else "not open again")
        parts.append(f"owed an ask {phone.behind}")
        told_at, told = phone.told
        parts.append(f"last told {told.decode()!r} at {told_at - stop:+.2f} s" if told_at else "")
        lines.append(", ".join(part for part in parts if part))
    return lines


def run_stack(args, env, servers: int, directory: Path) -> dict[str, dict]:
    """One number of app servers: each mode's steps, alternating, then the restart; returns
    what each mode carried and measured."""
    runs: list[Run] = []
    try:
        for mode in args.modes:
            runs.append(start_run(args, env, servers, directory, mode))
        minimal = minimal_median(runs[0].stack.servers[0].port)
        polling = (
            f"polling every {args.poll_every:g} s"
            if args.poll_every
            else "polling on app.js's schedule"
        )
        front = f"{servers} app server(s)" if servers > 1 else "one app server"
        print(
            f"\n{args.database}, {front} behind nginx (nchan, each link to one process), each "
            f"{args.workers} gunicorn process(es) {args.worker_class}"
            f"{f' --threads {args.threads}' if args.threads > 1 else ''}, "
            f"cache {args.cache}; per table: a save every {args.save_every:g} s with "
            f"{'a preview a tap' if args.previews is None else f'{args.previews} previews'} in "
            f"the {args.entry_seconds:g} s before it, a correction "
            f"in {args.corrections:.0%} of hands, {args.viewers + 1} phones on push (a stream "
            f"each, asking once on each message) or {polling}, each reloading "
            f"{args.reloads_per_minute:g} times a minute; tables arriving "
            + (
                f"{args.arrivals_per_minute:g} a minute"
                if args.arrivals_per_minute >= 0
                else f"as {args.match_hands}-hand matches end"
            )
            + f"; {args.step_seconds:g} s per step, "
            + " and ".join(MODES[run.mode] for run in runs)
            + f" alternating; client {'uvloop' if runner is not asyncio.run else 'asyncio'} on "
            f"the same machine\nminimal view median (one request at a time): {minimal:.2f} ms",
            flush=True,
        )
        for count in args.step_list:
            for run in runs:
                if not run.stopped:
                    play_step(run, count, args)
        for run in runs:
            if run.mode == "push" and args.restart_seconds:
                run.restart = restart_step(run, args)
            # A table whose phones opened their pages (the seeded tables past the last step
            # played never did): the limiter's check needs one of their cookies.
            opened = [table for table in run.tables if table.phones]
            if args.balancer and opened:
                run.failures += check_across_servers(run.stack, opened[-1], run.load)
    finally:
        for run in runs:
            run.stack.stop()
    results = {}
    for run in runs:
        log = run.stack.logs()
        if "Traceback" in log:
            print(f"{MODES[run.mode]}: the server logged errors:\n" + log[-3000:])
            run.failures.append(f"{MODES[run.mode]}: the server logged a traceback")
        nginx_log = run.stack.nginx.directory / "nginx-error.log"
        if nginx_log.exists() and "exited on signal" in nginx_log.read_text(errors="replace"):
            run.failures.append(f"{MODES[run.mode]}: an nginx worker died")
        results[run.mode] = {
            "servers": servers,
            "carried": run.carried,
            "steady": run.steady,
            "step": run.carried_step,
            "minimal": minimal,
            "load": run.load,
            "failures": run.failures,
            "restart": run.restart,
        }
    return results
