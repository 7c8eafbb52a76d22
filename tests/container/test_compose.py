"""The self-hosted stack as a self-hoster runs it: compose.yaml's nginx (holding the live
streams) in front of its app (the image built from Containerfile), PostgreSQL and Redis under
podman, driven over real HTTP on the 127.0.0.1 port nginx publishes, as the TLS proxy in front of
it would (scripts/container-test.sh builds and sets up; docs/self-hosting.md). In order: the
probe, a match and a hand saved, the app container restarted with the hand still there, a stop of
nginx that lets a save in flight finish, a save reaching the page's stream within a second, a new
stream after nginx restarts getting the next one, no publishing from outside, and no key in
nginx's log."""

import os
import queue
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
    A_SECOND,
    HOST,
    PORT,
    PROXY_HEADERS,
    Phone,
    Stream,
    a_save_reaches_the_stream,
    healthz,
    keys_of,
    podman_logs,
    run_compose,
    stream_of,
    wait_until_healthy,
    wait_until_names_resolve,
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
def stack(request):
    compose("up", "-d", timeout=300)
    try:
        print(f"\n   healthy {wait_until_healthy():.1f} s after up")
        yield {}
    finally:
        if request.session.testsfailed:  # what the services said, before they are removed
            for service in ("app", "nginx"):
                print(f"\n   {service}'s log:\n{podman_logs(PROJECT, service)[-4000:]}")
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
    wait_until_names_resolve(PROJECT)

    assert app_container("{{.State.StartedAt}}") != before
    assert phone.get(match + "el/1/")[0] == 200


def test_a_stop_of_nginx_lets_the_save_in_flight_finish(stack):
    # nginx holds a phone's request until its form is all in (the app then answers it at once),
    # so a stop that could cut it short is nginx's: graceful, it waits for it.
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
    stopping = threading.Thread(target=compose, args=("stop", "nginx"))
    started = time.monotonic()
    stopping.start()
    time.sleep(2)
    assert stopping.is_alive(), "nginx stopped with a request in flight"

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

    compose("start", "nginx")
    wait_until_healthy()
    wait_until_names_resolve(PROJECT)
    assert phone.get(match + "el/2/")[0] == 200  # the hand saved while stopping is there


def test_a_save_reaches_the_pages_stream_within_a_second(stack):
    phone, match = stack["phone"], stack["match"]

    delay = a_save_reaches_the_stream(phone, match, seed=3)

    print(f"\n   a save reached its page's stream {delay * 1000:.0f} ms after it was answered")
    assert delay < A_SECOND


def test_after_nginx_restarts_a_new_stream_gets_the_next_save(stack):
    phone, match = stack["phone"], stack["match"]
    held = Stream(stream_of(phone, match))
    assert held.status == 200

    compose("restart", "nginx")

    # The stream nginx held is ended (the phone's EventSource then opens a new one by itself).
    assert held.closed.wait(timeout=10)
    wait_until_healthy()
    wait_until_names_resolve(PROJECT)
    delay = a_save_reaches_the_stream(phone, match, seed=4)
    print(f"\n   after the restart, a save reached a new stream in {delay * 1000:.0f} ms")
    assert delay < A_SECOND


def test_a_phone_cannot_publish_through_the_published_port(stack):
    phone, match = stack["phone"], stack["match"]
    path = stream_of(phone, match)
    stream = Stream(path)
    channel = path.rsplit("/", 1)[1]
    time.sleep(0.2)
    stream.opened_with()  # another test's save, in the last 60 s

    # The publisher is on the compose network only: on the phones' port the app answers.
    status, _, _ = phone.post(f"/pub/{channel}", b"99.99")

    assert status in (403, 404), status
    with pytest.raises(queue.Empty):
        stream.next(timeout=1)
    stream.close()


def test_no_key_in_the_nginx_containers_log(stack):
    phone, match = stack["phone"], stack["match"]
    keys = keys_of(phone, match)
    assert len(keys) == 3
    # nginx writes a request's line beside its errors: ask for the match's pages while the app
    # is stopped (nginx cannot reach it: 502, or 504 once its connection waited 5 s), then look.
    compose("stop", "app")
    try:
        assert phone.get(match)[0] in (502, 504)
        assert phone.get(f"/v/{keys[1]}/")[0] in (502, 504)
    finally:
        compose("start", "app")
    wait_until_healthy()
    wait_until_names_resolve(PROJECT)

    log = podman_logs(PROJECT, "nginx")

    assert not [key for key in keys if key in log], log[-2000:]
    assert phone.get(match)[0] == 200
