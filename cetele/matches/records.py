"""The rows a match keeps beside it: its players, its hands and the history of every change.

A hand's inputs are kept exactly as the scoring engine's JSON contract states them (the HAND
object of RULES.md), so any hand can be re-edited and recomputed; its result (scores and
breakdown) is stored beside them because the match's ruleset is frozen, so it never goes stale.
"""

from bisect import bisect_left

from django.db import models
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    # Indexed as the start of unique_seat_per_match: an index of its own is one more page to write.
    match = models.ForeignKey(
        "cetele.Match", on_delete=models.CASCADE, db_index=False, related_name="players"
    )
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=30)
    # Who this is at the match's table (TablePlayer.place): a table knows its players by their
    # place, never by the spelling of a name typed for one match.
    table_place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        app_label = "cetele"
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="unique_seat_per_match")
        ]

    def __str__(self) -> str:
        return self.name


class Hand(models.Model):
    # Indexed as the start of unique_hand_number: an index of its own is one more page to write.
    match = models.ForeignKey(
        "cetele.Match", on_delete=models.CASCADE, db_index=False, related_name="hands"
    )
    number = models.PositiveIntegerField(help_text="Stable identity within the match.")
    inputs = models.JSONField(help_text="The HAND object of the scoring contract.")
    result = models.JSONField(help_text="The engine's result for these inputs.")
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "cetele"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_hand_number")
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of match {self.match_id}"

    # What the sheet and the statistics read of a hand (scores, who finished, how), as
    # values_list() paths: not its inputs and breakdowns, most of its data.
    PLAYED = ("result__scores", "inputs__finisher", "result__finish")

    @property
    def scores(self) -> list[int]:
        return self.result["scores"]


class Change(models.Model):
    """One entry of a match's history: nothing is ever silently lost."""

    class Action(models.TextChoices):
        CREATE = "create", _("El eklendi")
        EDIT = "edit", _("El düzeltildi")
        DELETE = "delete", _("El silindi")
        RENAME = "rename", _("Oyuncu adları değişti")
        UNDO = "undo", _("Geri alındı")
        REDO = "redo", _("Yinelendi")
        # Not a person's change: the last-hand fact moved with the hands' places.
        RESCORE = "rescore", _("Son el yeniden hesaplandı")

    # Indexed as the start of change_latest: an index of its own is one more page to write.
    match = models.ForeignKey(
        "cetele.Match", on_delete=models.CASCADE, db_index=False, related_name="changes"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    before = models.JSONField(null=True, blank=True)  # {"inputs", "result"} or {"names"}
    after = models.JSONField(null=True, blank=True)
    # The one-time token of the form that made this change: a retried POST finds it here.
    request_token = models.CharField(max_length=64, blank=True, default="")
    # One undo per change at most (one_undo_per_change), indexed only where there is one: a
    # one-to-one field's index took an entry, and a page to write, for every change.
    # Both links to other changes are within the same match, and a change is deleted only with
    # its whole match's history: DO_NOTHING lets Django delete the history in one statement
    # (with SET_NULL it read every change and emptied these links first, a hundred at a time);
    # the database checks the links at the commit, when none is left.
    undoes = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_index=False,
        related_name="undone_by",
    )

    # The change that made this automatic one (a re-scoring), shown beside it in the history.
    caused_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.DO_NOTHING, related_name="caused"
    )

    # What "Geri al" never names: an undo is reversed by "Yinele", a re-scoring by undoing the
    # change that caused it.
    NOT_UNDOABLE = (Action.UNDO, Action.RESCORE)

    class Meta:
        app_label = "cetele"
        ordering = ["-at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "request_token"],
                condition=~models.Q(request_token=""),
                name="unique_request_token_per_match",
            ),
            models.UniqueConstraint(
                fields=["undoes"],
                condition=models.Q(undoes__isnull=False),
                name="one_undo_per_change",
            ),
        ]
        indexes = [models.Index(fields=["match", "-id"], name="change_latest")]

    def __str__(self) -> str:
        return f"{self.action} {self.hand_number or ''}"

    def named(self, place: int | None) -> str:
        """What "Geri al" names this change by: its hand by `place`, where the hand is (or was)
        on the sheet ("5. el eklendi"); a change of no hand, or with no place, by its label. A
        redo is named by what it did again ("Yinele" brought hand 5 back: "5. el eklendi")."""
        action = self.redone_action() if self.action == Change.Action.REDO else self.action
        sentence = HAND_CHANGE_NAMES.get(action)
        if sentence is None or place is None:
            return str(Change.Action(action).label)
        return sentence % {"number": place}

    def corrects_a_hand(self) -> bool:
        """A correction, or the redo of one: what answers the hand's objections."""
        if self.action == Change.Action.REDO:
            return self.redone_action() == Change.Action.EDIT
        return self.action == Change.Action.EDIT

    def redone_action(self) -> str:
        """The kind of change a redo made again, read from its own states, which are those of
        the change its undo reversed: a hand added, corrected or deleted, or the names changed."""
        before, after = self.before or {}, self.after or {}
        if "names" in before or "names" in after:
            return Change.Action.RENAME
        if not before:
            return Change.Action.CREATE
        if not after:
            return Change.Action.DELETE
        return Change.Action.EDIT


# A change to one hand as "Geri al" names it: the hand by its place, as the sheet shows it.
HAND_CHANGE_NAMES = {
    Change.Action.CREATE: _("%(number)s. el eklendi"),
    Change.Action.EDIT: _("%(number)s. el düzeltildi"),
    Change.Action.DELETE: _("%(number)s. el silindi"),
}


def place_among(numbers: list[int], hand_number: int) -> int:
    """The place on the sheet ("5. el") of the hand `hand_number`, among the hands of these
    `numbers` (in order): where it is, or, deleted, where it was."""
    return bisect_left(numbers, hand_number) + 1
