"""What the server's processes use and wait on, read from /proc: CPU seconds (also used by
bench/floor.py) and, with --wait-sample, where each of the app servers' threads is."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds used so far by each of these processes (from /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) / ticks
    return used


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between two snapshots; a process that started in between counts whole."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def postgres_pids() -> list[int]:
    found = subprocess.run(["pgrep", "-u", "postgres"], capture_output=True, text=True)
    return [int(pid) for pid in found.stdout.split()]


# x86_64 system call numbers (/usr/include/asm/unistd_64.h) of what a blocked thread can be in.
FSYNC = {74: "fsync", 75: "fdatasync"}
SLEEP = {35, 230}  # nanosleep, clock_nanosleep: SQLite's busy handler between two tries
FUTEX = 202
ACCEPT_LOOP = {7, 23, 232, 270, 281}  # poll, select, epoll_wait, pselect6, epoll_pwait
IO = {0, 1, 17, 18, 19, 20, 44, 45, 46, 47}  # read, write, pread64, pwrite64, readv, … recvmsg
STATES = (
    "running",
    "waiting for the GIL",
    "in fsync (a commit)",
    "sleeping (SQLite busy wait)",
    "reading or writing",
    "idle (no request)",
    "accept loop",
    "other",
)


def thread_state(task: Path) -> str:
    """Where one thread is now, from /proc (blocked threads show their system call and its
    arguments: a futex wait with a timeout is CPython's GIL wait, one without it an idle thread
    of gunicorn's pool waiting for work)."""
    try:
        call = (task / "syscall").read_text().split()
    except OSError:
        return ""
    if not call or call[0] == "running":
        return "running"
    number = int(call[0]) if call[0].lstrip("-").isdigit() else -1
    if number in FSYNC:
        return "in fsync (a commit)"
    if number in SLEEP:
        return "sleeping (SQLite busy wait)"
    if number == FUTEX:
        return "waiting for the GIL" if len(call) > 4 and int(call[4], 16) else "idle (no request)"
    if number in ACCEPT_LOOP:
        return "accept loop"
    if number in IO:
        return "reading or writing"
    return "other"


class WaitSampler:
    """Samples, every `every` s, where each thread of these processes is: the average number of
    threads in each state over a step says what the server waits on, beside its CPU."""

    def __init__(self, pids: list[int], every: float = 0.01) -> None:
        import threading

        self.pids, self.every = pids, every
        self.threads: dict[Path, dict[str, int]] = {}  # per thread: samples in each state
        self.rounds = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.wait(self.every):
            for pid in self.pids:
                for task in Path(f"/proc/{pid}/task").glob("*"):
                    if state := thread_state(task):
                        counts = self.threads.setdefault(task, dict.fromkeys(STATES, 0))
                        counts[state] += 1
            self.rounds += 1

    def __enter__(self) -> WaitSampler:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()

    def summary(self) -> str:
        """Threads in each state on average. A thread that never ran in the step is one of the
        app's background threads (a timed wait, like the GIL's): left out."""
        serving = [c for c in self.threads.values() if c["running"] > 0.01 * self.rounds]
        if not self.rounds or not serving:
            return ""
        shares = ", ".join(
            f"{state} {sum(c[state] for c in serving) / self.rounds:.2f}"
            for state in STATES
            if any(c[state] for c in serving)
        )
        return (
            f"server threads ({len(serving)} that served, "
            f"{self.rounds} samples), on average: {shares}"
        )
