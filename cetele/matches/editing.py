"""Every change to a match's sheet: a hand added, corrected or deleted, the players renamed, the
first dealer or "gizli toplam" set, an objection raised or closed.

Each runs in one transaction with the match row locked (on PostgreSQL; SQLite's IMMEDIATE
transactions already serialise writers), records itself in the history and bumps `version`, so
that pollers and other editors see it. They are the methods of Match (cetele.matches.models),
written here, in an abstract base of their own, so that each file reads as one thing; undoing
and redoing them is cetele.matches.undo's.
"""

from typing import Self

from django.db import IntegrityError, models, transaction
from django.db.models import F
from django.utils import timezone

from cetele.deal.models import OpenIndicator
from cetele.live import push
from cetele.matches.errors import (
    AlreadySaved,
    HandConflict,
    HandGone,
    HandTaken,
    MatchFinished,
    NamesClash,
    ObjectionGone,
    ResultFrozen,
)
from cetele.matches.records import Change, Hand, Player
from cetele.seats.models import DraftRow, Objection
from cetele.shell.names import name_key
from cetele.tournaments.guard import result_frozen


class SheetEditing(models.Model):
    """The changes to the sheet; `type(self)` is Match (its rows are what is locked and bumped)."""

    class Meta:
        abstract = True

    def _lock(self) -> Self:
        """Lock the match's row for the rest of the transaction: PostgreSQL serialises the
        match's writers on it (SQLite's IMMEDIATE transactions already serialise every writer).
        Match.DoesNotExist when another phone deleted the match since this request found it."""
        return (
            type(self)
            .objects.select_for_update()
            .only("id", "planned_hands", "version")
            .get(pk=self.pk)
        )

    def _record(self, action: str, **fields) -> "Change":
        """Keep the change and bump the version; the match was last touched at its moment."""
        change = Change.objects.create(match_id=self.pk, action=action, **fields)
        type(self).objects.filter(pk=self.pk).update(version=F("version") + 1, touched_at=change.at)
        push.announce(type(self).objects.filter(pk=self.pk))
        return change

    def _bump(self) -> None:
        """A change to what the sheet shows that is no change of its hands or names (an
        objection raised or ended, "gizli toplam" turned on or off): a new version, so that every
        phone's poll brings it and the sheet is drawn again, but nothing for "Geri al"."""
        type(self).objects.filter(pk=self.pk).update(
            version=F("version") + 1, touched_at=timezone.now()
        )
        push.announce(type(self).objects.filter(pk=self.pk))

    def _end_objections(self, number: int, outcome: str, change: "Change") -> None:
        """The open objections on hand `number` end with `change` (a correction, a deletion)."""
        Objection.objects.filter(match_id=self.pk, hand_number=number, outcome="").update(
            outcome=outcome, ended_at=change.at, ended_by=change
        )

    def _reopen_objections(self, correction: "Change") -> None:
        """The objections `correction` ended are open again (its undo). One a seat raised again
        since stays the open one (one open objection per seat and hand): the older stays ended."""
        raised_since = Objection.objects.filter(
            match_id=self.pk, hand_number=correction.hand_number, outcome=""
        ).values("seat")
        ended = Objection.objects.filter(
            match_id=self.pk, ended_by=correction, outcome=Objection.Outcome.CORRECTED
        )
        ended.exclude(seat__in=raised_since).update(outcome="", ended_at=None, ended_by=None)

    def _clear_open_hand(self) -> None:
        """A hand was saved (the scorer's "Eli kaydet", or an undo or a redo putting one back):
        the rows the joined phones wrote (cetele.seats) and the gösterge turned up
        (cetele.deal) were for it, and the next hand starts empty. In the save's own
        transaction, so that neither outlives its hand: a row sent after it is refused
        (cetele.seats.drafts.write_row), not kept, and no phone sees the saved hand's okey as
        the next one's."""
        DraftRow.objects.filter(match_id=self.pk).delete()
        OpenIndicator.objects.filter(match_id=self.pk).delete()

    def _refuse_if_frozen(self) -> None:
        """ResultFrozen when the match is a tournament game whose result a later draw used;
        asked after the match's lock, with the tournament's row then locked too (the order a
        draw never takes the other way round: it locks only the tournament)."""
        if result_frozen(self.pk):
            raise ResultFrozen()

    def _check_fresh_request(self, request_token: str | None) -> None:
        if request_token and self.changes.filter(request_token=request_token).exists():
            raise AlreadySaved()

    def add_hand(
        self,
        inputs: dict,
        request_token: str | None = None,
        position: int | None = None,
        *,
        result: dict | None = None,
    ) -> "Hand":
        """Score `inputs` with the match's rules and append the hand; raises InvalidHand.

        `position` is the place the hand was entered as ("5. el"): when another phone has saved
        that place in the meantime, HandTaken is raised instead of saving the same hand twice.
        `result` is what self.score(inputs) gave, when the caller has already asked (the hand
        form checks every hand with the engine): not asked again. The hand comes back with its
        place (`position`) and the change that added it (`change`: what its "Geri al" names).

        The common path reads least: the lock, then the hands' count and last number (read
        after the lock, in a statement of its own: on PostgreSQL a statement that waited for
        another save's lock still sees the database as it was when that statement began, so a
        count read with the lock would miss the hand the other phone has just saved), then the
        two rows written and the version bumped. Whether this request token saved before (a
        double tap, a retried request) is asked only where the save would be refused otherwise
        (its place taken, the match finished: by itself, at that place); anywhere else the
        change's unique request token refuses a second save (AlreadySaved), in the same
        transaction as the hand, so nothing of it stays.
        """
        if result is None:
            result = self.score(inputs)
        try:
            with transaction.atomic():
                locked = self._lock()
                hands = self.hands.aggregate(played=models.Count("pk"), last=models.Max("number"))
                played = hands["played"]
                if position is not None and played >= position:
                    self._check_fresh_request(request_token)
                    raise HandTaken(self.hands.all()[position - 1 : played])
                if played >= locked.planned_hands:
                    self._check_fresh_request(request_token)
                    raise MatchFinished()
                hand = Hand.objects.create(
                    match_id=self.pk, number=(hands["last"] or 0) + 1, inputs=inputs, result=result
                )
                self._clear_open_hand()
                hand.position = played + 1  # its place on the sheet ("5. el")
                hand.change = self._record(
                    Change.Action.CREATE,
                    hand_number=hand.number,
                    after={"inputs": inputs, "result": result},
                    request_token=request_token or "",
                )
        except IntegrityError as error:
            # This request token saved before, or two requests raced past the checks above:
            # the unique constraints decide.
            raise AlreadySaved() from error
        # At the version it saved (the answer to a save needs no re-read), once it is saved.
        self.version, self.touched_at = locked.version + 1, hand.change.at
        return hand

    def edit_hand(
        self, number: int, inputs: dict, version: int | None, request_token: str | None = None
    ) -> "Hand":
        """Score `inputs` and correct a past hand; `version` is the one the editor's form was
        made from (HandConflict when another phone changed the hand since, HandGone when
        another phone deleted it)."""
        result = self.score(inputs)
        try:
            with transaction.atomic():
                self._lock()
                self._check_fresh_request(request_token)
                self._refuse_if_frozen()
                hand = self._hand(number)
                if version != hand.version:
                    raise HandConflict(hand)
                before = {"inputs": hand.inputs, "result": hand.result}
                hand.inputs, hand.result, hand.version = inputs, result, hand.version + 1
                hand.save(update_fields=["inputs", "result", "version", "updated_at"])
                hand.change = self._record(
                    Change.Action.EDIT,
                    hand_number=number,
                    before=before,
                    after={"inputs": inputs, "result": result},
                    request_token=request_token or "",
                )
                # The correction answers the objections on this hand ("düzeltildi").
                self._end_objections(number, Objection.Outcome.CORRECTED, hand.change)
        except IntegrityError as error:
            raise AlreadySaved() from error
        return hand

    def delete_hand(self, number: int) -> "Change":
        """Delete a hand (HandGone when another phone already did, or undid its addition); the
        hands after it move up a place."""
        with transaction.atomic():
            self._lock()
            self._refuse_if_frozen()
            hand = self._hand(number)
            change = self._record(
                Change.Action.DELETE,
                hand_number=number,
                before={"inputs": hand.inputs, "result": hand.result},
            )
            hand.delete()
            # Nothing is left to correct: its open objections end with the deletion.
            self._end_objections(number, Objection.Outcome.HAND_GONE, change)
            self._settle_last_hand(change)
        return change

    def _hand(self, number: int) -> "Hand":
        try:
            return self.hands.get(number=number)
        except Hand.DoesNotExist as error:
            raise HandGone() from error

    def set_hidden_totals(self, hidden: bool) -> bool:
        """Turn "gizli toplam" on or off; False when it already was so (nothing changes)."""
        with transaction.atomic():
            self._lock()
            updated = type(self).objects.filter(pk=self.pk).exclude(hidden_totals=hidden)
            if not updated.update(hidden_totals=hidden):
                return False
            self._bump()
        self.hidden_totals = hidden
        return True

    # --- Objections ("İtiraz"): a joined phone's player says a saved hand is wrong. Raising and
    # ending one is no change of the sheet's hands (nothing for "Geri al"), but the sheet shows
    # it on the hand's row: each bumps the version.

    def raise_objection(self, number: int, seat: int, reason: str, note: str) -> bool:
        """Object to hand `number` for the player at `seat`; True when it replaced that seat's
        open objection on the hand (one per seat and hand: the newer reason counts). HandGone
        when the hand is not there (deleted, or its addition undone, since the phone's page)."""
        with transaction.atomic():
            self._lock()
            if not self.hands.filter(number=number).exists():
                raise HandGone()
            mine = Objection.objects.filter(
                match_id=self.pk, hand_number=number, seat=seat, outcome=""
            )
            replaced = bool(mine.update(reason=reason, note=note))
            if not replaced:
                Objection.objects.create(
                    match_id=self.pk, hand_number=number, seat=seat, reason=reason, note=note
                )
            self._bump()
        return replaced

    def close_objection(self, objection_id: int) -> tuple["Objection", bool]:
        """The scorer's "Doğru, kapat": the hand stays as it is and the objection ends; True
        with it. An objection that had ended already (a double tap, a correction since) comes
        back as it ended, unchanged, with False; ObjectionGone when the match has no such
        objection."""
        with transaction.atomic():
            self._lock()
            objection = Objection.objects.filter(match_id=self.pk, pk=objection_id).first()
            if objection is None:
                raise ObjectionGone()
            if not objection.is_open:
                return objection, False
            objection.outcome, objection.ended_at = Objection.Outcome.CLOSED, timezone.now()
            objection.save(update_fields=["outcome", "ended_at"])
            self._bump()
        return objection, True

    def rename_players(self, names: list[str] | dict[int, str]) -> None:
        """Every player's name (a list by seat), or only the seats a page changed (a dict): the
        others keep the name they have now, under the lock, so a rename saved meanwhile by
        another phone stands. Two players of one name, as the names are now, raise NamesClash."""
        with transaction.atomic():
            self._lock()
            players = list(self.players.all())
            before = [p.name for p in players]
            if isinstance(names, dict):
                names = [names.get(p.seat, p.name) for p in players]
            if len({name_key(name) for name in names}) != len(names):
                raise NamesClash()
            if before == names:
                return
            for player, name in zip(players, names, strict=True):
                player.name = name
            Player.objects.bulk_update(players, ["name"])
            self._record(Change.Action.RENAME, before={"names": before}, after={"names": names})

    def set_first_dealer(self, seat: int) -> bool:
        """Who deals the first hand, while no hand is saved (False, and nothing changed, once
        one is: the dealers of the hands played follow from it). Every phone's sheet names
        the dealer, so the version is bumped; no history entry: no score changes."""
        with transaction.atomic():
            self._lock()
            if self.hands.exists():
                return False
            type(self).objects.filter(pk=self.pk).update(
                first_dealer=seat, version=F("version") + 1, touched_at=timezone.now()
            )
            push.announce(type(self).objects.filter(pk=self.pk))
        self.refresh_from_db(fields=["first_dealer", "version", "touched_at"])
        return True

    def _settle_last_hand(self, cause: "Change") -> None:
        """Give the "last hand" fact (RULES.md: the sheet sets it) to the hand in the match's
        last planned place, and only to it, re-scoring each hand whose fact changed because a
        change (`cause`) moved the hands' places: a deletion, or an undo or redo of an addition
        or a deletion. Each re-scoring is kept in the history. A match whose rules have no
        last-hand multiplier is never touched."""
        if not self.ruleset().last_hand_multiplier:
            return
        for position, hand in enumerate(self.hands.all(), start=1):
            last = position == self.planned_hands
            if bool(hand.inputs.get("last_hand")) == last:
                continue
            before = {"inputs": hand.inputs, "result": hand.result}
            hand.inputs = {**hand.inputs, "last_hand": last}
            hand.result, hand.version = self.score(hand.inputs), hand.version + 1
            hand.save(update_fields=["inputs", "result", "version", "updated_at"])
            self._record(
                Change.Action.RESCORE,
                hand_number=hand.number,
                before=before,
                after={"inputs": hand.inputs, "result": hand.result},
                caused_by=cause,
            )
