"""Drawings kept once drawn: the one way every page part that many phones ask for at the same
state (the sheet, the open hand's rows, the next hand's empty fields and chips, a tournament's
live part) is read from memory or drawn and kept, and the one way such a drawing is named.

Why memory is enough, and correct behind a load balancer: a key names everything its drawing
shows (`drawing_key`), and the state part of it (`state_stamp`) is read from the database by the
request that uses it, before the drawing. So a key is never written twice with different
contents: there is nothing to invalidate and nothing to share; each app server draws a state at
most once. A drawing made while another phone writes may show the newer state under the older
key (its phones then ask again at once), never an older one. A deletion empties the cache in
every process (cetele.your_data.forgetting): no drawing of a deleted match, names and all, stays
in memory.
"""

import hashlib
import threading
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import caches
from django.utils.translation import get_language

# The cache aliases (cetele.settings.CACHES), both this process's memory: drawings of one
# state, and those drawn once for a match's whole life.
SHEETS = "sheets"
FORMS = "forms"

Drawing = TypeVar("Drawing")

# The drawings this process is drawing now, by key: whoever asks for one meanwhile waits.
DRAWING: dict[str, threading.Lock] = {}
DRAWING_GUARD = threading.Lock()


def kept(key: str, draw: Callable[[], Drawing], alias: str = SHEETS) -> Drawing:
    """The drawing named `key`: taken from memory, or drawn now by `draw` and kept (in `alias`:
    FORMS for a drawing no change to the match moves, out of the way of the states' churn),
    once, however many threads ask for it at the same time."""
    cache = caches[alias]
    if (found := cache.get(key)) is not None:
        return found
    with DRAWING_GUARD:
        drawing = DRAWING.setdefault(key, threading.Lock())
    try:
        with drawing:  # drawn by the first to get here; the others find it kept
            return cache.get_or_set(key, draw)
    finally:
        with DRAWING_GUARD:
            if DRAWING.get(key) is drawing:
                del DRAWING[key]


def state_stamp(pk: int, created_at, versions: str = "", touched_at=None) -> str:
    """One state of one match (or of one tournament, whose live version counts its matches'):
    its id and creation time (an id alone may name another one in a database restored from a
    backup, and in every test, whose transaction is rolled back), its versions, and the moment
    of the change that made it (a restored database reaches a version number again with other
    contents, never at the same moment; `touched_at` is also moved by a day's first visit,
    which costs one drawing). Without `versions` and `touched_at`: the match whatever its state,
    for a drawing that no change to its hands moves (the next hand's empty fields)."""
    moment = touched_at.timestamp() if touched_at is not None else ""
    return f"{pk}:{created_at.timestamp()}:{versions}:{moment}"


def drawing_key(kind: str, state: str, *shown: str, token: str = "") -> str:
    """The one way every kept drawing is named: its kind; the state it is drawn from
    (`state_stamp`: whatever changes in the database moves it); what else it shows that no
    version moves (`shown`: a role, whom the totals are drawn for, the players' names...); the
    link it holds, as a digest (a rotated link names other drawings; the key never holds a
    link); and the language. Whatever a drawing shows beside its state must be in `shown`:
    anything else would be kept from before it changed
    (tests/web/live/test_every_input_change_is_drawn.py)."""
    digest = hashlib.sha256(token.encode()).hexdigest()[:32] if token else ""
    return ":".join((kind, state, *shown, digest, get_language()))
