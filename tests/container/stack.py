"""What the container leg's tests share: compose as the leg set it up (scripts/container-test.sh),
and a phone that talks to the published 127.0.0.1 port as the TLS proxy in front would."""

import os
import subprocess
import time

import pytest

from bench.harness import Client

PORT = int(os.environ.get("CETELE_PORT", "0"))
HOST = os.environ.get("DJANGO_ALLOWED_HOSTS", "")  # compose's .env: set by the leg
# What Caddy or nginx in front of the app adds to each request of a phone.
PROXY_HEADERS = {
    "Host": HOST,
    "X-Forwarded-Proto": "https",
    "X-Forwarded-For": "203.0.113.7",
    "Origin": f"https://{HOST}",
}


def run_compose(command: list[str], *args: str, timeout: float = 120) -> str:
    result = subprocess.run([*command, *args], capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"compose {' '.join(args)}: {result.stderr[-2000:]}"
    return result.stdout


class Phone(Client):
    """A phone behind the TLS proxy: its requests arrive with the proxy's headers."""

    def request(self, method, path, body=None, headers=None):
        return super().request(method, path, body, {**PROXY_HEADERS, **(headers or {})})


def healthz() -> int:
    """/healthz's status, as a load balancer asks it (plain HTTP); 0 when nothing answers."""
    try:
        return Client(PORT, timeout=5).get("/healthz", headers={"Host": HOST})[0]
    except OSError:
        return 0


def wait_until_healthy(timeout: float = 120) -> float:
    """Seconds until /healthz answered 200 (compose health checks need systemd: polled here)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if healthz() == 200:
            return time.monotonic() - started
        time.sleep(0.25)
    pytest.fail(f"/healthz did not answer 200 within {timeout} s")
