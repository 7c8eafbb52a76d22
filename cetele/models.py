"""What a match stores: its frozen ruleset, its players and each hand's raw inputs.

A hand's inputs are kept exactly as the scoring engine's JSON contract states them (the HAND
object of RULES.md), so any hand can be re-edited and recomputed; its result (scores and
breakdown) is stored beside them because the match's ruleset is frozen, so it never goes stale.
`Match.score()` is the one place where the models turn into scoring inputs (with
`Match.ruleset()`); `Match.scoring_request()` is the same hand as the engine's JSON request.
"""

import hashlib
import json
import logging
import secrets
from bisect import bisect_left
from datetime import timedelta

from django.db import DatabaseError, IntegrityError, models, transaction
from django.db.models import F
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import scoring
from cetele.shell.language import preset_name
from cetele.shell.names import name_key
from cetele.tea.models import TeaRule, serve_waiting

logger = logging.getLogger(__name__)
TOKEN_BYTES = 32  # 256 bits from `secrets`: match links are the keys, treat them like passwords


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_phone_key() -> str:
    """How a phone's lists ("Maçlarım", kept pages, waiting hands) know a match or a table:
    stable across link rotation, and random, never derived from the row's number, which a
    database restored from a backup may give again to another match."""
    return secrets.token_hex(8)


class SheetError(Exception):
    """A change to the sheet that cannot be made; `message` is for the user."""

    message = ""


class AlreadySaved(SheetError):
    """The same form was submitted twice (double tap, retried request): nothing new was saved."""


class MatchFinished(SheetError):
    """Every planned hand has been played."""


class HandConflict(SheetError):
    """Another phone changed this hand since the form was opened."""

    def __init__(self, hand: "Hand") -> None:
        super().__init__()
        self.hand = hand


class HandTaken(SheetError):
    """Another phone saved the place this new hand was entered as (e.g. both entered hand 5)."""

    def __init__(self, hands) -> None:
        super().__init__()
        self.hands = list(hands)  # the hands saved at and after that place


class NothingToUndo(SheetError):
    pass


class HandGone(SheetError):
    """The hand being corrected or deleted was deleted (or its addition undone) by another phone
    since this phone opened it."""


class ResultFrozen(SheetError):
    """The match is a tournament game whose result a later draw of the tournament used (its
    knock-out drawn from the group tables, the next round from its winners): its hands no
    longer change (cetele.tournaments.guard)."""


class UndoRefused(SheetError):
    """ "Geri al" or "Yinele" named a change that is no longer the one it would reverse: another
    phone changed the sheet since. `latest` is the change that came between (None if none)."""

    def __init__(self, latest: "Change | None") -> None:
        super().__init__()
        self.latest = latest


class AlreadyUndone(SheetError):
    """The change an undo names was already undone (a double tap, a retried request, or another
    phone's undo): nothing more is done. `change` is that change."""

    def __init__(self, change: "Change") -> None:
        super().__init__()
        self.change = change


# Opening a page records the visit at most this often, so that reading costs no write.
TOUCH_EVERY = timedelta(days=1)


class NamesClash(SheetError):
    """A rename would give two players one name (another phone renamed meanwhile)."""


class PresetChanged(Exception):
    """A house preset was saved by someone else since this editor page was drawn; `now` is the
    preset as it is."""

    def __init__(self, now: "HousePreset") -> None:
        super().__init__()
        self.now = now


class ObjectionGone(SheetError):
    """The objection being closed is not there (never was, or went with its match)."""


# Hidden totals ("gizli toplam") are shown again for the last this many hands of the match.
HIDDEN_UNTIL_LAST = 2


class Forgettable(models.Model):
    """Something people make and then may stop using (a match, a table, a house preset).

    `touched_at` is its last use: created, changed, a match started with it, or opened through
    one of its links (a visit is written at most once a day; a live-view poll is not a visit).
    `forget_unused` deletes what stays untouched for long (docs/privacy.md): player names are
    personal data and are not kept forever.
    """

    touched_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        abstract = True

    def touch(self) -> None:
        """Record a visit; a no-op (no query) when one was recorded less than a day ago. A visit
        the database cannot take now (locked past its timeout, a full disk) is left for the next
        one: recording it never fails the page (its savepoint keeps a caller's transaction)."""
        now = timezone.now()
        if self.touched_at > now - TOUCH_EVERY:
            return
        try:
            with transaction.atomic():
                type(self).objects.filter(pk=self.pk).update(touched_at=now)
        except DatabaseError as error:
            logger.warning("A visit was not recorded, the database refused the write: %s", error)
            return
        self.touched_at = now


