"""What the container leg's tests share: compose as the leg set it up (scripts/container-test.sh),
a phone that talks to the published 127.0.0.1 port as the TLS proxy in front would, and the live
stream its page holds (nginx's nchan, in the service `nginx`), opened as EventSource opens it."""

import os
import random
import re
import subprocess
import time

import pytest

from bench.harness import Client, hand_form_data, sample_hand
from tests import streams

PORT = int(os.environ.get("CETELE_PORT", "0"))
HOST = os.environ.get("DJANGO_ALLOWED_HOSTS", "")  # compose's .env: set by the leg
# What Caddy or nginx in front of the app adds to each request of a phone.
PROXY_HEADERS = {
    "Host": HOST,
    "X-Forwarded-Proto": "https",
    "X-Forwarded-For": "203.0.113.7",
    "Origin": f"https://{HOST}",
}


STREAM = re.compile(r'data-stream="(/canli/[0-9a-f]{32})"')
LINKS = re.compile(r"/[vk]/([A-Za-z0-9_-]{22,64})/")
A_SECOND = 1.0  # issue 53's goal: a change reaches every phone within a second


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


def container_of(project: str, service: str) -> str:
    labels = [
        f"label=com.docker.compose.project={project}",
        f"label=com.docker.compose.service={service}",
    ]
    (container,) = subprocess.run(
        ["podman", "ps", "-aq", *[f"--filter={label}" for label in labels]],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return container


def wait_until_names_resolve(project: str, name: str = "postgres", timeout: float = 60) -> None:
    """Until the app's container finds `name` three times in a row. podman's container DNS
    (bookworm's aardvark-dns 1.4) drops queries for a moment while it takes in a container that
    stopped or started (containers/aardvark-dns#389): a new database connection then fails to
    find the database. Not the app's doing: waited out before a test goes on."""
    container = container_of(project, "app")
    lookup = f"import socket; socket.getaddrinfo({name!r}, 5432)"
    started, found = time.monotonic(), 0
    while found < 3:
        if time.monotonic() - started > timeout:
            pytest.fail(f"the app's container did not find {name} within {timeout} s")
        done = subprocess.run(
            ["podman", "exec", container, "python", "-c", lookup], capture_output=True, timeout=30
        )
        found = found + 1 if done.returncode == 0 else 0
        time.sleep(0.3)


def podman_logs(project: str, service: str) -> str:
    """Everything a service's container wrote (podman keeps both streams, across restarts)."""
    container = container_of(project, service)
    logs = subprocess.run(["podman", "logs", container], capture_output=True, text=True, check=True)
    return logs.stdout + logs.stderr


class Stream(streams.Stream):
    """A phone's stream through the published port, as the TLS proxy in front passes it."""

    def __init__(self, path: str) -> None:
        super().__init__(PORT, path, PROXY_HEADERS)


def stream_of(phone: Client, path: str) -> str:
    """The stream the page at `path` holds (its data-stream)."""
    status, _, body = phone.get(path)
    assert status == 200, status
    found = STREAM.search(body.decode())
    assert found, "the page carries no stream: it polls"
    return found[1]


def keys_of(phone: Client, match: str) -> list[str]:
    """The match's three links' keys: its edit link's, and the view and join links it shares."""
    share = phone.get(match + "paylas/")[2].decode()
    return list(dict.fromkeys([match.split("/")[2], *LINKS.findall(share)]))


def save_a_hand(phone: Client, match: str, seed: int) -> float:
    """Save a hand through the match's form, as the scorer's phone does; when it was answered."""
    status, _, _ = phone.post(match + "el/", hand_form_data(sample_hand(random.Random(seed))))
    assert status in (302, 303), status
    return time.monotonic()


def a_save_reaches_the_stream(phone: Client, match: str, seed: int) -> float:
    """Open the page's stream, save a hand through the form: seconds from the save's answer to
    the event that tells the page of it (negative: it came first)."""
    stream = Stream(stream_of(phone, match))
    try:
        assert stream.status == 200, stream.status
        time.sleep(0.2)  # the stream is held
        stream.opened_with()  # another test's save, in the last 60 s
        answered = save_a_hand(phone, match, seed)
        arrived, data = stream.next()
        assert re.fullmatch(r"\d+\.\d+", data), data  # versions, nothing else
        return arrived - answered
    finally:
        stream.close()
