"""Run the app as users get it: real gunicorn, DEBUG off, on a throw-away database.

Used by `make bench`, `make loadtest` and the fault tests (tests/web/shell/test_faults.py):
- `server_env()` the environment of a production-like server on 127.0.0.1;
- `prepare()` migrates the database (a new SQLite file: copies one migrated before; a database
  server: once a process) and collects the static files;
- `Gunicorn` starts, waits for, stops or kills the server;
- `Client` a tiny HTTP client that keeps the CSRF cookie, as a phone does;
- `sample_hand()` / `hand_form_data()` a valid hand, as engine inputs and as the form posts it.
"""

from __future__ import annotations

import atexit
import contextlib
import http.client
import os
import random
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
SEATS = 4


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def process_tree(pid: int) -> list[int]:
    """A server's process and its children (gunicorn's workers, nginx's): what it runs on."""
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [pid, *map(int, children.stdout.split())]


def server_env(database_url: str, static_root: str | Path, **extra: str) -> dict[str, str]:
    """Production settings (DEBUG off, hashed compressed static files) on plain HTTP."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="bench.settings",
        DJANGO_DEBUG="0",
        DJANGO_HTTPS="0",
        DJANGO_SECRET_KEY="bench-" + secrets.token_urlsafe(32),
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url,
        CETELE_STATIC_ROOT=str(static_root),
        PYTHONPATH=str(ROOT),
    )
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT, check=True)


def prepare(env: dict[str, str], static: bool = True) -> None:
    new_file = sqlite_file(env["DATABASE_URL"])
    if new_file is None:
        if environment(env) not in _migrated_servers:
            migrate(env)
            _migrated_servers.add(environment(env))
    elif not new_file.exists():
        copy_sqlite(migrated_sqlite(env), new_file)
    else:
        migrate(env)
    if static:
        manage(env, "collectstatic", "--noinput", "--verbosity", "0")


def migrate(env: dict[str, str]) -> None:
    manage(env, "migrate", "--noinput", "--verbosity", "0")
    manage(env, "createcachetable")  # the shared cache when DJANGO_CACHE_URL=db


def sqlite_file(database_url: str) -> Path | None:
    prefix = "sqlite:///"
    return Path(database_url[len(prefix) :]) if database_url.startswith(prefix) else None


# Migrated SQLite files, one per environment (but its database's name): the tests start dozens
# of servers, each on a new file, and migrating one took about 2 s of CPU. A copy holds what the
# migration made.
_migrated: dict[tuple, Path] = {}
# Database servers (PostgreSQL) this process has migrated, one per environment: on the PostgreSQL
# leg of make test those dozens of servers share the leg's database, and migrating it again with
# nothing to do cost 0.9 s of CPU a server.
_migrated_servers: set[tuple] = set()


def environment(env: dict[str, str], but: tuple[str, ...] = ()) -> tuple:
    """What makes a migration differ: the environment but the server's key, its static folder,
    the name of the test running and `but`."""
    own = {"DJANGO_SECRET_KEY", "CETELE_STATIC_ROOT", "PYTEST_CURRENT_TEST", *but}
    return tuple(sorted((name, value) for name, value in env.items() if name not in own))


def migrated_sqlite(env: dict[str, str]) -> Path:
    key = environment(env, but=("DATABASE_URL",))
    if key not in _migrated:
        folder = Path(tempfile.mkdtemp(prefix="cetele-migrated."))
        atexit.register(shutil.rmtree, folder, True)
        template = folder / "db.sqlite3"
        migrate({**env, "DATABASE_URL": f"sqlite:///{template}"})
        _migrated[key] = template
    return _migrated[key]


def copy_sqlite(source: Path, target: Path) -> None:
    """SQLite's own online backup (whatever a -wal file beside `source` still holds included)."""
    with (
        contextlib.closing(sqlite3.connect(source)) as original,
        contextlib.closing(sqlite3.connect(target)) as copy,
    ):
        original.backup(copy)


class Gunicorn:
    """`gunicorn cetele.wsgi` (or another WSGI `app`) on 127.0.0.1 with the given workers."""

    ready = ("/bench/minimal/", 200)  # asked until it answers so: the server is up

    def __init__(
        self,
        env: dict[str, str],
        workers: int = 2,
        worker_class: str = "sync",
        threads: int = 1,
        port: int | None = None,
        log: Path | None = None,
        extra_args: tuple[str, ...] = (),
        app: str = "cetele.wsgi",
    ) -> None:
        self.env = env
        self.port = port or free_port()
        self.args = [
            sys.executable,
            "-m",
            "gunicorn",
            app,
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(workers),
            "--worker-class",
            worker_class,
            "--threads",
            str(threads),
            "--backlog",
            "4096",
            "--log-level",
            "warning",
            "--logger-class",  # as `make serve` runs it: no key in gunicorn's own lines
            "cetele.shell.logs.GunicornLogger",
            *extra_args,
        ]
        self.log = log
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> Gunicorn:
        with open(self.log if self.log else os.devnull, "ab") as output:
            self.process = subprocess.Popen(
                self.args, env=self.env, cwd=ROOT, stdout=output, stderr=output
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}")
            try:
                status, _, _ = Client(self.port).get(self.ready[0])
                if status == self.ready[1]:
                    return self
            except (OSError, http.client.HTTPException):  # still starting
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("gunicorn did not answer in time")

    def kill(self) -> None:
        """SIGKILL the master and every worker at once: a crash, not a shutdown."""
        assert self.process is not None
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait()

    def pids(self) -> list[int]:
        """The master and its workers (whose CPU a bench reads from /proc)."""
        return process_tree(self.process.pid) if self.process else []

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> Gunicorn:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class RedisServer:
    """Debian's redis-server on a 127.0.0.1 port, nothing written to disk, stopped by its PID."""

    def __init__(self, directory: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.args = [
            "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(directory),
            "--save",
            "",
            "--appendonly",
            "no",
            "--loglevel",
            "warning",
        ]
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10) -> RedisServer:
        self.process = subprocess.Popen(
            self.args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock,
            ):
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not answer in time")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


