"""What the join link ("Masaya katıl") keeps: which phone is which player, and the rows they
write for the hand being entered.

A phone that opens the join link and picks its name gets a SeatClaim: a random key, kept in
that phone's signed cookie, that names the claim (never the seat, never anything derivable from
the match). The claim's phone may write its own player's DraftRow for the open hand; the scorer
reads the rows into the hand form and stays the one who saves.
"""

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

CLAIM_BYTES = 24  # 192 bits: the claim key is a key, like a link's token


def new_claim_key() -> str:
    return secrets.token_urlsafe(CLAIM_BYTES)


class SeatClaim(models.Model):
    """One player's seat taken by one phone for one match; the scorer can free it, and rotating
    the join link frees them all."""

    match = models.ForeignKey(
        "cetele.Match", on_delete=models.CASCADE, db_index=False, related_name="seat_claims"
    )
    seat = models.PositiveSmallIntegerField()
    key = models.CharField(max_length=64, unique=True, default=new_claim_key)
    claimed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "cetele"
        # One phone per seat: two phones asking at once, the database decides (cetele.seats.claims).
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_phone_per_seat")]

    def __str__(self) -> str:
        return f"claim {self.pk} of match {self.match_id}"


class DraftRow(models.Model):
    """A joined phone's row of the hand at `position` (its place on the sheet): what its player
    wrote, as the scorer's SeatForm would take it, and whether they said "Bitirdim". Nothing of
    it counts until the scorer saves the hand; the save clears the match's rows."""

    match = models.ForeignKey(
        "cetele.Match", on_delete=models.CASCADE, db_index=False, related_name="draft_rows"
    )
    position = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    # SeatForm's cleaned values: opened, remaining (or null), okeys, fake_okeys, and opening /
    # cifte_devam where the rules have them.
    values = models.JSONField()
    finished = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "cetele"
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "position", "seat"], name="one_draft_row_per_seat"
            )
        ]

    def __str__(self) -> str:
        return f"draft row {self.pk} of match {self.match_id}"


class Objection(models.Model):
    """ "İtiraz": a joined phone's player says a saved hand is wrong, and why. It stays open
    until the scorer corrects that hand ("düzeltildi", by that correction), closes it as right
    ("Doğru, kapat"), or the hand is deleted (its addition undone included); the history keeps
    it with how it ended. Undoing the correction opens it again, redoing it ends it again. A
    hand is named by its number, its stable identity within the match (its place moves when an
    earlier hand is deleted)."""

    class Reason(models.TextChoices):
        SCORE = "score", _("Puan yanlış")
        FINISH = "finish", _("Bitiş türü yanlış")
        PENALTY = "penalty", _("Ceza eksik")
        OTHER = "other", _("Başka")

    class Outcome(models.TextChoices):
        OPEN = "", _("Açık")
        CORRECTED = "corrected", _("El düzeltildi")
        CLOSED = "closed", _("Doğru bulundu, kapatıldı")
        HAND_GONE = "gone", _("El silindi")

    match = models.ForeignKey(
        "cetele.Match", on_delete=models.CASCADE, db_index=False, related_name="objections"
    )
    hand_number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()  # who objected: that player's seat
    reason = models.CharField(max_length=10, choices=Reason.choices)
    note = models.CharField(max_length=140, blank=True)
    raised_at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True, default="")
    ended_at = models.DateTimeField(null=True, blank=True)
    # The correction or deletion that ended it. Within the same match, and a change is deleted
    # only with its whole match (as Change's own links): the database checks it at the commit.
    ended_by = models.ForeignKey(
        "cetele.Change",
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_index=False,
        related_name="+",
    )

    class Meta:
        app_label = "cetele"
        ordering = ["raised_at", "pk"]
        constraints = [
            # One open objection per seat and hand: a second one from the same phone replaces
            # its reason (cetele.seats.objections.raise_objection).
            models.UniqueConstraint(
                fields=["match", "hand_number", "seat"],
                condition=models.Q(outcome=""),
                name="one_open_objection_per_seat_and_hand",
            )
        ]

    def __str__(self) -> str:
        return f"objection {self.pk} of match {self.match_id}"

    @property
    def is_open(self) -> bool:
        return self.outcome == self.Outcome.OPEN
