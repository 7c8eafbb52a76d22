"""A step's figures: every request's latency by kind, its errors, the delivery delay of a change
to the phones and the CPU used; the report printed after each step, and the summary of each
stack: push and polling side by side, the restart, and whether the issue's goals hold."""

from __future__ import annotations

from dataclasses import dataclass, field

# Each phone first asks within a poll interval (16 s at most while a table plays): figures "once
# arrived" leave out the step's first seconds, where every phone of every table arrives.
ARRIVED = 20.0

# What a step's figures are given by, in the order they are printed.
KINDS = (
    "poll",
    "rows",
    "page",
    "preview",
    "save",
    "correction",
    "row",
    "gösterge",
    "seat",
    "new match",
    "stream opened",
    "tournament",
)
# Issue 53: a change reaches every phone holding the page within these (s), with push.
GOAL_DELAY_MEDIAN = 1.0
GOAL_DELAY_MAX = 2.5
GOAL_RATIO = 2.0  # tables carried with push ≥ this × with polling, in the same run
GOAL_RESTART = 10.0  # after a restart of nginx, every phone shows the latest version within (s)
MODES = {"push": "push", "poll": "polling"}


@dataclass
class Step:
    """What one step of `tables` live tables for `seconds` measured."""

    tables: int
    seconds: float
    latencies: dict[str, list[float]] = field(default_factory=dict)  # per kind (KINDS)
    details: dict[str, list[float]] = field(default_factory=dict)  # per kind and detail
    errors: dict[str, int] = field(default_factory=dict)
    lags: list[float] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)  # a save's delay to a watching phone (s)
    completed: int = 0
    server_cpu: float = 0.0  # the app servers' and nginx's
    nginx_cpu: float = 0.0  # ... of which nginx's (the streams, the proxy)
    database_cpu: float = 0.0
    by_second: dict[int, list[float]] = field(default_factory=dict)  # latencies by start second
    client_cpu: float = 0.0
    arrived_at: float = 0.0  # monotonic time, ARRIVED s into the step
    arrived_cpu: dict[int, float] = field(default_factory=dict)  # the server's CPU then
    arrived_cpu_used: float = 0.0  # ... and used from then to the step's end
    started_with: int = 0  # tables live at the step's start
    new_tables: int = 0  # tables started through the form during the step
    waits: str = ""  # --wait-sample: where the server's threads were
    # Carried once every phone has arrived (ARRIVED s in): the step's verdict without the
    # phones' arrival, which under push is each phone's stream opening and asking once.
    steady_carried: bool = False

    def record(self, kind: str, detail: str, ms: float) -> None:
        self.latencies.setdefault(kind, []).append(ms)
        if detail:
            self.details.setdefault(f"{kind}: {detail}", []).append(ms)
        self.completed += 1

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    def all_latencies(self) -> list[float]:
        return [ms for values in self.latencies.values() for ms in values]


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def delays(tables) -> list[float]:
    """Each save's delay to each watching phone (s): from the save's answer to the moment the
    phone was shown its version (0 when it was shown before the answer reached the scorer).
    Only saves answered once that phone had arrived (its first ask, or its stream held), in
    both modes alike: before, it was still opening the page, not following the match."""
    return [
        max(0.0, shown_at - saved_at)
        for table in tables
        for version, saved_at in table.saves
        for before, after, shown_at, arrived_at in table.shown
        if before < version <= after and saved_at >= arrived_at
    ]


