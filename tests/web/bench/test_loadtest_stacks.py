"""`make loadtest` itself: two stacks in one run (one app server behind nginx, then two), each
with push and polling side by side and nginx restarted under load, every table played by its
players' own phones. Each stack's phones must find their seats free, the phones on push must
hold their streams and come back after the restart, and the checks made through the balancer
must hold: otherwise the run reports the harness's mistakes (a seat "already taken" at every
joined table, a link refused after another phone's misses, a stream never opened) as the
app's."""

import re
import shutil
import subprocess
import sys

from bench.harness import NCHAN_MODULE, ROOT
from tests.conftest import require_or_skip


def test_two_stacks_push_and_polling_play_without_errors_and_pass_the_checks():
    require_or_skip(shutil.which("nginx") is not None, "Debian's nginx")
    require_or_skip(NCHAN_MODULE.exists(), "Debian's libnginx-mod-nchan")
    run = subprocess.run(
        [sys.executable, "-m", "bench.loadtest", "--database", "sqlite", "--servers", "1,2"]
        + ["--balancer", "--joined", "1", "--steps", "4", "--step-seconds", "8"]
        # Two gunicorn processes an app server, as make serve runs them (each link to one).
        + ["--workers", "2", "--restart-seconds", "16", "--p95-ms", "10000"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=400,
    )
    output = run.stdout + run.stderr

    assert run.returncode == 0, output
    assert "0 request errors in all" in output, output
    assert "seat: HTTP" not in output, output
    assert "FAILED" not in output, output
    assert output.count("across servers: a save retried on the other server saved once") == 4
    assert "hands: " in output and ", 0 lost, 0 duplicated" in output, output
    # Both modes, side by side, in each stack's summary; the phones on push held their streams.
    assert output.count("push     polling") == 2, output
    assert "stream opened" in output, output
    # Every phone that held a stream when nginx stopped held it again after it started.
    restarts = re.findall(r"(\d+) of the (\d+) phones holding a stream held it again", output)
    assert len(restarts) == 4, output  # printed after the step and in the summary, per stack
    assert all(back == held and int(held) > 0 for back, held in restarts), restarts
