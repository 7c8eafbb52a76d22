"""The server-sent events that `make loadtest --live sse` measures beside polling (bench/events.py):
real uvicorn beside real gunicorn on one SQLite file. A phone holding a stream hears of a save
made on the app server; a phone that shows an older version hears at once; a stream is only for a
browser that opened the link, of a match that exists.
"""

import random
import re
import socket
import time
from pathlib import Path

import pytest

from bench.harness import (
    Client,
    EventServer,
    Gunicorn,
    hand_form_data,
    prepare,
    sample_hand,
    server_env,
)

SHOWN_VERSION = re.compile(rb"poll/\?v=(\d+)")


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """The app server and the events server on one database, with a match started on the app."""
    directory = tmp_path_factory.mktemp("events")
    env = server_env(f"sqlite:///{directory}/events.sqlite3", Path(directory) / "static")
    prepare(env)
    with (
        Gunicorn(env, workers=1, log=directory / "app.log") as app,
        EventServer(env, workers=1, log=directory / "events.log") as events,
    ):
        yield app, events


def opened_match(app: Gunicorn) -> tuple[Client, str, str, int]:
    """A phone that started a match and has its page open: (phone, edit path, token, version)."""
    phone = Client(app.port)
    path = phone.start_match()
    _, _, page = phone.get(path)
    return phone, path, path.split("/")[2], int(SHOWN_VERSION.search(page)[1])


def stream(events: EventServer, path: str, cookies: dict[str, str]) -> tuple[socket.socket, bytes]:
    """A stream opened as a browser's EventSource opens it: (the socket, the answer's head)."""
    connection = socket.create_connection(("127.0.0.1", events.port), timeout=10)
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    connection.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        f"Cookie: {cookie}\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = connection.recv(4096)
        assert chunk, f"the events server closed the connection after {head!r}"
        head += chunk
    return connection, head


def next_version(connection: socket.socket, already: bytes, within: float = 8) -> int:
    """The version in the next `data:` line the stream sends."""
    received = already.split(b"\r\n\r\n", 1)[1]
    deadline = time.monotonic() + within
    while not (found := re.search(rb"data: (\d+)\n\n", received)):
        connection.settimeout(max(0.1, deadline - time.monotonic()))
        chunk = connection.recv(4096)
        assert chunk, "the stream ended without an event"
        received += chunk
    return int(found[1])


def test_a_phone_holding_a_stream_hears_of_a_save_made_on_the_app_server(servers):
    app, events = servers
    phone, path, token, version = opened_match(app)
    connection, head = stream(events, f"/events/m/{token}/?v={version}", phone.cookies)
    with connection:
        assert head.startswith(b"HTTP/1.1 200 ")
        assert b"text/event-stream" in head.lower()
        saved = phone.post(
            f"{path}el/",
            hand_form_data(sample_hand(random.Random(5))) | {"position": "1"},
            htmx=True,
        )
        assert saved[0] == 200
        now_shown = int(SHOWN_VERSION.search(phone.get(path)[2])[1])
        assert now_shown > version
        assert next_version(connection, head) == now_shown


def test_a_phone_showing_an_older_version_hears_the_current_one_at_once(servers):
    app, events = servers
    phone, path, token, version = opened_match(app)
    form = hand_form_data(sample_hand(random.Random(6))) | {"position": "1"}
    assert phone.post(f"{path}el/", form, htmx=True)[0] == 200  # while the phone was away
    now_shown = int(SHOWN_VERSION.search(phone.get(path)[2])[1])
    assert now_shown > version
    connection, head = stream(events, f"/events/m/{token}/?v={version}", phone.cookies)
    with connection:
        assert head.startswith(b"HTTP/1.1 200 ")
        assert next_version(connection, head, within=0.5) == now_shown  # not at the next tick


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("a browser that never opened the link", b"403"),
        ("a link that opens no match", b"404"),
        ("no version shown", b"400"),
    ],
)
def test_a_stream_is_refused_unless_it_is_for_an_opened_link_of_a_match(servers, case, expected):
    app, events = servers
    phone, _, token, version = opened_match(app)
    cookies, path = phone.cookies, f"/events/m/{token}/?v={version}"
    if case == "a browser that never opened the link":
        cookies = {}
    elif case == "a link that opens no match":
        # The match is deleted: the browser's cookie still holds the link's mark.
        status, _, _ = phone.post(f"/m/{token}/sil/", {"confirm": "on"})
        assert status in (302, 303), status
    else:
        path = f"/events/m/{token}/"
    connection, head = stream(events, path, cookies)
    with connection:
        assert head[9:12] == expected, head
