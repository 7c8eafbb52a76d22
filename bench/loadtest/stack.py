"""One stack the load runs against: `servers` app servers behind nginx as `make serve` runs them
(deploy/nginx.conf.in, with nchan holding the phones' streams; bench/harness.py PushNginx): each
app server is `--workers` gunicorn processes, each of its own in nginx's upstream, which sends each
link's requests to one of them. With `push` the app servers publish each change to nchan and their
pages carry a stream; without it they do not, and the pages poll: the same front, the same servers,
only push differs. Its own module so that the checks (checks.py), which the stack's run (stacks.py)
calls, can name it without importing that run back."""

from __future__ import annotations

from pathlib import Path

from bench.harness import Gunicorn, PushNginx, free_port


class Stack:
    """`servers` app servers of `--workers` gunicorn processes each behind nginx (each link's
    requests to one process), publishing when `push`."""

    def __init__(self, env, args, servers: int, directory: Path, push: bool) -> None:
        name = f"{'push' if push else 'poll'}-{servers}"
        ports = [free_port() for _ in range(servers * args.workers)]
        self.nginx = PushNginx(directory / f"nginx-{name}", ports)
        # Behind nginx: the phone's address is the one nginx saw (both modes).
        server_env = {**env, "DJANGO_TRUSTED_PROXIES": "127.0.0.1"}
        if push:
            server_env.update(self.nginx.push_env())
        self.logs_at = [directory / f"gunicorn-{name}-{n}.log" for n in range(len(ports))]
        self.servers = [
            Gunicorn(
                server_env,
                workers=1,
                worker_class=args.worker_class,
                threads=args.threads,
                port=port,
                log=log,
            )
            for port, log in zip(ports, self.logs_at, strict=True)
        ]
        self.push = push

    @property
    def port(self) -> int:
        return self.nginx.port

    def start(self) -> Stack:
        for server in self.servers:
            server.start()
        self.nginx.start()
        return self

    def stop(self) -> None:
        self.nginx.stop()
        for server in self.servers:
            server.stop()

    def restart_nginx(self) -> None:
        """nginx stopped (SIGTERM: `nginx -s stop`, not a graceful quit or a reload: every
        stream is cut) and started again on the same ports, once it has exited."""
        self.nginx.stop(graceful=False)
        self.nginx.start()

    def app_pids(self) -> list[int]:
        return [pid for server in self.servers for pid in server.pids()]

    def logs(self) -> str:
        return "".join(log.read_text(errors="replace") for log in self.logs_at if log.exists())
