"""One stack the load runs against: `servers` gunicorn app servers, behind nginx when scaled
out (bench/harness.py starts each). Its own module so that the checks (checks.py), which the
stack's run (stacks.py) calls, can name it without importing that run back."""

from __future__ import annotations

from pathlib import Path

from bench.harness import Gunicorn, Nginx


class Stack:
    """`servers` gunicorn app servers, behind nginx when `balancer` (else the one server)."""

    def __init__(self, env, args, servers: int, balancer: bool, directory: Path) -> None:
        self.servers = [
            Gunicorn(
                env,
                workers=args.workers,
                worker_class=args.worker_class,
                threads=args.threads,
                log=directory / f"gunicorn-{n}.log",
            )
            for n in range(servers)
        ]
        self.nginx = (
            Nginx(directory / f"nginx-{servers}", [s.port for s in self.servers])
            if balancer
            else None
        )
        self.directory = directory

    @property
    def port(self) -> int:
        return self.nginx.port if self.nginx else self.servers[0].port

    def start(self) -> Stack:
        for server in self.servers:
            server.start()
        if self.nginx:
            self.nginx.start()
        return self

    def stop(self) -> None:
        if self.nginx:
            self.nginx.stop()
        for server in self.servers:
            server.stop()

    def app_pids(self) -> list[int]:
        return [pid for server in self.servers for pid in server.pids()]

    def logs(self) -> str:
        return "".join(
            (self.directory / f"gunicorn-{n}.log").read_text(errors="replace")
            for n in range(len(self.servers))
        )
