"""Live by push, for real: gunicorn behind nginx with nchan, as `make serve` runs them
(deploy/nginx.conf.in), on a SQLite file or the PostgreSQL of scripts/with-postgres.sh. A phone's
stream is opened as a browser's EventSource opens it, and what reaches it is read off the wire:
each change reaches every stream of its match within a second, carries nothing but the versions,
and a rotated link or a deleted match closes its streams.
"""

import contextlib
import http.client
import os
import queue
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench.harness import (
    NCHAN_MODULE,
    ROOT,
    Client,
    Gunicorn,
    PushNginx,
    free_port,
    hand_form_data,
    prepare,
    server_env,
)
from tests.streams import Stream
from tests.web.races import database_url  # the PostgreSQL leg's, else a SQLite file

NCHAN_HERE = Path("/usr/sbin/nginx").exists() and NCHAN_MODULE.exists()
pytestmark = [
    pytest.mark.database,  # its server's database is DATABASE_URL's on the PostgreSQL leg
    # scripts/system-deps.sh installs them where it may; on CI they must be there.
    pytest.mark.skipif(not NCHAN_HERE and not os.environ.get("CI"), reason="no nginx with nchan"),
]

STREAM = re.compile(r'data-stream="(/canli/[0-9a-f]{32})"')
LINK = {
    "view": re.compile(r"/v/([A-Za-z0-9_-]{22,64})/"),
    "join": re.compile(r"/k/([A-Za-z0-9_-]{22,64})/"),
}
ROW = {"position": "1", "row-opened": "series", "row-remaining": "20"}
ROW |= {"row-okeys": "0", "row-fake_okeys": "0"}
A_SECOND = 1.0  # the goal: a change reaches every phone within a second (median)


@contextlib.contextmanager
def push_stack(folder: Path, static_root: Path) -> Iterator[SimpleNamespace]:
    """nginx (push) in front of two gunicorn workers, as make serve runs them: its `nginx`, its
    `app` server and the `url` phones open (also tests/browser/live/test_push.py)."""
    app_port = free_port()
    nginx = PushNginx(folder / "nginx", [app_port])
    env = server_env(database_url(folder), static_root, **nginx.push_env())
    prepare(env, static=False)
    with Gunicorn(env, workers=2, port=app_port, log=folder / "gunicorn.log") as app, nginx:
        yield SimpleNamespace(nginx=nginx, app=app, url=f"http://127.0.0.1:{nginx.port}")


@contextlib.contextmanager
def two_app_servers(folder: Path, static_root: Path) -> Iterator[SimpleNamespace]:
    """nginx (push) in front of two app servers of one gunicorn process each (the scaled-out
    stack, and make serve's processes): its `nginx` and its `servers`, each reachable alone."""
    ports = [free_port(), free_port()]
    nginx = PushNginx(folder / "nginx", ports)
    env = server_env(database_url(folder), static_root, **nginx.push_env())
    prepare(env, static=False)
    one = Gunicorn(env, workers=1, port=ports[0], log=folder / "one.log")
    two = Gunicorn(env, workers=1, port=ports[1], log=folder / "two.log")
    with one, two, nginx:
        yield SimpleNamespace(nginx=nginx, servers=[one, two])


@pytest.fixture(scope="module")
def stack(tmp_path_factory, static_root):
    """One stack for the module's tests, each at a match of its own: starting a stack cost
    about 2 s of CPU."""
    with push_stack(tmp_path_factory.mktemp("stack"), static_root) as running:
        yield running.nginx


@pytest.fixture
def own_stack(tmp_path, static_root):
    """A stack of the test's own, for a test that stops nginx."""
    with push_stack(tmp_path, static_root) as running:
        yield running


