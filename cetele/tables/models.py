"""What a table (masa) keeps: its name, its links and its players, numbered by their place."""

from django.db import models

from cetele.live import push
from cetele.sharing.models import RetiredLink, new_phone_key, new_token
from cetele.tea.models import TeaRule
from cetele.your_data.models import Forgettable


class Table(Forgettable):
    """A masa: friends who play together week after week, with their matches.

    Like a match, it has no owner: its edit link starts matches and changes its players, its
    view link shows its matches and standings. Its players are numbered by `place`, which is how
    every match of the table names them (Player.table_place).
    """

    name = models.CharField(max_length=60)
    edit_token = models.CharField(max_length=64, unique=True, default=new_token)
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    phone_key = models.CharField(max_length=16, default=new_phone_key, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Who pays the tea tally of the table's matches (cetele.tea): "loser" or "own".
    tea_rule = models.CharField(max_length=8, choices=TeaRule.choices, default=TeaRule.LOSER)
    # Bumped when what its page shows of the table itself changes (its players, the drinks
    # waiting at it); its matches' own versions say the rest (cetele.tables.live).
    version = models.PositiveIntegerField(default=0)

    class Meta(Forgettable.Meta):  # as it was when the migrations recorded it
        app_label = "cetele"

    def __str__(self) -> str:
        return self.name

    def rotate_token(self, kind: str) -> str:
        """Give the edit or view link a new token: the old link stops working at once."""
        field = {"edit": "edit_token", "view": "view_token"}[kind]
        token = new_token()
        RetiredLink.retire(getattr(self, field))
        Table.objects.filter(pk=self.pk).update(**{field: token})
        push.close_streams([getattr(self, field)])  # its pages find their link gone
        setattr(self, field, token)
        return token


class TablePlayer(models.Model):
    # Indexed as the start of unique_place_per_table: an index of its own is one more page to write.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, db_index=False, related_name="players"
    )
    place = models.PositiveSmallIntegerField(help_text="Stable identity within the table.")
    name = models.CharField(max_length=30)

    class Meta:
        app_label = "cetele"
        ordering = ["place"]
        constraints = [
            models.UniqueConstraint(fields=["table", "place"], name="unique_place_per_table")
        ]

    def __str__(self) -> str:
        return self.name
