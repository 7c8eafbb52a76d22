"""What the deal keeps: the gösterge of the hand being entered, for every phone to see.

Like the joined phones' rows (cetele.seats.models.DraftRow) it is state of the open hand, kept
for its place (`position`), and nothing of it counts until the scorer saves the hand: the hand
form takes it as its initial value, the saved hand keeps the form's facts, and the save clears
it. Who deals needs no row: it follows the hand's place (cetele.deal.dealer).
"""

from django.db import models


class OpenIndicator(models.Model):
    """The indicator turned up for the hand at `position`: its colour and number (either may
    still be missing: each tap is kept as it comes) and whether it was a fake okey."""

    match = models.OneToOneField(
        "cetele.Match", on_delete=models.CASCADE, related_name="open_indicator"
    )
    position = models.PositiveIntegerField()
    colour = models.CharField(max_length=8, blank=True)
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    fake = models.BooleanField(default=False)
    # Who set it last: a joined phone's seat, or None for the scorer.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "cetele"

    def __str__(self) -> str:
        return f"indicator of match {self.match_id}"

    @property
    def is_empty(self) -> bool:
        return not self.colour and self.number is None and not self.fake