class Table:
    """A new match through its pages: the scorer, its view link, and Bora's joined phone."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.scorer = Client(port)
        self.edit = self.scorer.start_match()
        share = self.scorer.get(self.edit + "paylas/")[2].decode()
        self.view = f"/v/{LINK['view'].search(share)[1]}/"
        self.join = f"/k/{LINK['join'].search(share)[1]}/"
        self.phone = Client(port)
        self.phone.get(self.join)
        assert self.phone.post(self.join, {"seat": "1"})[0] == 302

    def stream_of(self, client: Client, path: str) -> str:
        status, _, body = client.get(path)
        assert status == 200, status
        return STREAM.search(body.decode())[1]

    def save(self, number: int) -> tuple[int, dict]:
        players = [{"opened": "series", "okeys": 0, "fake_okeys": 0, "penalties": []}]
        players += [{"opened": "no", "okeys": 0, "fake_okeys": 0, "penalties": []}] * 3
        hand = {"finisher": 0, "okey_finish": False, "kafa": False, "players": players}
        form = hand_form_data(hand) | {"position": str(number), "rows_seen": ""}
        status, headers, _ = self.scorer.post(self.edit + "el/", form, htmx=True)
        return status, headers


def test_a_save_reaches_every_phone_of_the_match_within_a_second(stack):
    table = Table(stack.port)
    viewer = Client(stack.port)
    streams = [
        Stream(stack.port, table.stream_of(table.scorer, table.edit)),
        Stream(stack.port, table.stream_of(viewer, table.view)),
        Stream(stack.port, table.stream_of(table.phone, table.join)),
    ]
    assert all(stream.status == 200 for stream in streams)
    time.sleep(0.2)  # the streams are held
    for stream in streams:
        stream.opened_with()  # the seat Bora took, in the last 60 s
    status, headers = table.save(1)
    answered = time.monotonic()
    assert status == 200 and "cetele:hand-saved" in headers.get("hx-trigger", "")
    versions = set()
    for stream in streams:
        arrived, data = stream.next()
        assert arrived - answered < A_SECOND
        versions.add(int(data.split(".")[0]))
    # Every phone is told the same version; the viewer then asks with the one it shows, and
    # the answer is the sheet with the hand.
    (version,) = versions
    status, _, body = viewer.get(table.view + f"poll/?v={version - 1}", {"HX-Request": "true"})
    assert status == 200 and "1/13 el" in body.decode()
    assert viewer.get(table.view + f"poll/?v={version}", {"HX-Request": "true"})[0] == 204


def test_a_stream_opened_after_a_save_is_given_it_first(stack):
    """A page drawn before a save whose stream opens after it: nginx gives the stream the
    match's newest message as it opens, so the page learns of the save without asking
    (static/cetele/app.js asks nothing on a fresh page's first opening)."""
    table = Table(stack.port)
    viewer = Client(stack.port)
    path = table.stream_of(viewer, table.view)  # the page drawn
    assert table.save(1)[0] == 200
    stream = Stream(stack.port, path)  # ... its stream opened after the save
    _, data = stream.next(timeout=1)
    version = int(data.split(".")[0])
    status, _, body = viewer.get(table.view + f"poll/?v={version}", {"HX-Request": "true"})
    assert status == 204  # the message names the version the save made: nothing newer
    assert viewer.get(table.view + f"poll/?v={version - 1}", {"HX-Request": "true"})[0] == 200


def test_a_row_written_on_a_joined_phone_reaches_the_scorers_stream(stack):
    table = Table(stack.port)
    scorer = Stream(stack.port, table.stream_of(table.scorer, table.edit))
    time.sleep(0.2)
    scorer.opened_with()
    status, _, _ = table.phone.post(table.join + "satir/", ROW, htmx=True)
    written = time.monotonic()
    assert status == 200
    arrived, data = scorer.next()
    assert arrived - written < A_SECOND
    # Only the rows' version moved: the scorer's page asks for the rows, and they hold Bora's.
    _version, rows = data.split(".")
    status, _, body = table.scorer.get(table.edit + "satirlar/?v=-1&d=-1", {"HX-Request": "true"})
    assert status == 200 and int(rows) > 0 and "data-row=" in body.decode()


def test_a_stream_is_no_key_and_each_link_has_its_own(stack):
    table = Table(stack.port)
    pages = {
        "edit": table.scorer.get(table.edit)[2].decode(),
        "view": Client(stack.port).get(table.view)[2].decode(),
        "join": table.phone.get(table.join)[2].decode(),
    }
    streams = {role: STREAM.search(page)[1] for role, page in pages.items()}
    assert len(set(streams.values())) == 3
    keys = [table.edit.split("/")[2], table.view.split("/")[2], table.join.split("/")[2]]
    for role, stream in streams.items():
        assert not any(key in stream for key in keys)
        others = [other for name, other in streams.items() if name != role]
        assert not any(other in pages[role] for other in others), role


def test_rotating_a_link_closes_its_streams_and_deleting_the_match_closes_every_one(stack):
    table = Table(stack.port)
    view = Stream(stack.port, table.stream_of(Client(stack.port), table.view))
    edit = Stream(stack.port, table.stream_of(table.scorer, table.edit))
    time.sleep(0.2)
    view.opened_with()
    edit.opened_with()
    rotate = {"kind": "view", "confirm": "on"}
    assert table.scorer.post(table.edit + "paylas/yenile/", rotate)[0] in (200, 302)
    assert view.next()[1] == "gone"
    assert view.closed.wait(5)
    assert edit.next()[1] != "gone"  # the scorer's page is told too: the share page's new link
    assert table.scorer.post(table.edit + "sil/", {"confirm": "on"})[0] in (200, 302)
    assert edit.next()[1] == "gone"
    assert edit.closed.wait(5)


def test_a_phone_cannot_publish_nor_make_nginx_abort(stack):
    table = Table(stack.port)
    stream = table.stream_of(table.scorer, table.edit)
    channel = stream.rsplit("/", 1)[1]
    # The publisher is not on the phones' address: Django answers, and publishes nothing.
    status, _, _ = Client(stack.port).post(f"/pub/{channel}", b"99.99")
    assert status in (403, 404)
    # A phone coming back with a message id nchan no longer holds (the abort of nchan 1.3.6,
    # docs/push-nchan-lab.md), or with the headers nchan reads an id from: never an abort.
    first = Stream(stack.port, stream)
    assert first.status == 200
    again = {"Accept": "text/event-stream", "Last-Event-ID": "1:0"}
    for headers in (again, again | {"If-Modified-Since": "x"}, again | {"If-None-Match": "1"}):
        connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=5)
        connection.request("GET", stream, headers=headers)
        assert connection.getresponse().status in (200, 400)
        connection.close()
    table.save(1)
    assert first.next()[1] != "gone"
    log = (stack.directory / "nginx-error.log").read_text()
    assert "exited on signal" not in log
    keys = [table.edit.split("/")[2], table.view.split("/")[2], table.join.split("/")[2]]
    assert not any(key in log for key in keys)


