"""The self-hosted stack as a self-hoster runs it: compose.yaml's app (the image built from
Containerfile), PostgreSQL and Redis under podman, driven over real HTTP on the 127.0.0.1 port it
publishes, as the TLS proxy in front of it would (scripts/container-test.sh builds and sets up;
docs/self-hosting.md). In order: the probe, a match and a hand saved, the app container
restarted with the hand still there, and a stop that lets a save in flight finish."""

import os
import random
import shlex
import socket
import subprocess
import threading
import time
from urllib.parse import urlencode

import pytest

from bench.harness import Client, hand_form_data, sample_hand
from tests.container.stack import (
    HOST,
    PORT,
    PROXY_HEADERS,
    Phone,
    healthz,
    run_compose,
    wait_until_healthy,
)

COMMAND = shlex.split(os.environ.get("CETELE_COMPOSE", ""))
PROJECT = os.environ.get("CETELE_PROJECT", "")


def compose(*args: str, timeout: float = 120) -> str:
    return run_compose(COMMAND, *args, timeout=timeout)


def app_container(template: str) -> str:
    """`podman inspect`'s `template` for the app's container."""
    labels = [f"label=com.docker.compose.project={PROJECT}", "label=com.docker.compose.service=app"]
    (container,) = subprocess.run(
        ["podman", "ps", "-q", *[f"--filter={label}" for label in labels]],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return subprocess.run(
        ["podman", "inspect", "--format", template, container],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


@pytest.fixture(scope="module")
def stack():
    compose("up", "-d", timeout=300)
    try:
        print(f"\n   healthy {wait_until_healthy():.1f} s after up")
        yield {}
    finally:
        compose("down", "-v", "-t", "5")


def test_the_probe_answers_200_over_plain_http(stack):
    status, headers, body = Client(PORT).get("/healthz", headers={"Host": HOST})

    assert (status, body) == (200, b"ok\n")
    assert "no-store" in headers["cache-control"]


def test_pages_are_https_only_and_the_proxy_is_believed(stack):
    # Straight to the port, plain HTTP: sent to HTTPS.
    status, headers, _ = Client(PORT).get("/", headers={"Host": HOST})
    assert status == 301
    assert headers["location"] == f"https://{HOST}/"
    # Through the proxy: the page, with HSTS (the app saw X-Forwarded-Proto from a trusted peer).
    status, headers, body = Phone(PORT).get("/")
    assert status == 200
    assert "max-age=31536000" in headers["strict-transport-security"]
    assert "Çetele".encode() in body


def test_a_match_is_created_and_a_hand_saved_on_postgresql(stack):
    phone = Phone(PORT)
    match = phone.start_match()

    status, headers, _ = phone.post(match + "el/", hand_form_data(sample_hand(random.Random(1))))

    assert status in (302, 303), status
    assert phone.get(match + "el/1/")[0] == 200
    assert phone.get(match + "el/2/")[0] == 404
    stack.update(phone=phone, match=match)


def test_the_hand_is_still_there_after_the_app_container_restarts(stack):
    phone, match = stack["phone"], stack["match"]
    before = app_container("{{.State.StartedAt}}")

    compose("restart", "app")
    wait_until_healthy()

    assert app_container("{{.State.StartedAt}}") != before
    assert phone.get(match + "el/1/")[0] == 200


def test_a_stop_lets_the_save_in_flight_finish(stack):
    phone, match = stack["phone"], stack["match"]
    body = urlencode(hand_form_data(sample_hand(random.Random(2)))).encode()
    head = "".join(
        f"{name}: {value}\r\n"
        for name, value in {
            **PROXY_HEADERS,
            "Cookie": f"csrftoken={phone.csrf}",
            "X-CSRFToken": phone.csrf,
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": str(len(body)),
            "Connection": "close",
        }.items()
    )
    connection = socket.create_connection(("127.0.0.1", PORT), timeout=30)
    # A phone on a slow line: the request and half its form are in, the rest still on the way.
    connection.sendall(f"POST {match}el/ HTTP/1.1\r\n{head}\r\n".encode() + body[: len(body) // 2])
    time.sleep(0.5)  # the server has taken it up
    stopping = threading.Thread(target=compose, args=("stop", "app"))
    started = time.monotonic()
    stopping.start()
    time.sleep(2)
    assert stopping.is_alive(), "the app stopped with a request in flight"

    connection.sendall(body[len(body) // 2 :])
    response = b""
    while chunk := connection.recv(65536):
        response += chunk
    connection.close()
    stopping.join(timeout=60)

    status_line = response.split(b"\r\n", 1)[0]
    assert status_line.split()[1] in (b"302", b"303"), status_line
    assert not stopping.is_alive()
    print(f"\n   stopped {time.monotonic() - started:.1f} s after the stop began")
    assert healthz() == 0  # stopped: nothing answers

    compose("start", "app")
    wait_until_healthy()
    assert phone.get(match + "el/2/")[0] == 200  # the hand saved while stopping is there
