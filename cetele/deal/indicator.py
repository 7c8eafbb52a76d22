"""The open hand's gösterge: set by any joined phone or the scorer, read by every phone.

Every phone's sheet shows what it tells of the okey ("Okey: kırmızı 8"), the view link's too:
a change of that bumps `Match.version` (and the moment of the change, as a saved hand does:
cetele.live.kept names a drawing by both) in the transaction that keeps it. A colour tapped
before its number tells the sheet nothing yet: it bumps only `Match.draft_version`, as a row
does, so that the scorer's form takes it (the rows' poll) while no viewer's sheet is fetched
again for a half-tapped tile (two taps a hand, one new sheet). It is kept for the hand's
place: one that arrives after that hand was saved is refused, never applied to the next hand.
The scorer is the authority, as for the rows: once the scorer has set it, a phone's (a late one
sent when its signal came back, or a tap on a page that had not heard yet) does not replace it.
"""

import json
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from cetele.deal.models import OpenIndicator
from cetele.deal.tiles import okey_of, okey_words
from cetele.live import push
from cetele.models import Match
from cetele.seats.drafts import HandClosed, open_position


@dataclass(frozen=True)
class Indicator:
    """A gösterge as the hand form and the pages use it."""

    colour: str | None
    number: int | None  # the indicator's own number (the okey's is the next)
    fake: bool
    seat: int | None = None  # who set it: a joined phone's seat, None for the scorer

    @property
    def okey_number(self) -> int | None:
        return okey_of(self.number) if self.number is not None else None

    @property
    def words(self) -> str:
        """Everything tapped so far, a colour alone too ("Gösterge: kırmızı"): the form's."""
        return okey_words(self.colour, self.okey_number, self.fake)

    @property
    def sheet_words(self) -> str:
        """What every phone's sheet shows: the okey once its number is known, a fake okey; a
        colour alone is not the okey yet ("" then)."""
        colour = self.colour if self.number is not None else None
        return okey_words(colour, self.okey_number, self.fake)

    @property
    def initial(self) -> dict:
        """The hand form's initial values (cetele.hand_form.forms.HandLevelForm)."""
        return {"colour": self.colour, "indicator": self.number, "riziko": self.fake}


def indicator_json(indicator: Indicator | None) -> str:
    """A gösterge as the scorer's page compares the form's with the rows' poll (seats.js)."""
    return json.dumps(indicator.initial if indicator is not None else {}, sort_keys=True)


def open_indicator(match: Match, position: int | None) -> Indicator | None:
    """The gösterge set for the hand at `position`, or None (none set, or set for a hand that
    has been saved since): one query."""
    if position is None:
        return None
    row = OpenIndicator.objects.filter(match_id=match.pk, position=position).first()
    if row is None or row.is_empty:
        return None
    return Indicator(row.colour or None, row.number, row.fake, row.seat)


class ScorersIndicator(Exception):
    """The scorer set this hand's gösterge: a joined phone's does not replace it."""

    def __init__(self, kept: Indicator) -> None:
        super().__init__()
        self.kept = kept


def set_indicator(match: Match, position: int, indicator: Indicator) -> None:
    """Keep `indicator` as the gösterge of the hand at `position`, or HandClosed when that hand
    is no longer the open one (the match row locked first, as a save locks it, and the open
    place read after the lock: see cetele.seats.drafts.write_row). A phone's gösterge where the
    scorer has set one: ScorersIndicator, unless it says the same (then nothing changes)."""
    with transaction.atomic():
        Match.objects.select_for_update().only("id").get(pk=match.pk)
        now_open = open_position(match)
        if now_open != position:
            raise HandClosed(now_open)
        kept = open_indicator(match, position)
        if indicator.seat is not None and kept is not None and kept.seat is None:
            if kept.initial == indicator.initial:
                return  # the phone agrees with the scorer
            raise ScorersIndicator(kept)
        shown = kept.sheet_words if kept is not None else ""
        OpenIndicator.objects.update_or_create(
            match=match,
            defaults={
                "position": position,
                "colour": indicator.colour or "",
                "number": indicator.number,
                "fake": indicator.fake,
                "seat": indicator.seat,
            },
        )
        changed = Match.objects.filter(pk=match.pk)
        if indicator.sheet_words != shown:
            changed.update(version=F("version") + 1, touched_at=timezone.now())
        else:
            changed.update(draft_version=F("draft_version") + 1)
        push.announce(changed)
    match.refresh_from_db(fields=["version", "draft_version", "touched_at"])
