"""`make run`, the README's first command, really serves the home page on a new database."""

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from django.conf import settings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_make_run_migrates_a_new_database_and_serves_the_home_page(tmp_path: Path):
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("DJANGO_") and key != "DATABASE_URL"
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'run.sqlite3'}"
    server = subprocess.Popen(
        ["make", "run", f"PORT={port}"],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        html = ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    html = response.read().decode()
                break
            except OSError:
                time.sleep(0.3)
    finally:
        with contextlib.suppress(ProcessLookupError):  # make may have stopped on its own
            os.killpg(server.pid, signal.SIGTERM)
        output = server.communicate(timeout=20)[0].decode(errors="replace")

    assert "Yeni maç" in html, output[-2000:]
    assert (tmp_path / "run.sqlite3").exists()
