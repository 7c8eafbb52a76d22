""" "Geri al" and "Yinele": reversing the latest change to a match's sheet, and reversing that
reversal. The form names the change it reverses; when that is no longer the change the button
would reverse (another phone changed the sheet since the page was drawn, or a double tap),
nothing is done and the refusal says what happened instead.

Methods of Match (cetele.matches.models), written here in an abstract base of their own, on
the changes they reverse (cetele.matches.editing).
"""

from django.db import transaction

from cetele.matches.editing import SheetEditing
from cetele.matches.errors import AlreadyUndone, NothingToUndo, UndoRefused
from cetele.matches.records import Change, Hand, Player
from cetele.seats.models import Objection


class Undoable(SheetEditing):
    """Undo and redo of the sheet's changes, each kept in the history itself."""

    class Meta:
        abstract = True

    def last_undoable_change(self) -> "Change | None":
        """The change "Geri al" undoes: the latest made by a person (not an undo, not an
        automatic re-scoring) that was not undone."""
        return (
            self.changes.exclude(action__in=Change.NOT_UNDOABLE)
            .filter(undone_by__isnull=True)
            .order_by("-pk")
            .first()
        )

    def redoable_change(self) -> "Change | None":
        """The undo "Yinele" reverses: the match's latest change, when it is an undo that
        nothing has reversed since."""
        latest = self.changes.exclude(action=Change.Action.RESCORE).order_by("-pk").first()
        if latest is not None and latest.action == Change.Action.UNDO:
            return latest
        return None

    def undo(self, change_id: int) -> "Change":
        """Reverse the change `change_id`, which must be the latest undoable one; the undo is
        itself kept in the history (and can be redone). AlreadyUndone when it was undone
        already, UndoRefused when another change came after it, NothingToUndo when there is
        no such change."""
        with transaction.atomic():
            self._lock()
            named = self.changes.filter(pk=change_id).first()
            if named is None or named.action in Change.NOT_UNDOABLE:
                raise NothingToUndo()
            undone = named.undone_by.first()
            if undone is not None:
                raise AlreadyUndone(named)
            latest = self.last_undoable_change()
            if latest is None or latest.pk != named.pk:
                raise UndoRefused(latest)
            if named.hand_number is not None:  # a hand's change (a renaming changes no score)
                self._refuse_if_frozen()
            return self._reverse(named, Change.Action.UNDO)

    def redo(self, undo_id: int) -> "Change":
        """Reverse the undo `undo_id` ("Yinele"), which must be the match's latest change."""
        with transaction.atomic():
            self._lock()
            named = self.changes.filter(pk=undo_id, action=Change.Action.UNDO).first()
            if named is None:
                raise NothingToUndo()
            if named.undone_by.exists():
                raise AlreadyUndone(named)
            latest = self.changes.exclude(action=Change.Action.RESCORE).order_by("-pk").first()
            if latest.pk != named.pk:
                raise UndoRefused(latest)
            if named.hand_number is not None:  # a hand's change (a renaming changes no score)
                self._refuse_if_frozen()
            return self._reverse(named, Change.Action.REDO)

    def _reverse(self, change: "Change", action: str) -> "Change":
        """Put back what the sheet held before `change` (its `before`: a hand, players' names,
        or nothing where a hand was added), keep that as a change of `action`, and settle which
        hand is the last one (the hands' places may have moved)."""
        number, state = change.hand_number, change.before
        if state is None:  # the change added this hand
            self.hands.filter(number=number).delete()
        elif "names" in state:
            players = list(self.players.all())
            for player, name in zip(players, state["names"], strict=True):
                player.name = name
            Player.objects.bulk_update(players, ["name"])
        else:
            hand = self.hands.filter(number=number).first()
            if hand is None:  # the change deleted this hand
                Hand.objects.create(
                    match_id=self.pk, number=number, inputs=state["inputs"], result=state["result"]
                )
                self._clear_open_hand()
            else:
                hand.inputs, hand.result = state["inputs"], state["result"]
                hand.version += 1
                hand.save(update_fields=["inputs", "result", "version", "updated_at"])
        reversal = self._record(
            action, hand_number=number, before=change.after, after=change.before, undoes=change
        )
        if state is None:  # the hand is gone (its addition undone, or its deletion redone)
            self._end_objections(number, Objection.Outcome.HAND_GONE, reversal)
        elif action == Change.Action.UNDO and change.corrects_a_hand():
            # The hand is back as it was objected to: what the correction answered is open again.
            self._reopen_objections(change)
        elif reversal.corrects_a_hand():
            # A correction redone answers the hand's objections again, as the correction did.
            self._end_objections(number, Objection.Outcome.CORRECTED, reversal)
        self._settle_last_hand(reversal)
        return reversal
