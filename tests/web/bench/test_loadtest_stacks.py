"""`make loadtest` itself: two stacks in one run (one app server behind nginx, then two), every
table played by its players' own phones. Each stack's phones must find their seats free, and the
checks made through the balancer must hold: otherwise the run reports the harness's mistakes
(a seat "already taken" at every joined table, a link refused after another phone's misses)
as the app's."""

import shutil
import subprocess
import sys

from bench.harness import ROOT
from tests.conftest import require_or_skip


def test_two_stacks_of_joined_tables_play_without_errors_and_pass_the_checks():
    require_or_skip(shutil.which("nginx") is not None, "Debian's nginx")
    run = subprocess.run(
        [sys.executable, "-m", "bench.loadtest", "--database", "sqlite", "--servers", "1,2"]
        + ["--balancer", "--joined", "1", "--steps", "4", "--step-seconds", "5", "--workers", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = run.stdout + run.stderr

    assert "0 request errors in all" in output, output
    assert "seat: HTTP" not in output, output
    assert "FAILED" not in output, output
    assert output.count("across servers: a save retried on the other server saved once") == 2
    assert "hands: " in output and ", 0 lost, 0 duplicated" in output, output