def test_a_change_through_either_app_server_reaches_every_phone(tmp_path, static_root):
    """Two app servers behind one nginx (the scaled-out stack): a save through one and a row
    through the other each reach the phones, whichever server drew their pages."""
    with two_app_servers(tmp_path, static_root) as running:
        nginx, ports = running.nginx, [server.port for server in running.servers]
        table = Table(nginx.port)
        stream = Stream(nginx.port, table.stream_of(Client(nginx.port), table.view))
        time.sleep(0.2)
        stream.opened_with()
        table.scorer.port = ports[0]  # the scorer's phone reaches app server 1
        assert table.save(1)[0] == 200
        assert int(stream.next()[1].split(".")[0]) > 0
        table.phone.port = ports[1]  # Bora's, app server 2 (the next hand's row)
        assert table.phone.post(table.join + "satir/", ROW | {"position": "2"}, htmx=True)[0] == 200
        assert stream.next()[1] != "gone"


def test_each_link_is_answered_by_one_app_server(tmp_path, static_root):
    """nginx sends every request of a link to one app server (deploy/nginx.conf.in), where what
    is drawn for it is kept; the links of many matches are spread over both."""
    with two_app_servers(tmp_path, static_root) as running:
        nginx = running.nginx
        answered_by: dict[str, set[str]] = {}

        def ask(client: Client, link: str, paths: tuple[str, ...]) -> None:
            for path in paths:
                status, headers, _ = client.get(link + path, {"HX-Request": "true"})
                assert status in (200, 204, 286), (link + path, status)
                answered_by.setdefault(link, set()).add(headers["x-upstream"])

        tables = []  # a table's view link, whose key is the URL's third part (/masa/izle/<key>/)
        for number in range(12):
            table = Table(nginx.port)
            for link, client in ((table.edit, table.scorer), (table.view, Client(nginx.port))):
                ask(client, link, ("", "poll/?v=0", "kurallar/"))
            status, headers, _ = table.scorer.post(table.edit + "masa/", {"name": f"{number}"})
            assert status == 302
            page = headers["location"].removeprefix(f"http://127.0.0.1:{nginx.port}")
            shown = table.scorer.get(page)[2].decode()
            view = re.search(r"/masa/izle/[A-Za-z0-9_-]{22,64}/", shown)[0]
            ask(Client(nginx.port), view, ("", "", ""))
            tables.append(view)
        assert all(len(servers) == 1 for servers in answered_by.values())
        assert len(set().union(*answered_by.values())) == 2
        assert len(set().union(*(answered_by[view] for view in tables))) == 2


