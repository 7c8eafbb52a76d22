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
    """One drink brought to the player at `seat` of a match: one tap of "+ çay"."""

    # Indexed as the start of drink_by_cell: an index of its own is one more page to write.
    match = models.ForeignKey(
        "cetele.Match", on_delete=models.CASCADE, db_index=False, related_name="drinks"
    )
    seat = models.PositiveSmallIntegerField()
    item = models.PositiveSmallIntegerField(help_text="The item's place (TeaItem.place).")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "cetele"
        indexes = [models.Index(fields=["match", "seat", "item"], name="drink_by_cell")]

    def __str__(self) -> str:
        return f"drink {self.pk} of match {self.match_id}"
