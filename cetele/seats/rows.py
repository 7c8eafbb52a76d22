"""The open hand's rows, drawn once per state and kept (cetele.live.kept), as the sheet is
(cetele.matches.sheet).

Every row a joined phone writes is news to each page of its table: the scorer's and every joined
phone's rows' poll then asks for the rows, and all of them, of one role, would draw the same
thing. So the rows' section (seats/_rows.html: who has written what, where to ask next and how
often, the gösterge kept for the hand) is drawn once per (match, sheet's version, rows' version,
role, link, language) and kept in the "sheets" cache beside the sheet. A rows' answer with news
took 7 queries and a template walk (about 4 ms in-process, bench/profile.py rows); a kept one is
the version lookup and one cache read.

Why this is correct, by the same argument as the sheet's (cetele.live.kept): every change to what
the section shows bumps `Match.version` (a hand saved, corrected or undone, the gösterge's number)
or `Match.draft_version` (a row written, a seat taken or freed, the gösterge's colour) in the
transaction that makes it, and both are in the key, read before the drawing; a drawing made
while another phone writes may show the newer state (its URL then names that state), never an
older one. Nothing in it varies with the request: a joined phone's own seat is marked by its page
around it (data-phone-of on <body>, seats.css), and the parts of an answer that carry a form —
the phone's fresh row after a save, its gösterge section — are drawn per request by the view.
A deletion empties the cache with the sheets (cetele.your_data.forgetting).
"""

from dataclasses import dataclass

from django.utils.safestring import SafeString

from cetele.live.kept import drawing_key, state_stamp
from cetele.sharing.links import PolledMatch


@dataclass(frozen=True)
class Rows:
    """The rows' section as drawn, with the hand it is for."""

    position: int | None  # the hand being entered; None once every hand is played
    html: SafeString  # <section id="table-rows">…</section>; empty when position is None


def rows_key(state: PolledMatch, role: str) -> str:
    """What names one drawing (cetele.live.kept.drawing_key): the match's state (both versions
    and the last change's moment), the role, the link (the section's URL holds the token), the
    language."""
    versions = f"{state.version}.{state.draft_version}"
    match_state = state_stamp(state.pk, state.created_at, versions, state.touched_at)
    return drawing_key("rows", match_state, role, token=state.token)
