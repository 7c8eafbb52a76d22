"""The rows joined phones write for the hand being entered, and what every phone sees of them.

A row is kept for (match, hand's place, seat) until the scorer saves that hand (the save clears
them: Match._clear_open_hand). Writing one bumps `Match.draft_version`,
never `Match.version`: the sheet is not redrawn for a rack being typed. The rows' poll compares
both, so a phone learns of a new row and of a saved hand (its row then moves to the next place)
from one indexed query, and "nothing changed" costs only that.
"""

import hashlib
import json
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F

from cetele.live import push
from cetele.models import Match
from cetele.seats.models import DraftRow


class HandClosed(Exception):
    """The hand this row was written for was saved (or the match is over) before it arrived:
    it is not applied. `position` is the place open now (None when the match is over)."""

    def __init__(self, position: int | None) -> None:
        super().__init__()
        self.position = position


def open_position(match: Match) -> int | None:
    """The place of the hand being entered (the next one), or None when every hand is played:
    one COUNT, whatever the number of hands."""
    played = match.hands.count()
    return played + 1 if played < match.planned_hands else None


def write_row(match: Match, position: int, seat: int, values: dict, finished: bool) -> None:
    """Keep a phone's row for the hand at `position`, or HandClosed when that hand is no longer
    the open one. The match's row is locked first, as a save locks it (Match._lock), and the
    open place is read after the lock in a statement of its own: a save that committed while
    this waited is seen, so a row never lands on a hand already saved.

    The same row sent again (a phone sends its row as it changes, and the field it leaves sends
    it once more; a retry) changes nothing: no new rows' version, so no news for the table's
    pages to fetch."""
    with transaction.atomic():
        Match.objects.select_for_update().only("id").get(pk=match.pk)
        now_open = open_position(match)
        if now_open != position:
            raise HandClosed(now_open)
        kept = DraftRow.objects.filter(match=match, position=position, seat=seat).first()
        if kept is None:
            DraftRow.objects.create(
                match=match, position=position, seat=seat, values=values, finished=finished
            )
        elif (kept.values, kept.finished) == (values, finished):
            return
        else:
            kept.values, kept.finished = values, finished
            kept.save(update_fields=["values", "finished", "updated_at"])
        Match.objects.filter(pk=match.pk).update(draft_version=F("draft_version") + 1)
        push.announce(Match.objects.filter(pk=match.pk))


@dataclass(frozen=True)
class SeatState:
    """What the table sees of one player for the open hand."""

    seat: int
    name: str
    joined: bool  # a phone has this seat
    row: DraftRow | None  # what that phone wrote, if anything

    @property
    def data(self) -> dict | None:
        """The row as the scorer's page applies it to the hand form (seats.js)."""
        if self.row is None:
            return None
        return {
            "seat": self.seat,
            "name": self.name,
            "finished": self.row.finished,
            **self.row.values,
        }

    @property
    def data_json(self) -> str:
        return json.dumps(self.data) if self.row is not None else ""

    @property
    def stamp(self) -> str:
        """What names this row as written (its seat and a digest of what it says): the same
        row sent again keeps its stamp, a changed one gets another. "" without a row."""
        if self.row is None:
            return ""
        said = json.dumps([self.seat, self.row.values, self.row.finished], sort_keys=True)
        return f"{self.seat}-{hashlib.sha256(said.encode()).hexdigest()[:12]}"


def rows_seen(table: list[SeatState]) -> str:
    """The stamps of every row written, as the scorer's hand form carries them once it has
    shown them (the rows' section's data-rows-seen, taken by seats.js; a refused save's form)."""
    return " ".join(state.stamp for state in table if state.row is not None)


class RowsArrived(Exception):
    """A save drawn before rows the server holds: `arrived` are the rows its form never showed,
    `written` every row written now."""

    def __init__(self, arrived: list[SeatState], written: list[SeatState]) -> None:
        super().__init__()
        self.arrived, self.written = arrived, written


def check_rows_seen(match: Match, players: list, position: int, seen: frozenset[str]) -> None:
    """Within the save's transaction, before it writes: RowsArrived when the server holds a row
    for the hand at `position` that the saving form did not show (`seen`: the stamps it carries).
    The match's row is locked first, as write_row and the save lock it, and the rows are read
    after the lock in a statement of their own: a row committed before this is seen, one sent
    after waits for the save and is refused to its phone (HandClosed). So no row the server held
    is ever saved over in silence."""
    Match.objects.select_for_update().only("id").get(pk=match.pk)
    rows = {row.seat: row for row in match.draft_rows.filter(position=position)}
    written = [SeatState(p.seat, p.name, True, rows[p.seat]) for p in players if p.seat in rows]
    arrived = [state for state in written if state.stamp not in seen]
    if arrived:
        raise RowsArrived(arrived, written)


def table_rows(match: Match, players: list, position: int | None) -> list[SeatState]:
    """Every player's state for the hand at `position`: two queries, whatever the number of
    hands (the seats taken, the rows written)."""
    if position is None:
        return []
    joined = set(match.seat_claims.values_list("seat", flat=True))
    rows = {row.seat: row for row in match.draft_rows.filter(position=position)}
    return [SeatState(p.seat, p.name, p.seat in joined, rows.get(p.seat)) for p in players]