def test_a_change_saved_while_nginx_was_down_reaches_the_streams_once_it_is_back(own_stack):
    """Django sends again what nginx did not take (cetele.live.push.Unsent): a page whose
    stream dropped with nginx asks nothing when it opens again (app.js), and learns of the save
    made meanwhile from the stream, whether it opened before Django sent it again or after."""
    nginx, app_port = own_stack.nginx, own_stack.app.port
    table = Table(nginx.port)
    viewer = Client(nginx.port)
    path = table.stream_of(viewer, table.view)  # the viewer's page, drawn before the stop
    nginx.stop(graceful=False)
    table.scorer.port = app_port  # the scorer's phone, straight to the app server
    status, headers = table.save(1)
    assert status == 200 and "cetele:hand-saved" in headers.get("hx-trigger", "")
    nginx.start()
    back = time.monotonic()
    early = Stream(nginx.port, path)  # opened again at once
    time.sleep(2.5)  # sent again within a second or two of nginx's return
    late = Stream(nginx.port, path)  # ... and after: nginx gives it the message as it opens
    for stream in (early, late):
        arrived, data = stream.next(timeout=3)
        assert arrived - back < 3.5
        version = int(data.split(".")[0])
        ask = viewer.get(table.view + f"poll/?v={version - 1}", {"HX-Request": "true"})
        assert ask[0] == 200 and "1/13 el" in ask[2].decode()  # the version names the save


def test_a_server_that_kept_an_older_change_sends_the_match_as_it_is_now(tmp_path, static_root):
    """Two app servers each kept a change a stopped nginx did not take, and the one that kept
    the newer ends before nginx is back. The other sends again what the match is now, not the
    older change it kept: were nginx to hold that older one as the match's newest, a page
    showing it whose stream opens would ask nothing, and stay behind."""
    with two_app_servers(tmp_path, static_root) as running:
        nginx, (one, two) = running.nginx, running.servers
        table = Table(nginx.port)
        viewer = Client(nginx.port)
        path = table.stream_of(viewer, table.view)
        nginx.stop(graceful=False)
        table.scorer.port = one.port
        assert table.save(1)[0] == 200  # kept by app server 1
        table.scorer.port = two.port
        assert table.save(2)[0] == 200  # kept by app server 2, which then ends
        two.kill()
        nginx.start()
        time.sleep(2.5)  # app server 1 has sent again what it kept
        _, data = Stream(nginx.port, path).next(timeout=3)
        version = int(data.split(".")[0])
        ask = viewer.get(table.view + f"poll/?v={version}", {"HX-Request": "true"})
        assert ask[0] == 204  # the message names the newest version: nothing newer to show


def test_a_change_nginx_took_as_it_went_down_reaches_the_streams_once_it_is_back(
    tmp_path, static_root
):
    """nginx took a match's message and then stopped, its memory lost with it (an nginx going
    down still takes messages, after it has closed their streams). The app server that meets
    nginx stopped sends again what it took just before: a page of that match whose stream opens
    on the new nginx is told the match's newest version, not nothing until its next change."""
    with two_app_servers(tmp_path, static_root) as running:
        nginx, one = running.nginx, running.servers[0]
        table, other = Table(nginx.port), Table(nginx.port)
        viewer = Client(nginx.port)
        path = table.stream_of(viewer, table.view)
        # Both saves through one single-process server: the process that meets nginx stopped
        # is the one whose message nginx took.
        table.scorer.port = other.scorer.port = one.port
        assert table.save(1)[0] == 200  # nginx takes its message ...
        nginx.stop(graceful=False)  # ... and loses it
        assert other.save(1)[0] == 200  # another match's message: nginx is not there
        nginx.start()
        time.sleep(2.5)  # app server 1 has sent again what it kept
        try:
            _, data = Stream(nginx.port, path).next(timeout=3)
        except queue.Empty:
            pytest.fail("the page's stream was told nothing of the save nginx lost")
        version = int(data.split(".")[0])
        assert viewer.get(table.view + f"poll/?v={version}", {"HX-Request": "true"})[0] == 204
        ask = viewer.get(table.view + f"poll/?v={version - 1}", {"HX-Request": "true"})
        assert ask[0] == 200 and "1/13 el" in ask[2].decode()