def report(step: Step, p95_limit: float) -> bool:
    every = step.all_latencies()
    errors = sum(step.errors.values())
    rps = step.completed / step.seconds
    p95 = percentile(every, 0.95)
    carried = errors == 0 and p95 < p95_limit
    arrivals = f" (+{step.new_tables} new)" if step.new_tables else ""
    print(
        f"{step.started_with:>6} tables{arrivals} {rps:>6.0f} req/s   "
        f"p50 {percentile(every, 0.5):6.1f} ms   p95 {p95:6.1f} ms   "
        f"p99 {percentile(every, 0.99):6.1f} ms   errors {errors}   "
        f"client lag p95 {percentile(step.lags, 0.95):5.1f} ms   "
        f"{'carried' if carried else 'NOT carried'}"
    )
    if step.delays:
        print(
            f"{'':>14}delivery delay (save answered -> its version on a watching phone): "
            f"median {percentile(step.delays, 0.5):.2f} s, p95 {percentile(step.delays, 0.95):.2f}"
            f" s, max {max(step.delays):.2f} s ({len(step.delays)} seen)"
        )
    if step.completed:
        print(
            f"{'':>14}CPU: server {step.server_cpu / step.seconds:.2f} cores (nginx "
            f"{step.nginx_cpu / step.seconds:.2f}; "
            f"{step.server_cpu / step.completed * 1000:.2f} ms a request), "
            f"load client {step.client_cpu / step.seconds:.2f} cores"
            + (
                f", database/cache {step.database_cpu / step.seconds:.2f} cores"
                if step.database_cpu
                else ""
            )
        )
    arrived = [
        ms
        for second, values in step.by_second.items()
        if second >= step.arrived_at
        for ms in values
    ]
    if arrived and step.seconds > ARRIVED:
        steady_p95 = percentile(arrived, 0.95)
        step.steady_carried = errors == 0 and steady_p95 < p95_limit
        print(
            f"{'':>14}once every phone has arrived (from {ARRIVED:g} s in): p95 "
            f"{steady_p95:.1f} ms over {len(arrived)} requests, server CPU "
            f"{step.arrived_cpu_used / (step.seconds - ARRIVED):.2f} cores: "
            f"{'carried' if step.steady_carried else 'NOT carried'}"
        )
    if len(step.by_second) > 1:
        second, values = max(step.by_second.items(), key=lambda item: percentile(item[1], 0.95))
        print(
            f"{'':>14}slowest second: {second - min(step.by_second)} s in, "
            f"{len(values)} requests, p95 {percentile(values, 0.95):.1f} ms"
        )
        print(f"{'':>14}p95 by 5 s: {' '.join(windows_p95(step.by_second, 5))} ms")
    if step.waits:
        print(f"{'':>14}{step.waits}")
    print("\n".join(kinds_table(step)))
    for what, count in sorted(step.errors.items()):
        print(f"{'':>14}error: {what} × {count}")
    return carried


def kinds_table(step: Step, indent: int = 14) -> list[str]:
    """Count, median and p95 of each kind of request, then of each detail under it."""
    lines = []
    for kind in KINDS:
        values = step.latencies.get(kind)
        if not values:
            continue
        lines.append(
            f"{'':>{indent}}{kind:<40}{len(values):>7} × p50 {percentile(values, 0.5):6.1f}  "
            f"p95 {percentile(values, 0.95):6.1f}  p99 {percentile(values, 0.99):6.1f} ms"
        )
        for detail, values in sorted(step.details.items()):
            if detail.startswith(kind + ": "):
                lines.append(
                    f"{'':>{indent + 2}}{detail[len(kind) + 2 :]:<38}{len(values):>7} × p50 "
                    f"{percentile(values, 0.5):6.1f}  p95 {percentile(values, 0.95):6.1f} ms"
                )
    return lines