NGINX_CONF = """# make loadtest's load balancer (bench only; docs/deployment.md shows a real one).
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 16384; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    client_max_body_size 64k;
    upstream cetele {{
{servers}
        keepalive 64;
        keepalive_timeout 1s;  # below gunicorn's 2 s keep-alive (deploy/nginx.conf.in: why)
    }}
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        location / {{
            proxy_pass http://cetele;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            # The Host the phone sent, with its port: the browser's Origin names that port too.
            proxy_set_header Host $http_host;
            # Set, not appended: the balancer is the edge, whatever the client wrote is dropped.
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            # Bench only: which app server answered, so the leg can show both did.
            add_header X-Upstream $upstream_addr always;
        }}
    }}
}}
"""


class Nginx:
    """Debian's nginx as a round-robin load balancer on a 127.0.0.1 port, with its own config
    and temporary files in `directory` (never port 80, never the system's config)."""

    def __init__(self, directory: Path, upstream_ports: list[int], port: int | None = None):
        self.directory = Path(directory)
        self.port = port or free_port()
        self.upstream_ports = upstream_ports
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 10) -> Nginx:
        self.directory.mkdir(parents=True, exist_ok=True)
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.directory / sub).mkdir(exist_ok=True)
            (self.directory / sub).chmod(0o777)  # nginx's workers drop root for nobody
        conf = self.directory / "nginx.conf"
        conf.write_text(self.config())
        self.process = subprocess.Popen(
            ["nginx", "-p", str(self.directory), "-c", str(conf), "-e", "nginx-error.log"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = (self.directory / "nginx-error.log").read_text(errors="replace")
                raise RuntimeError(f"nginx exited with {self.process.returncode}: {log}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                if Client(self.port).get("/bench/minimal/")[0] == 200:
                    return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("nginx did not answer in time")

    def config(self) -> str:
        servers = "\n".join(f"        server 127.0.0.1:{port};" for port in self.upstream_ports)
        return NGINX_CONF.format(dir=self.directory, servers=servers, port=self.port)

    def pids(self) -> list[int]:
        return process_tree(self.process.pid) if self.process else []

    def stop(self, graceful: bool = True) -> None:
        """Gracefully (SIGQUIT: what is in flight finishes, a held stream may keep a worker up to
        10 s), or as a restart does (SIGTERM, `nginx -s stop`: every stream cut at once)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT if graceful else signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> Nginx:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


NCHAN_MODULE = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")  # Debian's libnginx-mod-nchan


class PushNginx(Nginx):
    """nginx as `make serve` runs it (deploy/nginx.conf.in): the phones' live streams (nchan)
    and the app servers behind; `publish_port`: nchan's publisher, for the app servers' env
    (push_env)."""

    def __init__(self, directory: Path, upstream_ports: list[int], port: int | None = None):
        super().__init__(directory, upstream_ports, port)
        self.publish_port = free_port()

    def config(self) -> str:
        servers = "\n".join(f"        server 127.0.0.1:{port};" for port in self.upstream_ports)
        fill = {
            "@NCHAN_MODULE@": str(NCHAN_MODULE),
            "@RUN@": str(self.directory),
            "@SERVERS@": servers,
            "@BIND@": f"127.0.0.1:{self.port}",
            "@PUBLISH@": f"127.0.0.1:{self.publish_port}",
            "@PUBLISH_ALLOW@": "",
        }
        config = (ROOT / "deploy" / "nginx.conf.in").read_text()
        for name, value in fill.items():
            config = config.replace(name, value)
        # Its own log file, read by the tests (serve.sh's nginx logs to its terminal).
        log = f"error_log {self.directory}/nginx-error.log warn;"
        # Bench only: which app server answered, so that the load test can show both did.
        forwarded = "proxy_set_header X-Forwarded-Proto $forwarded_proto;"
        upstream = forwarded + "\n            add_header X-Upstream $upstream_addr always;"
        return config.replace("error_log stderr warn;", log).replace(forwarded, upstream)

    def push_env(self) -> dict[str, str]:
        """What an app server behind it needs: where to publish, and that nginx is its proxy."""
        return {
            "CETELE_PUSH_PUBLISH": f"http://127.0.0.1:{self.publish_port}/pub/",
            "DJANGO_TRUSTED_PROXIES": "127.0.0.1",
        }


class Client:
    """A phone talking to 127.0.0.1: keeps its cookies (the CSRF token, the links it opened),
    never follows redirects."""

    def __init__(self, port: int, timeout: float = 30, source: str | None = None) -> None:
        self.port = port
        self.timeout = timeout
        self.source = (source, 0) if source else None  # e.g. 127.0.0.2: another client address
        self.cookies: dict[str, str] = {}

    @property
    def csrf(self) -> str:
        return self.cookies.get("csrftoken", "")

    @csrf.setter
    def csrf(self, value: str) -> None:
        self.cookies["csrftoken"] = value

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if self.csrf:
            headers["X-CSRFToken"] = self.csrf
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=self.timeout, source_address=self.source
        )
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            found = {name.lower(): value for name, value in response.getheaders()}
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    cookie, _, value = value.split(";", 1)[0].partition("=")
                    self.cookies[cookie.strip()] = value.strip('"')
            return response.status, found, data
        finally:
            connection.close()

    def get(self, path: str, headers: dict | None = None) -> tuple[int, dict[str, str], bytes]:
        return self.request("GET", path, headers=headers)

    def post(
        self, path: str, data: dict | bytes, htmx: bool = False, headers: dict | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """POST a form: a dict, or its body already encoded (`encode_form`)."""
        headers = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        if htmx:
            headers["HX-Request"] = "true"
        body = data if isinstance(data, bytes) else encode_form(data)
        return self.request("POST", path, body, headers)

    def start_match(self, names: tuple[str, ...] = ("Ayşe", "Bora", "Cem", "Deniz")) -> str:
        """Start a match through the form, as a phone does; returns its edit path /m/<token>/."""
        self.get("/yeni/")
        form = {f"name_{n}": name for n, name in enumerate(names, start=1)}
        form.update(preset="cetele-standart", cezali="1", planned_hands="13")
        status, headers, _ = self.post("/yeni/", form)
        if status not in (302, 303):
            raise RuntimeError(f"starting a match answered {status}")
        path = headers["location"]
        self.get(path)  # sets the CSRF cookie, as opening the page does
        return path


def encode_form(data: dict) -> bytes:
    """A form's body as a browser sends it (application/x-www-form-urlencoded)."""
    return urlencode(data).encode()


def sample_hand(rng: random.Random, seats: int = SEATS) -> dict:
    """A valid HAND object of the scoring contract: someone finishes, the others hold tiles."""
    finisher = rng.randrange(seats)
    players = []
    for seat in range(seats):
        if seat == finisher:
            players.append({"opened": "series", "okeys": 0, "fake_okeys": 0, "penalties": []})
            continue
        opened = rng.choice(["series", "series", "pairs", "no"])
        player = {"opened": opened, "okeys": 0, "fake_okeys": 0, "penalties": []}
        if opened != "no":  # a sum is typed only for a player who opened
            player["remaining"] = rng.randint(0, 90)
        players.append(player)
    return {"finisher": finisher, "okey_finish": False, "kafa": False, "players": players}


def hand_form_data(inputs: dict, request_token: str | None = None) -> dict[str, str]:
    """The hand form's fields for `inputs`, as the browser posts them with "Kaydet"."""
    data = {
        "finisher": "none" if inputs["finisher"] is None else str(inputs["finisher"]),
        "okey_number": "",
        "request_token": request_token or secrets.token_urlsafe(16),
        "action": "save",
    }
    for seat, player in enumerate(inputs["players"]):
        prefix = f"p{seat}-"
        data[prefix + "opened"] = player["opened"]
        if player.get("remaining") is not None:
            data[prefix + "remaining"] = str(player["remaining"])
        data[prefix + "okeys"] = str(player.get("okeys", 0))
        data[prefix + "fake_okeys"] = str(player.get("fake_okeys", 0))
        data[prefix + "pen-TOTAL_FORMS"] = "0"
        data[prefix + "pen-INITIAL_FORMS"] = "0"
    return data


def seed_match(*, planned: int, hands: int, rng: random.Random):
    """A four-player match on the standard table with `hands` sample hands, made through the ORM
    (Match.start + add_hand with the engine's results). Django must be set up."""
    import scoring
    from cetele.models import Match

    rules = scoring.resolve_rules("cetele-standart")
    match = Match.start(
        ["Ayşe", "Bora", "Cem", "Deniz"],
        teams=False,
        planned_hands=planned,
        rules=rules,
        preset_slug="cetele-standart",
        base_rules=rules,
    )
    return add_sample_hands(match, hands, rng)


def add_sample_hands(match, hands: int, rng: random.Random):
    """`hands` sample hands added to this match through the ORM; the match, at its new version."""
    for _ in range(hands):
        match.add_hand(sample_hand(rng))
    match.refresh_from_db(fields=["version"])
    return match
