"""A step's figures: every request's latency by kind, its errors, the viewer's delay and the
CPU used; the report printed after each step, and the summary of the largest step carried
against the issue's goal."""

from __future__ import annotations

from dataclasses import dataclass, field

# Each phone first asks within a poll interval (16 s at most while a table plays): figures "once
# arrived" leave out the step's first seconds, where every phone of every table arrives at once.
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
    "events stream opened",
    "tournament",
)
GOAL = 2850  # tables × the minimal view's median (ms), issue 28
GOAL_DELAY = 5.0  # a viewer sees a save within this many seconds (median)


@dataclass
class Step:
    """What one step of `tables` live tables for `seconds` measured."""

    tables: int
    seconds: float
    latencies: dict[str, list[float]] = field(default_factory=dict)  # per kind (KINDS)
    details: dict[str, list[float]] = field(default_factory=dict)  # per kind and detail
    errors: dict[str, int] = field(default_factory=dict)
    lags: list[float] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)  # a viewer's delay per save seen (s)
    completed: int = 0
    server_cpu: float = 0.0
    database_cpu: float = 0.0
    by_second: dict[int, list[float]] = field(default_factory=dict)  # latencies by start second
    client_cpu: float = 0.0
    arrived_at: float = 0.0  # monotonic time, ARRIVED s into the step
    arrived_cpu: dict[int, float] = field(default_factory=dict)  # the server's CPU then
    arrived_cpu_used: float = 0.0  # ... and used from then to the step's end
    started_with: int = 0  # tables live at the step's start
    new_tables: int = 0  # tables started through the form during the step
    waits: str = ""  # --wait-sample: where the server's threads were

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
            f"{'':>14}viewer's delay (save answered -> sheet on a viewer's phone): median "
            f"{percentile(step.delays, 0.5):.1f} s, p95 {percentile(step.delays, 0.95):.1f} s "
            f"({len(step.delays)} seen)"
        )
    if step.completed:
        print(
            f"{'':>14}CPU: server {step.server_cpu / step.seconds:.2f} cores "
            f"({step.server_cpu / step.completed * 1000:.2f} ms a request), "
            f"load client {step.client_cpu / step.seconds:.2f} cores"
            + (
                f", database/cache/balancer {step.database_cpu / step.seconds:.2f} cores"
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
        print(
            f"{'':>14}once every phone has arrived (from {ARRIVED:g} s in): p95 "
            f"{percentile(arrived, 0.95):.1f} ms over {len(arrived)} requests, server CPU "
            f"{step.arrived_cpu_used / (step.seconds - ARRIVED):.2f} cores"
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


def summary(result: dict, args) -> list[str]:
    """The figures of the largest step carried, and whether the issue's goal holds."""
    step, minimal = result["step"], result["minimal"]
    product = result["carried"] * minimal
    lines = [
        f"  tables carried: {result['carried']} (p95 < {args.p95_ms:g} ms, no error)",
        f"  minimal view median at the start: {minimal:.2f} ms",
        f"  tables × median: {product:,.0f} ms·tables (goal ≥ {GOAL:,})",
    ]
    if step is None:
        return [*lines, "  GOAL NOT MET: no step was carried"]
    every = step.all_latencies()
    lines += [
        f"  at {step.started_with} tables (+{step.new_tables} new): p95 "
        f"{percentile(every, 0.95):.1f} ms, server CPU {step.server_cpu / step.seconds:.2f} "
        f"cores, viewer's delay median {result['delay']:.1f} s (goal ≤ {GOAL_DELAY:g} s)",
        *kinds_table(step, indent=2),
    ]
    missed = []
    if product < GOAL:
        missed.append(f"tables × median {product:,.0f} < {GOAL:,}")
    if not result["delay"] <= GOAL_DELAY:
        missed.append(f"viewer's delay median {result['delay']:.1f} s > {GOAL_DELAY:g} s")
    if result["failures"]:
        missed.append("a check failed")
    lines.append(
        "  GOAL MET (hands: see the check above)"
        if not missed
        else "  GOAL NOT MET: " + "; ".join(missed)
    )
    return lines
