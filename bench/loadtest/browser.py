"""The load client's HTTP, as a phone's browser sends it: a few lines of asyncio over raw
sockets, one connection per request (a phone that asks every few seconds has let its keep-alive
lapse), each request timed into its step and bounded by a timeout."""

from __future__ import annotations

import asyncio
import re
import time

from bench.loadtest.figures import Step
from bench.loadtest.phones import Phone

HOST = "127.0.0.1"
REQUEST_TIMEOUT = 10.0
MAX_IN_FLIGHT = 4000


class Browser:
    """Every phone's browser, sending to one server (or balancer) on 127.0.0.1."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.origin = f"http://{HOST}:{port}"
        self.in_flight = 0
        self.tasks: set[asyncio.Task] = set()

    async def http(self, request: bytes) -> tuple[int, bytes, bytes]:
        """Send one request on a new connection; its status, head and body."""
        reader, writer = await asyncio.open_connection(HOST, self.port)
        try:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
            if status in (204, 304):
                body = b""
            elif length:
                body = await reader.readexactly(int(length[1]))
            else:
                body = await reader.read()
            return status, head, body
        finally:
            writer.close()

    def request(
        self,
        method: str,
        path: str,
        phone: Phone,
        htmx: dict[str, str] | None = None,
        body: bytes = b"",
        referer: str = "",
    ) -> bytes:
        """A request as the phone's browser sends it: `htmx` the HX-* headers of an htmx
        request (htmx adds the page's hx-headers, the CSRF token), else a navigation."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}"]
        if htmx is not None:
            lines += ["HX-Request: true", f"HX-Current-URL: {self.origin}{phone.url}"]
            lines += [f"{name}: {value}" for name, value in htmx.items()]
            if phone.csrf:
                lines.append(f"X-CSRFToken: {phone.csrf}")
        else:
            lines.append("Accept: text/html,application/xhtml+xml,*/*;q=0.8")
        lines.append("Accept-Language: tr-TR,tr;q=0.9")
        if referer:  # Referrer-Policy: same-origin: the browser names the page, on this site
            lines.append(f"Referer: {self.origin}{referer}")
        if phone.cookies:
            lines.append(f"Cookie: {phone.cookie}")
        if method == "POST":
            lines += [
                f"Origin: {self.origin}",
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
            ]
        lines.append("Connection: close")
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body

    async def timed(self, step: Step, kind: str, request: bytes, due: float | None = None):
        """The answer (status, head, body, ms) or None, counted in the step as an error; `due`:
        when it should have been sent, so that a client too slow to keep up shows as lag."""
        started = time.monotonic()
        if due is not None:
            step.lags.append((started - due) * 1000)
        try:
            status, head, body = await asyncio.wait_for(self.http(request), REQUEST_TIMEOUT)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as error:
            step.error(f"{kind}: {type(error).__name__}")
            return None
        elapsed = (time.monotonic() - started) * 1000
        step.by_second.setdefault(int(started), []).append(elapsed)
        return status, head, body, elapsed

    def fire(self, step: Step, coroutine, after: float = 0.0) -> None:
        """Send without waiting for the answer (open-loop), `after` seconds from now, up to
        MAX_IN_FLIGHT at once: past that the server is far beyond capacity and the client would
        only run out of files. A task still waiting to send holds no file and is not counted:
        after a restart every phone's ask on reopening waits up to 5 s, and 4,808 of them,
        counted while they waited, found the client full and were dropped."""
        task = asyncio.create_task(self.sent_after(step, coroutine, after))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def sent_after(self, step: Step, coroutine, after: float) -> None:
        if after > 0:
            await asyncio.sleep(after)
        if self.in_flight >= MAX_IN_FLIGHT:
            coroutine.close()
            step.error("client: too many requests in flight")
            return
        self.in_flight += 1
        try:
            await coroutine
        finally:
            self.in_flight -= 1
