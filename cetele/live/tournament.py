"""A tournament's live part (cetele.tournaments) as its view link shows it: drawn once per live
version and kept, as the sheet is (board.py).

Every phone in the café that follows a tournament's view page asks for its live part, and every
save at any of its tables is news to all of them: each would draw the same standings, bracket and
tables' scores. A 64-team tournament's live part takes some 100 ms to read and draw (the hands of
every game, 16 groups' standings, 80 KB of HTML: bench/loadtest/ --tournament, docs/
performance.md); with the list of every game in it (so that the poll never leaves a finished
game at "el 0/1" beside standings that count it), a 64-table one's is 125 KB, some 45 ms more
to draw (448 games; tests/web/tournaments/test_tournaments.py's `sized`, 2026-12-05), so it is drawn
once per (tournament, live version, language) in each process
and kept in the "sheets" cache beside the sheets; the next phone gets it for the version lookup
and one cache read.

Why this is correct, by the sheet's argument: the live version (cetele.tournaments.state.
live_version) is read first and moves with every change the live part shows (the organiser's
changes bump the tournament's version, every change to a game's sheet its match's), so a drawing
may show a newer state than its key, never an older one. Nothing inside varies with the request:
the view link's live part holds no form, and how long it has been quiet is an attribute of the
<section> around it, written per request. The organiser's (with its forms and CSRF token) is
never kept. A tournament's or a match's deletion empties the cache (cetele.your_data.forgetting).
"""

from collections.abc import Callable

from django.core.cache import caches
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from cetele.live.board import SHEETS


def live_key(pk: int, created_at, version: str, touched_at) -> str:
    """What names one drawing: the tournament (its id and creation time: an id alone may name
    another one in a restored database), its live version and last change, the language."""
    return (
        f"tournament:{pk}:{created_at.timestamp()}:{version}:{touched_at.timestamp()}"
        f":{get_language()}"
    )


def kept_live_part(key: str, draw: Callable[[], SafeString]) -> SafeString:
    """The view link's live part at `key`: drawn now by `draw`, or kept."""
    cache = caches[SHEETS]
    html = cache.get(key)
    if html is None:
        html = draw()
        cache.set(key, html)
    return html
