"""What a match stores: its frozen ruleset, its links and settings; its players, hands and
history are its rows (cetele.matches.records).

`Match.score()` is the one place where the models turn into scoring inputs (with
`Match.ruleset()`); `Match.scoring_request()` is the same hand as the engine's JSON request.
Its changes to the sheet are written in cetele.matches.editing, their undoing in
cetele.matches.undo: abstract bases of Match, one concern a file.
"""

from django.db import models, transaction
from django.db.models import F

import scoring
from cetele.house_rules.models import HOUSE_PREFIX, HousePreset
from cetele.live import push
from cetele.matches.records import Hand, Player
from cetele.matches.undo import Undoable
from cetele.sharing.models import RetiredLink, new_phone_key, new_token
from cetele.shell.language import preset_name
from cetele.tables.models import Table
from cetele.tea.models import TeaRule, serve_waiting
from cetele.your_data.models import TOUCH_EVERY, Forgettable

# Hidden totals ("gizli toplam") are shown again for the last this many hands of the match.
HIDDEN_UNTIL_LAST = 2


class Match(Undoable, Forgettable):
    """A match: who plays (its Player rows), by which frozen rules, how many hands, at which
    table, behind which links; its hands and history are its rows too. Every change to its sheet
    is a method it inherits (SheetEditing, Undoable)."""

    edit_token = models.CharField(max_length=64, unique=True, default=new_token)
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    # "Masaya katıl": a phone that opens it becomes one player's phone (cetele.seats).
    join_token = models.CharField(max_length=64, unique=True, default=new_token)
    phone_key = models.CharField(max_length=16, default=new_phone_key, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    teams = models.BooleanField(default=False)
    planned_hands = models.PositiveSmallIntegerField()
    rules = models.JSONField(help_text="The frozen, complete ruleset this match plays by.")
    preset_slug = models.CharField(max_length=64, blank=True)
    base_rules = models.JSONField(
        null=True, blank=True, help_text="The preset's ruleset when the match started."
    )
    # Bumped by every change: viewers' polls compare it, editors' saves detect conflicts.
    version = models.PositiveIntegerField(default=0)
    # "Gizli toplam": the running totals and the chart are hidden from the joined and view phones
    # until the last hands (Match.totals_hidden); the scorer always sees them.
    hidden_totals = models.BooleanField(default=False)
    # Bumped by every row a joined phone writes (cetele.seats.drafts): the rows' poll compares
    # it, so that a phone writing its rack never redraws the sheet (`version`).
    draft_version = models.PositiveIntegerField(default=0)
    # The seat that deals the first hand; each hand's dealer follows from its place
    # (cetele.deal.dealer).
    first_dealer = models.PositiveSmallIntegerField(default=0)
    # Who pays the tea tally (cetele.tea) of a match at no table; at a table, the table's rule.
    tea_rule = models.CharField(max_length=8, choices=TeaRule.choices, default=TeaRule.LOSER)
    # The table (masa) this match was played at, if any. Deleting a table keeps its matches.
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    # One rematch per match: a second tap on "Rövanş" finds this one instead of starting another.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    class Meta:
        app_label = "cetele"
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"Match {self.pk}"

    @classmethod
    def start(
        cls,
        names: list[str],
        *,
        teams: bool,
        planned_hands: int,
        rules: dict,
        preset_slug: str = "",
        base_rules: dict | None = None,
        table: "Table | None" = None,
        places: list[int] | None = None,
        rematch_of: "Match | None" = None,
        hidden_totals: bool = False,
        first_dealer: int = 0,
        tea_rule: str = TeaRule.LOSER,
    ) -> "Match":
        """A new match; at a table, `places` gives each seat's place at that table."""
        places = places if places is not None else [None] * len(names)
        with transaction.atomic():
            match = cls.objects.create(
                teams=teams,
                planned_hands=planned_hands,
                rules=rules,
                preset_slug=preset_slug,
                base_rules=base_rules,
                table=table,
                rematch_of=rematch_of,
                hidden_totals=hidden_totals,
                first_dealer=first_dealer,
                tea_rule=tea_rule,
            )
            Player.objects.bulk_create(
                Player(match=match, seat=seat, name=name, table_place=place)
                for seat, (name, place) in enumerate(zip(names, places, strict=True))
            )
            # A match started at a table or from a house preset uses it: neither is forgotten.
            if table is not None:
                table.touch()
                # The drinks its players ordered at the table before it come into it (under
                # the table's lock, which a tap on a waiting drink holds too).
                Table.objects.select_for_update().filter(pk=table.pk).values_list("pk").first()
                serve_waiting(match.pk, table.pk, places)
                push.announce(cls.objects.filter(pk=match.pk))  # the table's pages show it
            if preset_slug.startswith(HOUSE_PREFIX):
                HousePreset.objects.filter(
                    view_token=preset_slug.removeprefix(HOUSE_PREFIX),
                    touched_at__lt=match.touched_at - TOUCH_EVERY,
                ).update(touched_at=match.touched_at)
        return match

    @property
    def rules_name(self) -> str:
        """The rules' name as the preset list says it, in the page's language: one ruleset,
        one name ("Çetele Standart", not the ruleset's long "Okey 101 Çetele — Standart")."""
        preset = scoring.PRESETS.get(self.preset_slug)
        if preset is None:
            return self.rules.get("name", "")
        return preset_name(preset)

    def scoring_request(self, hand_inputs: dict) -> dict:
        """The engine's JSON request for one hand of this match."""
        return {"rules": self.rules, "teams": self.teams, "hand": hand_inputs}

    def score(self, hand_inputs: dict) -> dict:
        """Score one hand with this match's frozen rules; raises scoring.InvalidHand."""
        return scoring.score_hand_json(hand_inputs, self.ruleset(), self.teams)

    def ruleset(self) -> scoring.Ruleset:
        """The engine's form of this match's rules (the engine keeps each ruleset it has read)."""
        return scoring.ruleset_for(self.rules)

    def totals_hidden(self, played: int) -> bool:
        """Whether the running totals (and the chart) are hidden from the joined and view phones
        with `played` hands saved: with "gizli toplam" on, until the last two hands are being
        played, that is while played < planned − 2 (an 11-hand match shows them from the 9th
        save on, while the 10th and the 11th are played). Never once the match is over (the
        summary shows everything), and never from the scorer (the caller asks only for them)."""
        return self.hidden_totals and played < self.planned_hands - HIDDEN_UNTIL_LAST

    def is_over(self) -> bool:
        """Every planned hand is saved (one query)."""
        return self.hands.count() >= self.planned_hands

    @property
    def totals_shown_from(self) -> int:
        """The save after which hidden totals show again (0: they never hide, a short match)."""
        return max(self.planned_hands - HIDDEN_UNTIL_LAST, 0)

    def rotate_token(self, kind: str) -> str:
        """Give the edit ("edit"), view ("view") or join ("join") link a new token: the old link
        stops working at once. The hands do not change, but `version` does: a kept drawing that
        links the match (a tournament's live part links each game's view link, keyed by its
        matches' versions: cetele.tournaments.views.live_key) must not outlive the link it shows.
        cetele.seats lets the joined phones go with their link."""
        field = {"edit": "edit_token", "view": "view_token", "join": "join_token"}[kind]
        token = new_token()
        RetiredLink.retire(getattr(self, field))
        Match.objects.filter(pk=self.pk).update(**{field: token}, version=F("version") + 1)
        push.close_streams([getattr(self, field)])
        push.announce(Match.objects.filter(pk=self.pk))
        setattr(self, field, token)
        return token

    def sheet_hands(self) -> list[tuple[int, list[int], int | None, str]]:
        """(number, scores, finisher, finish) of every hand, in order: all that the sheet, its
        chart and its summary read of a hand, without its inputs and breakdowns (most of its
        data) and without making a model object per hand."""
        return list(self.hands.values_list("number", *Hand.PLAYED))