class Match(Forgettable):
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
        "Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    # One rematch per match: a second tap on "Rövanş" finds this one instead of starting another.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    class Meta:
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
        matches' versions: cetele.live.tournament) must not outlive the link it shows.
        cetele.seats lets the joined phones go with their link."""
        field = {"edit": "edit_token", "view": "view_token", "join": "join_token"}[kind]
        token = new_token()
        RetiredLink.retire(getattr(self, field))
        Match.objects.filter(pk=self.pk).update(**{field: token}, version=F("version") + 1)
        setattr(self, field, token)
        return token

    # --- Changes to the sheet. Each runs in one transaction with the match row locked (on
    # PostgreSQL; SQLite's IMMEDIATE transactions already serialise writers), records itself in
    # the history and bumps `version`, so that pollers and other editors see it.

    def _lock(self) -> "Match":
        """Lock the match's row for the rest of the transaction: PostgreSQL serialises the
        match's writers on it (SQLite's IMMEDIATE transactions already serialise every writer).
        Match.DoesNotExist when another phone deleted the match since this request found it."""
        return (
            Match.objects.select_for_update().only("id", "planned_hands", "version").get(pk=self.pk)
        )

    def _record(self, action: str, **fields) -> "Change":
        """Keep the change and bump the version; the match was last touched at its moment."""
        change = Change.objects.create(match_id=self.pk, action=action, **fields)
        Match.objects.filter(pk=self.pk).update(version=F("version") + 1, touched_at=change.at)
        return change

    def _bump(self) -> None:
        """A change to what the sheet shows that is no change of its hands or names (an
        objection raised or ended, "gizli toplam" turned on or off): a new version, so that every
        phone's poll brings it and the sheet is drawn again, but nothing for "Geri al"."""
        Match.objects.filter(pk=self.pk).update(version=F("version") + 1, touched_at=timezone.now())

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
            updated = Match.objects.filter(pk=self.pk).exclude(hidden_totals=hidden)
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
            Match.objects.filter(pk=self.pk).update(
                first_dealer=seat, version=F("version") + 1, touched_at=timezone.now()
            )
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

    # --- Geri al and Yinele. The form names the change it reverses; when that is no longer the
    # change the button would reverse (another phone changed the sheet since the page was drawn,
    # or a double tap), nothing is done and the refusal says what happened instead.

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

    def sheet_hands(self) -> list[tuple[int, list[int], int | None, str]]:
        """(number, scores, finisher, finish) of every hand, in order: all that the sheet, its
        chart and its summary read of a hand, without its inputs and breakdowns (most of its
        data) and without making a model object per hand."""
        return list(self.hands.values_list("number", *Hand.PLAYED))

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


class Player(models.Model):
    # Indexed as the start of unique_seat_per_match: an index of its own is one more page to write.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, db_index=False, related_name="players"
    )
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=30)
    # Who this is at the match's table (TablePlayer.place): a table knows its players by their
    # place, never by the spelling of a name typed for one match.
    table_place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="unique_seat_per_match")
        ]

    def __str__(self) -> str:
        return self.name


class Hand(models.Model):
    # Indexed as the start of unique_hand_number: an index of its own is one more page to write.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, db_index=False, related_name="hands")
    number = models.PositiveIntegerField(help_text="Stable identity within the match.")
    inputs = models.JSONField(help_text="The HAND object of the scoring contract.")
    result = models.JSONField(help_text="The engine's result for these inputs.")
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
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
        Match, on_delete=models.CASCADE, db_index=False, related_name="changes"
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


# A match form (and Match.preset_slug) names a house preset "house:<view token>".
HOUSE_PREFIX = "house:"


