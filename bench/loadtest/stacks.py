"""The stacks the load runs against (gunicorn app servers, behind nginx when scaled out, via
bench/harness.py) and one stack's run: the minimal view's median first, then the steps, each
reported, until one is not carried twice."""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path

from bench.harness import Client, EventServer
from bench.loadtest.checks import check_across_servers
from bench.loadtest.figures import Step, percentile, report
from bench.loadtest.machine import WaitSampler, cpu_seconds, cpu_used, postgres_pids
from bench.loadtest.stack import Stack
from bench.loadtest.traffic import Load


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


def run_stack(args, env, tables, servers: int, directory: Path) -> dict:
    """One stack's steps; returns what it carried and measured."""
    stack = Stack(env, args, servers, args.balancer, directory).start()
    events = None
    if args.live == "sse":
        events = EventServer(env, workers=args.workers, log=directory / "events.log").start()
    try:
        client = Client(stack.port)
        client.get(f"/m/{tables[0].edit_token}/")
        status = client.get(f"/v/{tables[0].view_token}/poll/?v={tables[0].version}")[0]
        if status != 204:
            raise RuntimeError(f"the poll endpoint answered {status}, not 204")
        minimal = minimal_median(stack.servers[0].port)
        try:
            import uvloop

            runner = uvloop.run
        except ImportError:
            runner = asyncio.run
        load = Load(stack.port, client.csrf, args, events.port if events else 0)
        polling = (
            f"polling every {args.poll_every:g} s"
            if args.poll_every
            else "polling on app.js's schedule"
        )
        if events:
            polling = (
                f"on server-sent events (bench/events.py, uvicorn -w {args.workers}), "
                "fetching the sheet at each new version"
            )
        front = f"{servers} app server(s) behind nginx" if args.balancer else "one app server"
        print(
            f"\n{args.database}, {front}, each gunicorn -w {args.workers} {args.worker_class}"
            f"{f' --threads {args.threads}' if args.threads > 1 else ''}, cache {args.cache}; "
            f"per table: a save every {args.save_every:g} s with {args.previews} previews in "
            f"the {args.entry_seconds:g} s before it, a correction in {args.corrections:.0%} "
            f"of hands, {args.viewers + 1} phones {polling}, each reloading "
            f"{args.reloads_per_minute:g} times a minute; tables arriving "
            + (
                f"{args.arrivals_per_minute:g} a minute"
                if args.arrivals_per_minute >= 0
                else f"as {args.match_hands}-hand matches end"
            )
            + f"; {args.step_seconds:g} s per step; client "
            f"{'uvloop' if runner is not asyncio.run else 'asyncio'} on the same machine\n"
            f"minimal view median (one request at a time): {minimal:.2f} ms",
            flush=True,
        )
        carried = 0
        carried_step = None
        queue = list(args.step_list)
        retried: set[int] = set()
        others = [] if args.database == "sqlite" else postgres_pids()
        while queue:
            count = queue.pop(0)
            step = Step(count, args.step_seconds)
            load.steps.append(step)
            side = others + (stack.nginx.pids() if stack.nginx else []) + args.side_pids
            app_pids = stack.app_pids() + (events.pids() if events else [])
            runner(load.join_for(step, tables))
            if args.tournament_view and not load.spectators:
                runner(load.open_tournament(args.tournament_view, args.spectators))
                print(f"{'':>14}{args.spectators} phones follow the tournament's view page")
            server_before = cpu_seconds(app_pids)
            side_before = cpu_seconds(side)
            client_before = time.process_time()
            load.server_pids = app_pids
            if args.wait_sample:
                workers = [pid for server in stack.servers for pid in server.pids()[1:]]
                with WaitSampler(workers) as sampler:
                    runner(load.run(step))
                step.waits = sampler.summary()
            else:
                runner(load.run(step))
            server_after = cpu_seconds(app_pids)
            step.server_cpu = cpu_used(server_before, server_after)
            step.arrived_cpu_used = cpu_used(step.arrived_cpu, server_after)
            step.client_cpu = time.process_time() - client_before
            step.database_cpu = cpu_used(side_before, cpu_seconds(side))
            passed = report(step, args.p95_ms)
            time.sleep(2)  # let the server settle between steps
            if passed:
                carried, carried_step = count, step
            elif count not in retried:
                # The machine is shared: a burst of someone else's work can sink one step.
                retried.add(count)
                queue.insert(0, count)
                print(f"{'':>14}(once more, in case the machine was busy elsewhere)")
            else:
                break  # past capacity: more load would only pile up timeouts
        # A table whose phones opened their pages (the seeded tables past the last step played
        # never did): the limiter's check needs one of their cookies.
        opened = [table for table in tables if table.phones]
        failures = check_across_servers(stack, opened[-1], load) if args.balancer and opened else []
    finally:
        stack.stop()
        if events:
            events.stop()
    log = stack.logs() + ((directory / "events.log").read_text(errors="replace") if events else "")
    if "Traceback" in log:
        print("the server logged errors:\n" + log[-3000:])
        failures.append("the server logged a traceback")
    delays = carried_step.delays if carried_step else []
    return {
        "servers": servers,
        "carried": carried,
        "step": carried_step,
        "minimal": minimal,
        "load": load,
        "failures": failures,
        "delay": percentile(delays, 0.5) if delays else float("nan"),
    }
