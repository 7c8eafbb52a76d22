"""A phone's live stream (cetele.live.push), opened as the browser's EventSource opens it, for the
tests that drive real servers (tests/web/live/test_push.py, tests/container/)."""

import http.client
import queue
import threading
import time


class Stream:
    """What arrives on the stream at `path` (a new version, `data: 12.3`; "gone" when nginx
    closes the stream with 410), with when, in `events`; `closed` once it has ended."""

    def __init__(self, port: int, path: str, headers: dict | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {**(headers or {}), "Accept": "text/event-stream"}
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.events: queue.Queue = queue.Queue()
        self.closed = threading.Event()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        try:
            for line in self.response:
                text = line.decode().rstrip("\n")
                if text.startswith("data: "):
                    self.events.put((time.monotonic(), text[len("data: ") :]))
                elif text.startswith(":410"):
                    self.events.put((time.monotonic(), "gone"))
        except (OSError, ValueError, http.client.HTTPException):
            pass
        self.closed.set()

    def next(self, timeout: float = 5) -> tuple[float, str]:
        return self.events.get(timeout=timeout)

    def opened_with(self) -> list[str]:
        """Once the stream is held: what nginx gave it as it opened (the newest message of the
        last 60 s, if any: deploy/nginx.conf.in), taken out, so that `next` says what came
        since."""
        given = []
        while not self.events.empty():
            given.append(self.events.get_nowait()[1])
        return given

    def close(self) -> None:
        self.connection.close()