def test_a_link_renewed_while_nginx_was_down_tells_its_streams_once_it_is_back(own_stack):
    """A rotation's closing of the old link's streams, not taken by a stopped nginx, is sent
    again as the message "gone": the page told asks, and finds its link gone."""
    nginx, app_port = own_stack.nginx, own_stack.app.port
    table = Table(nginx.port)
    viewer = Client(nginx.port)
    path = table.stream_of(viewer, table.view)
    nginx.stop(graceful=False)
    table.scorer.port = app_port
    rotate = {"kind": "view", "confirm": "on"}
    assert table.scorer.post(table.edit + "paylas/yenile/", rotate)[0] in (200, 302)
    nginx.start()
    stream = Stream(nginx.port, path)
    assert stream.next(timeout=4)[1] == "gone"
    ask = viewer.get(table.view + "poll/?v=1", {"HX-Request": "true"})
    assert ask[0] in (286, 404, 410)


def three_free_ports() -> int:
    """A port that is free, and the two after it (scripts/serve.sh's gunicorn and publisher)."""
    for _ in range(50):
        port = free_port()
        try:
            for taken in (port + 1, port + 2):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", taken))
        except OSError:
            continue
        return port
    raise RuntimeError("no three free ports in a row")


def serving(tmp_path, static_root) -> tuple[subprocess.Popen, int]:
    """scripts/serve.sh started and answering: (its process, its port). Its ports were free when
    chosen, but another leg's connection may take one before nginx or gunicorn binds it (a
    make test run saw serve.sh end so, and the test wait 30 s for nothing): a serve.sh that
    ends before answering is started again on other ports, twice at most; one that never
    answers fails the test with what it said."""
    env = server_env(database_url(tmp_path), static_root, WORKERS="1")
    env.pop("CETELE_PUSH_PUBLISH", None)  # serve.sh sets it
    prepare(env, static=False)
    for _ in range(3):
        port = three_free_ports()
        serve = subprocess.Popen(
            ["scripts/serve.sh"],
            cwd=ROOT,
            env=env | {"BIND": f"127.0.0.1:{port}"},
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and serve.poll() is None:
            with contextlib.suppress(OSError, http.client.HTTPException):
                if Client(port).get("/bench/minimal/")[0] == 200:
                    return serve, port
            time.sleep(0.1)
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGTERM)
            said = serve.communicate(timeout=30)[1].decode()
            pytest.fail(f"serve.sh did not answer in 60 s: {said}")
        said = serve.communicate()[1].decode()  # ended: its pipe closed, what it said kept
    pytest.fail(f"serve.sh ended three times before answering: {said}")


def test_make_serve_holds_the_streams(tmp_path, static_root):
    """scripts/serve.sh, what `make serve` runs after its set-up: nginx with push on BIND."""
    serve, port = serving(tmp_path, static_root)
    try:
        table = Table(port)
        stream = Stream(port, table.stream_of(Client(port), table.view))
        time.sleep(0.2)
        stream.opened_with()
        assert table.save(1)[0] == 200
        assert int(stream.next()[1].split(".")[0]) > 0
    finally:
        os.killpg(serve.pid, signal.SIGTERM)
        _, errors = serve.communicate(timeout=30)
    for key in (table.edit.split("/")[2], table.view.split("/")[2], table.join.split("/")[2]):
        assert key not in errors.decode()  # nginx's own lines (gunicorn's drop the keys)


def test_a_save_reaches_the_pages_of_the_match_s_table(stack):
    """A table's page (edit and view link) follows its matches: each save tells it, and its
    live part then shows the hand."""
    table = Table(stack.port)
    status, headers, _ = table.scorer.post(table.edit + "masa/", {"name": "Cuma"})
    assert status == 302
    page = headers["location"].removeprefix(f"http://127.0.0.1:{stack.port}")
    view = re.search(r"/masa/izle/[A-Za-z0-9_-]{22,64}/", table.scorer.get(page)[2].decode())[0]
    watcher = Client(stack.port)
    shown = watcher.get(view)[2].decode()
    poll = re.search(r'id="table-live" hx-get="([^"]+)"', shown)[1].replace("&amp;", "&")
    ids = [table.stream_of(table.scorer, page), STREAM.search(shown)[1]]
    assert ids[0] != ids[1]  # one a link
    streams = [Stream(stack.port, stream) for stream in ids]
    time.sleep(0.2)
    for stream in streams:
        stream.opened_with()
    status, _ = table.save(1)
    saved = time.monotonic()
    assert status == 200
    for stream in streams:
        arrived, data = stream.next()
        assert arrived - saved < A_SECOND and data == "changed"
    status, _, body = watcher.get(poll, {"HX-Request": "true"})
    assert status == 200 and "sürüyor: 1 / 13 el" in body.decode()
