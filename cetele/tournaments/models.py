"""What a café tournament keeps: its settings and frozen rules, its entrants, its pairings and
games, and the results an organiser entered by hand.

The tournament's logic is the pure core's (cetele.tournaments.engine); these rows hold only what it
needs as input (who entered, in which order, the draw, each game's totals) and what was drawn,
so that a page never draws again what was drawn once. cetele.tournaments.state turns the rows
into the core's inputs, in one place.

Every game is a real match (cetele.matches.models.Match): the table scores it with the match's
own links, and its finished hands are the game's result. A best of three makes its three games'
matches at the draw: the printed sheet of a table then holds all three QR codes, nothing is
created while pages are read, and a third game that is not needed (2–0) is shown so and
ignored.
"""

from django.db import models
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from cetele.live import push
from cetele.sharing.models import new_token
from cetele.your_data.models import Forgettable


class Kind(models.TextChoices):
    ESLI = "esli", _("Eşli (takımlar)")
    TEK = "tek", _("Tek (oyuncular)")


class Layout(models.TextChoices):
    GROUPS = "groups", _("Gruplar, sonra eleme")
    LEAGUE = "league", _("Lig (herkes herkesle bir kez)")
    TEK_ROUNDS = "tek_rounds", _("Turlar (her masada dört oyuncu)")


class Stage(models.TextChoices):
    ENTRY = "entry", _("Kayıt")
    GROUPS = "groups", _("Grup maçları")
    LEAGUE = "league", _("Lig")
    ROUNDS = "rounds", _("Turlar")
    KNOCKOUT = "knockout", _("Eleme")
    DONE = "done", _("Bitti")


class Tournament(Forgettable):
    """A tournament: the organiser holds `edit_token`, the café `view_token`. No accounts."""

    name = models.CharField(max_length=80)
    edit_token = models.CharField(max_length=64, unique=True, default=new_token)
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)
    kind = models.CharField(max_length=4, choices=Kind.choices)
    layout = models.CharField(max_length=12, choices=Layout.choices)
    # The rules every game plays by, frozen at the start as a match freezes its own.
    rules = models.JSONField()
    preset_slug = models.CharField(max_length=64, blank=True)
    base_rules = models.JSONField(null=True, blank=True)
    hands_per_game = models.PositiveSmallIntegerField(default=11)
    games_per_pairing = models.PositiveSmallIntegerField(default=1)
    group_size = models.PositiveSmallIntegerField(default=4)
    advance = models.PositiveSmallIntegerField(default=2)
    rounds = models.PositiveSmallIntegerField(default=3)
    tables = models.PositiveSmallIntegerField(null=True, blank=True)
    win_points = models.PositiveSmallIntegerField(default=2)
    draw_points = models.PositiveSmallIntegerField(default=1)
    loss_points = models.PositiveSmallIntegerField(default=0)
    place_points = models.JSONField(default=list, help_text="Tek: points by place, four numbers.")
    random_draw = models.BooleanField(default=False)
    seed = models.PositiveIntegerField(null=True, blank=True)
    stage = models.CharField(max_length=8, choices=Stage.choices, default=Stage.ENTRY)
    # Tek: who sat out each round drawn ({"1": [entrant ids], …}).
    byes = models.JSONField(default=dict)
    # Bumped by every change of the organiser's (entrants, a draw, a result by hand); the live
    # page's version adds its matches' versions to it (cetele.tournaments.state.live_version).
    version = models.PositiveIntegerField(default=0)

    class Meta:
        app_label = "cetele"

    def __str__(self) -> str:
        return self.name

    @property
    def esli(self) -> bool:
        return self.kind == Kind.ESLI

    def bump(self) -> None:
        Tournament.objects.filter(pk=self.pk).update(version=F("version") + 1)
        push.announce_tournaments(Tournament.objects.filter(pk=self.pk))


class Entrant(models.Model):
    """A team of two (eşli) or a player (tek), numbered in the order entered (the seeding)."""

    # Indexed as the start of unique_entrant_number: an index of its own is one more page to write.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, db_index=False, related_name="entrants"
    )
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=64)
    player_1 = models.CharField(max_length=30)
    player_2 = models.CharField(max_length=30, blank=True)  # eşli only
    withdrawn = models.BooleanField(default=False)
    group = models.CharField(max_length=2, blank=True)

    class Meta:
        app_label = "cetele"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_entrant_number")
        ]

    def __str__(self) -> str:
        return self.name


class Pairing(models.Model):
    """Eşli: two teams meeting (one game or the best of three) in a group, the league or a
    knock-out round; `b` None is a knock-out bye."""

    class Phase(models.TextChoices):
        GROUP = "group", _("Grup")
        KNOCKOUT = "knockout", _("Eleme")

    # Indexed as the start of unique_pairing_number: an index of its own is one more page to write.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, db_index=False, related_name="pairings"
    )
    number = models.PositiveSmallIntegerField(help_text="Its place in the draw, from 1.")
    phase = models.CharField(max_length=8, choices=Phase.choices)
    round = models.PositiveSmallIntegerField()
    group = models.CharField(max_length=2, blank=True)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    wave = models.PositiveSmallIntegerField(default=1)
    # Entrants go only with their tournament (a withdrawal keeps the row).
    a = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Entrant, null=True, on_delete=models.CASCADE, related_name="+")
    seed_a = models.PositiveSmallIntegerField(null=True, blank=True)
    seed_b = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        app_label = "cetele"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_pairing_number")
        ]

    def __str__(self) -> str:
        return f"pairing {self.number} of tournament {self.tournament_id}"


class Game(models.Model):
    """One game: a match of hands_per_game hands at a table. Eşli: game `index` of its
    pairing, team a at seats 0 and 2, team b at 1 and 3. Tek: four players, `seats` in seat
    order."""

    # Indexed as the start of unique_game_number: an index of its own is one more page to write.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, db_index=False, related_name="games"
    )
    number = models.PositiveSmallIntegerField(help_text="Stable identity within the tournament.")
    pairing = models.ForeignKey(
        Pairing, null=True, blank=True, on_delete=models.CASCADE, related_name="games"
    )
    index = models.PositiveSmallIntegerField(default=1, help_text="Eşli: its place in the pairing.")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    seats = models.JSONField(
        default=list, help_text="Tek: the four entrant ids, as the match lists its players."
    )
    match = models.OneToOneField(
        "cetele.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_game",
    )
    # A result entered by hand (a forfeit, a table that kept paper): the game totals, side by
    # side (eşli: team a's, team b's; tek: by seat). It stands in for the match's hands.
    totals = models.JSONField(null=True, blank=True)

    class Meta:
        app_label = "cetele"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_game_number")
        ]

    def __str__(self) -> str:
        return f"game {self.number} of tournament {self.tournament_id}"


class ManualResult(models.Model):
    """A result entered or corrected by hand, kept with its reason: shown on both pages."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="manual_results")
    at = models.DateTimeField(auto_now_add=True)
    totals = models.JSONField(help_text="The totals entered.")
    before = models.JSONField(null=True, blank=True, help_text="The totals it replaced.")
    reason = models.CharField(max_length=200)

    class Meta:
        app_label = "cetele"
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"result of game {self.game_id} by hand"
