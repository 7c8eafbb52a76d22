"""A deleted match leaves nothing of it in any process's memory.

What each process keeps drawn in the "sheets" and "forms" caches (cetele.live.kept: the drawn
sheets and the next hand's empty fields) holds players' names. Keyed by the match's state, a
deleted match's entries can never be reached again, but they would stay until pushed out or an
hour old. So a deletion, once committed, is announced: the process that made it empties both at
once and writes a new mark in the shared cache (CACHES "default": the database or Redis, which
every process of every app server reads); every other process looks at that mark each second
(DeletionWatch, one thread per process: even one no request reaches) and empties its own when it
changed, then again a second later, in case a request that read the match just before the
deletion kept its drawing after the first time.

Deletions are rare (a phone's "Sil", forget_unused at night), and what is forgotten is drawn again
at its next request: a few milliseconds per table then playing.
"""

import logging
import os
import secrets
import threading

from django.core.cache import cache, caches
from django.db import close_old_connections, transaction

from cetele.live.kept import FORMS, SHEETS

logger = logging.getLogger("cetele.your_data.forgetting")

MARK = "cetele:deletion-mark"  # in the shared cache: a new random value at each deletion
EVERY = 1.0  # seconds between two looks at the mark


def forget_kept() -> None:
    """Empty what this process keeps drawn: all it keeps that may name a player."""
    caches[SHEETS].clear()
    caches[FORMS].clear()


def match_deleted(sender, **kwargs) -> None:
    """post_delete of a Match (cetele.apps): announced once the deletion is committed, so that
    no process draws the match again after forgetting it."""
    transaction.on_commit(announce)


def announce() -> None:
    forget_kept()
    try:
        cache.set(MARK, secrets.token_hex(8), timeout=None)
    except Exception:  # the deletion stands; the other processes forget within the hour
        logger.exception("A deletion could not be announced to the other processes")


class DeletionWatch(threading.Thread):
    """Forget what this process keeps whenever the shared mark changes."""

    def __init__(self, every: float = EVERY) -> None:
        super().__init__(name="cetele-deletion-watch", daemon=True)
        self.every = every
        self.stopped = threading.Event()

    def run(self) -> None:
        seen = self.mark()
        again = False
        while not self.stopped.wait(self.every):
            mark = self.mark()
            if again or mark != seen:
                forget_kept()
                again, seen = mark != seen, mark  # once more at the next look

    def mark(self) -> str | None:
        """The shared mark, or a new value (forget) if the cache cannot be read."""
        try:
            return cache.get(MARK)
        except Exception:  # noqa: BLE001 -- unreadable: forgetting is the safe side
            return secrets.token_hex(8)
        finally:
            close_old_connections()  # as a request would: CONN_MAX_AGE, broken connections


class ForgetInEveryProcess:
    """WSGI middleware (cetele/wsgi.py): starts this process's DeletionWatch with its first
    request, in whichever process serves it (a worker forked after the application was loaded
    does not inherit the loading process's thread)."""

    def __init__(self, application) -> None:
        self.application = application
        self.watching: int | None = None  # the process whose watch is started
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        if self.watching != os.getpid():
            with self.lock:
                if self.watching != os.getpid():
                    DeletionWatch().start()
                    self.watching = os.getpid()
        return self.application(environ, start_response)
