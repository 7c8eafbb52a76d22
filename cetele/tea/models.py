"""What the tea tally keeps: the table's items (çay, kahve, su, with an optional price) and one
row per drink brought to a player of a match.

Prices are whole kuruş in an integer column: exact on SQLite and PostgreSQL alike (SQLite keeps
no true decimal type), summed and split without rounding surprises, and shown as lira by the
page's locale. The app takes no money: a price only lets the bill say what each one owes.

A drink names its item by its place (TeaItem.place), as a match names a table's player: a
match at no table, and a table that never changed its items, use the default items
(cetele.tea.tally.DEFAULT_ITEMS) at the same places, so that moving a match to a new table
keeps every drink's item.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class TeaRule(models.TextChoices):
    """Who pays the tally at the end of a match."""

    LOSER = "loser", _("Kaybeden öder")
    OWN = "own", _("Herkes kendi")


# What the pages call each rule: a whole sentence ("Herkes kendi öder"). The choices' own labels
# stay as the migrations recorded them.
RULE_WORDS = {TeaRule.LOSER: _("Kaybeden öder"), TeaRule.OWN: _("Herkes kendi öder")}


class TeaItem(models.Model):
    """One item of a table's list, as its scorer wrote it. An item taken off the list is kept
    (`retired`): the drinks already counted under it keep their name and price."""

    # Indexed as the start of unique_tea_item_place: an index of its own is one more page to write.
    table = models.ForeignKey(
        "cetele.Table", on_delete=models.CASCADE, db_index=False, related_name="tea_items"
    )
    place = models.PositiveSmallIntegerField(help_text="Stable identity within the table.")
    name = models.CharField(max_length=20)
    price = models.PositiveIntegerField(null=True, blank=True, help_text="In kuruş.")
    retired = models.BooleanField(default=False)

    class Meta:
        app_label = "cetele"
        ordering = ["place"]
        constraints = [
            models.UniqueConstraint(fields=["table", "place"], name="unique_tea_item_place")
        ]

    def __str__(self) -> str:
        return self.name


class Drink(models.Model):
    """One drink: one tap of "+ çay". Either brought to the player at `seat` of a match, or
    waiting at a table (`table`, and the table player's `place`): ordered before the table's
    first match, or between two matches. A waiting drink goes into the next match started at
    that table that its player plays, at their seat there (serve_waiting, called by
    Match.start): that match's bill counts it under the table's rule. A player who sits out that
    match keeps theirs waiting for the next match they play.

    `tap` is the one-time id a phone gave the tap (empty for a tap sent at once without one):
    a tap kept on a phone without signal and sent again after its answer was lost is
    recognised by it and counted once (cetele.tea.tally.change_drinks)."""

    # Indexed as the start of drink_by_cell: an index of its own is one more page to write.
    match = models.ForeignKey(
        "cetele.Match",
        on_delete=models.CASCADE,
        db_index=False,
        related_name="drinks",
        null=True,
        blank=True,
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Indexed as the start of drink_waiting: an index of its own is one more page to write.
    table = models.ForeignKey(
        "cetele.Table",
        on_delete=models.CASCADE,
        db_index=False,
        related_name="waiting_drinks",
        null=True,
        blank=True,
    )
    place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The table player's place (TablePlayer.place)."
    )
    item = models.PositiveSmallIntegerField(help_text="The item's place (TeaItem.place).")
    tap = models.CharField(max_length=40, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "cetele"
        indexes = [
            models.Index(fields=["match", "seat", "item"], name="drink_by_cell"),
            models.Index(fields=["table", "place", "item"], name="drink_waiting"),
        ]
        constraints = [
            # At a match's seat, or waiting at a table for a place: exactly one of the two.
            models.CheckConstraint(
                condition=(
                    models.Q(
                        match__isnull=False,
                        seat__isnull=False,
                        table__isnull=True,
                        place__isnull=True,
                    )
                    | models.Q(
                        match__isnull=True,
                        seat__isnull=True,
                        table__isnull=False,
                        place__isnull=False,
                    )
                ),
                name="drink_at_a_seat_or_waiting",
            ),
            models.UniqueConstraint(
                fields=["tap"], condition=~models.Q(tap=""), name="unique_drink_tap"
            ),
        ]

    def __str__(self) -> str:
        if self.match_id is None:
            return f"drink {self.pk} waiting at table {self.table_id}"
        return f"drink {self.pk} of match {self.match_id}"


def serve_waiting(match_id: int, table_id: int, places: list) -> int:
    """The drinks waiting at the table for the players of a match just started there move into
    it, each at its player's seat; the others keep waiting. One statement; returns how many
    moved. Called inside Match.start's transaction, after the table's row was locked."""
    seats = {place: seat for seat, place in enumerate(places) if place is not None}
    if not seats:
        return 0
    return Drink.objects.filter(table_id=table_id, place__in=seats).update(
        match_id=match_id,
        seat=models.Case(
            *(models.When(place=place, then=models.Value(seat)) for place, seat in seats.items())
        ),
        table=None,
        place=None,
    )