def windows_p95(by_second: dict[int, list[float]], width: int) -> list[str]:
    """The p95 of each `width`-second window of a step, in order: where in the step the slow
    requests were (its first seconds, while the phones arrive, or all along)."""
    first = min(by_second)
    windows: dict[int, list[float]] = {}
    for second, values in by_second.items():
        windows.setdefault((second - first) // width, []).extend(values)
    return [f"{percentile(values, 0.95):.0f}" for _, values in sorted(windows.items())]


def summary(results: dict[str, dict], args) -> list[str]:
    """Push and polling side by side, each at the largest step it carried; the restart; and
    whether the issue's goals hold (the exactly-once check is printed above, for every mode)."""
    modes = [mode for mode in MODES if mode in results]
    lines = [f"  {'':<48}" + "".join(f"{MODES[mode]:>12}" for mode in modes)]

    def row(label: str, value) -> None:
        cells = []
        for mode in modes:
            step = results[mode]["step"]
            cells.append("-" if step is None else value(step))
        lines.append(f"  {label:<48}" + "".join(f"{cell:>12}" for cell in cells))

    lines.append(
        f"  {f'tables carried (p95 < {args.p95_ms:g} ms, no error)':<48}"
        + "".join(f"{results[mode]['carried']:>12}" for mode in modes)
    )
    lines.append(
        f"  {f'  once every phone has arrived (from {ARRIVED:g} s in)':<48}"
        + "".join(f"{results[mode]['steady']:>12}" for mode in modes)
    )
    row("requests a second", lambda s: f"{s.completed / s.seconds:.0f}")
    row("p95 of requests (ms)", lambda s: f"{percentile(s.all_latencies(), 0.95):.1f}")
    row("server CPU, nginx's included (cores)", lambda s: f"{s.server_cpu / s.seconds:.2f}")
    row("  of which nginx's (cores)", lambda s: f"{s.nginx_cpu / s.seconds:.3f}")
    row("server CPU a table (ms a second)", lambda s: f"{cpu_per_table(s):.3f}")
    row("delivery delay, median (s)", lambda s: f"{percentile(s.delays, 0.5):.2f}")
    row("delivery delay, p95 (s)", lambda s: f"{percentile(s.delays, 0.95):.2f}")
    row("delivery delay, max (s)", lambda s: f"{max(s.delays, default=float('nan')):.2f}")
    row("deliveries seen", lambda s: f"{len(s.delays)}")
    missed = []
    if "push" in results and "poll" in results:
        push, poll = results["push"]["carried"], results["poll"]["carried"]
        if poll:
            ratio = push / poll
            lines.append(f"  tables carried, push / polling: {ratio:.2f} (goal ≥ {GOAL_RATIO:g})")
            if not ratio >= GOAL_RATIO:
                missed.append(f"push carried {ratio:.2f}× polling's tables")
        else:  # no ratio to tell: the steps began above polling's capacity
            lines.append("  tables carried, push / polling: polling carried no step (ask lower)")
            missed.append("polling carried no step: no ratio measured")
        # Without the arrival of every phone at each step's start (a step's phones all open
        # their pages within its first seconds; a café's arrive over hours): said, not judged.
        push, poll = results["push"]["steady"], results["poll"]["steady"]
        if poll:
            lines.append(
                f"  ... once every phone has arrived: {push / poll:.2f}"
                + (" (push's last step carried: at least)" if push == max(args.step_list) else "")
            )
    if "push" in results:
        step = results["push"]["step"]
        if step is None or not step.delays:
            missed.append("push: no step carried with a delivery seen")
        else:
            median, most = percentile(step.delays, 0.5), max(step.delays)
            if median > GOAL_DELAY_MEDIAN or most > GOAL_DELAY_MAX:
                missed.append(
                    f"push: a change reached the phones in {median:.2f} s median, {most:.2f} s "
                    f"at most (goal ≤ {GOAL_DELAY_MEDIAN:g} s, ≤ {GOAL_DELAY_MAX:g} s)"
                )
        restart = results["push"].get("restart")
        if restart:
            lines += restart_lines(restart)
            if restart["reopened"] < restart["were_open"] or not restart["every"] <= GOAL_RESTART:
                missed.append(
                    f"restart: {restart['reopened']} of {restart['were_open']} phones back, "
                    f"all showing the latest version {restart['every']:.1f} s after nginx came "
                    f"back (goal ≤ {GOAL_RESTART:g} s)"
                )
    if any(results[mode]["failures"] for mode in modes):
        missed.append("a check failed")
    lines.append(
        f"  GOAL MET: a change reaches every phone median ≤ {GOAL_DELAY_MEDIAN:g} s, max ≤ "
        f"{GOAL_DELAY_MAX:g} s; push carries ≥ {GOAL_RATIO:g}× polling's tables; all back "
        f"within {GOAL_RESTART:g} s of a restart (hands: see the check above)"
        if not missed
        else "  GOAL NOT MET: " + "; ".join(missed)
    )
    return lines


def cpu_per_table(step: Step) -> float:
    """The server's CPU (nginx's included) a table costs: ms of CPU each second."""
    return step.server_cpu / step.seconds / step.started_with * 1000 if step.started_with else 0


def restart_lines(restart: dict) -> list[str]:
    unseen = restart.get("not_seen", 0)
    return [
        f"  restart of nginx (stop, then start) at {restart['tables']} tables, "
        f"{restart['at']:.0f} s into the step: down {restart['down']:.1f} s; "
        f"{restart['reopened']} of the {restart['were_open']} phones holding a stream held it "
        f"again, the last {restart['last_open']:.1f} s after nginx was back; every one showed "
        f"the latest version {restart['every']:.1f} s after it was back (median "
        f"{restart['median']:.1f} s; goal ≤ {GOAL_RESTART:g} s"
        + (f"; {unseen} never seen up to date in the step" if unseen else "")
        + ")",
        f"  requests a second before the stop {restart['rate_before']:.0f}, at most "
        f"{restart['peak_after']:.0f} in one second after the start (each phone opens its "
        f"stream again after 0.5–1, 1–2, 2–4 s …, and asks 0–5 s later only if an ask it was "
        f"told to make failed with it); refused or cut while down: {restart['refused']} requests",
    ] + [f"  not seen up to date: {line}" for line in restart.get("unseen", [])]