class HousePreset(Forgettable):
    """A table's own ruleset, saved from the preset editor; shared by its unguessable link.

    There are no accounts: whoever holds `edit_token` may change it, whoever holds `view_token`
    may read it and start matches with it. A match copies the ruleset when it starts, so editing
    a house preset never changes a match already started.
    """

    name = models.CharField(max_length=80)
    description = models.TextField(blank=True, max_length=500)
    rules = models.JSONField(help_text="The full, validated ruleset; its name is `name`.")
    base_slug = models.CharField(max_length=64, help_text="The built-in preset it started from.")
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    edit_token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.name

    @property
    def choice_value(self) -> str:
        """How a match form names this preset; a match started from it records the same."""
        return HOUSE_PREFIX + self.view_token

    def rotate_token(self, kind: str) -> str:
        """Give the edit or view link a new token: the old link stops working at once (matches
        started with the preset keep their copy of its rules)."""
        field = {"edit": "edit_token", "view": "view_token"}[kind]
        token = new_token()
        RetiredLink.retire(getattr(self, field))
        HousePreset.objects.filter(pk=self.pk).update(**{field: token})
        setattr(self, field, token)
        return token

    @property
    def seen(self) -> str:
        """A short digest of what the editor shows (name, description, rules): the page sends it
        back, so a save can tell that someone else saved the preset since it was drawn."""
        shown = json.dumps([self.name, self.description, self.rules], sort_keys=True)
        return hashlib.sha256(shown.encode()).hexdigest()[:16]

    def change(self, *, name: str, description: str, rules: dict, seen: str) -> None:
        """Save the editor's values, under the preset's row lock. If someone saved it since the
        page showing `seen` was drawn, PresetChanged, and nothing is written, unless it already
        holds these very values (a double tap). A page drawn before `seen` existed sends none:
        its save is taken, as it was then."""
        with transaction.atomic():
            now = HousePreset.objects.select_for_update().get(pk=self.pk)
            self.name, self.description, self.rules = name, description, rules
            if seen and now.seen not in (seen, self.seen):  # no `seen`: a page from before it
                raise PresetChanged(now)
            self.save(update_fields=["name", "description", "rules", "updated_at"])

    @property
    def base_rules(self) -> dict | None:
        """The built-in it started from, to mark what this preset changed."""
        preset = scoring.PRESETS.get(self.base_slug)
        return preset.rules if preset else None


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

    def __str__(self) -> str:
        return self.name

    def rotate_token(self, kind: str) -> str:
        """Give the edit or view link a new token: the old link stops working at once."""
        field = {"edit": "edit_token", "view": "view_token"}[kind]
        token = new_token()
        RetiredLink.retire(getattr(self, field))
        Table.objects.filter(pk=self.pk).update(**{field: token})
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
        ordering = ["place"]
        constraints = [
            models.UniqueConstraint(fields=["table", "place"], name="unique_place_per_table")
        ]

    def __str__(self) -> str:
        return self.name


class RetiredLink(models.Model):
    """A link that worked once and was rotated or deleted (cetele.sharing.links). A rotated link
    is answered "this link changed"; a deleted one the ordinary 404, as if it never was (but "this
    match was deleted" to a browser that had it open). Only a digest of the token is kept, never
    the token."""

    digest = models.CharField(max_length=64, primary_key=True)
    deleted = models.BooleanField(default=False)
    retired_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.digest[:12]

    @staticmethod
    def digest_of(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @classmethod
    def retire(cls, *tokens: str, deleted: bool = False) -> None:
        links = [cls(digest=cls.digest_of(token), deleted=deleted) for token in tokens if token]
        cls.objects.bulk_create(links, ignore_conflicts=True)

    @classmethod
    def find(cls, token: str) -> "RetiredLink | None":
        return cls.objects.filter(digest=cls.digest_of(token)).first()


@receiver(post_delete, sender=Match)
@receiver(post_delete, sender=Table)
@receiver(post_delete, sender=HousePreset)
def retire_deleted_links(sender, instance, **kwargs) -> None:
    """However it goes (its edit link, the admin, forget_unused), a deleted thing's links are
    retired like rotated ones: phones still polling them must not lock out their café."""
    join = getattr(instance, "join_token", "")  # a match's third link
    RetiredLink.retire(instance.edit_token, instance.view_token, join, deleted=True)


class MissCount(models.Model):
    """How many wrong admin passwords one client address sent in the current window (links are
    never counted): the admin login's count (cetele.sharing.links.record_bad_link) when it is
    kept in the database (DJANGO_CACHE_URL=db). One row per counter and address,
    counted up by one UPDATE, so that parallel guessers cannot count over each other, and never
    culled (forget_unused deletes rows whose window has passed)."""

    counter = models.CharField(max_length=80, primary_key=True)  # "admin:203.0.113.5"
    window = models.BigIntegerField(help_text="Which fixed window (time // its length).")
    count = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.counter}: {self.count}"


# The seats of a match's joined phones and the rows they write: their own module (cetele.seats),
# models of this app all the same.
# The open hand's gösterge (cetele.deal), likewise.
from cetele.deal.models import OpenIndicator  # noqa: E402, F401
from cetele.seats.models import DraftRow, Objection, SeatClaim  # noqa: E402, F401

# The tea tally's items and drinks (cetele.tea), likewise.
from cetele.tea.models import Drink, TeaItem  # noqa: E402, F401

# Whether a tournament game's hands may still change (Match._refuse_if_frozen).
from cetele.tournaments.guard import result_frozen  # noqa: E402

# A café tournament's rows (cetele.tournaments), likewise.
from cetele.tournaments.models import (  # noqa: E402, F401
    Entrant,
    Game,
    ManualResult,
    Pairing,
    Tournament,
)
