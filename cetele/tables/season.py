"""Tables (masa) in the shell: finding a table by its link, turning its matches into the
statistics' inputs in a fixed number of queries, rematches, and the standings as a message.

A table is guarded exactly like a match: the same `secret_link` decorator and `BadLink` miss
(cetele.sharing.links), so a wrong table link is the same 404.
"""

import re
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models.fields.json import KT
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import scoring
from cetele.matches.stats import PlayedHand, PlayedMatch, TableStats, table_stats
from cetele.models import Hand, Match, Player, Table, TablePlayer
from cetele.sharing.links import EDIT, VIEW, BadLink
from cetele.shell.language import preset_name
from cetele.tables.live import changed
from cetele.tea.tally import bump_table

TABLE_TOKEN_FIELDS = {EDIT: "edit_token", VIEW: "view_token"}
MAX_TABLE_PLAYERS = 8
ALL_SEASONS = "tumu"  # ?sezon=tumu: every match of the table, whatever its year


def table_by_token(role: str, token: str) -> Table:
    """The table this edit or view link opens, or BadLink (counted like a match link's miss).
    Opening it counts as using it (Forgettable.touch: at most one write a day)."""
    try:
        table = Table.objects.get(**{TABLE_TOKEN_FIELDS[role]: token})
    except Table.DoesNotExist as error:
        raise BadLink() from error
    table.touch()
    return table


# --- From models to the statistics' inputs ---------------------------------------------------


def played_hand(scores, finisher, finish) -> PlayedHand:
    return PlayedHand(tuple(scores), finisher, finish)


@dataclass(frozen=True)
class TableMatch:
    """One match of a table, as its page lists it."""

    match: Match
    played: PlayedMatch

    @property
    def hands_played(self) -> int:
        return len(self.played.hands)

    @property
    def rules_name(self) -> str:
        """A built-in preset's name in the page's language, else the ruleset's own name (from
        the annotation: the match's ruleset is not loaded for the list)."""
        preset = scoring.PRESETS.get(self.match.preset_slug)
        return preset_name(preset) if preset else self.match.rules_title


@dataclass(frozen=True)
class TableRecord:
    """A table's players, matches and statistics, loaded in a fixed number of queries."""

    table: Table
    players: list[TablePlayer]
    matches: list[TableMatch]  # newest first
    stats: TableStats
    season: int | None = None  # a year, or None for every match

    @property
    def names(self) -> dict[int, str]:
        return {player.place: player.name for player in self.players}


def seasons(table: Table) -> list[int]:
    """The years the table played in, latest first (a season is a calendar year, by the date a
    match started in the server's time zone)."""
    return [day.year for day in table.matches.dates("created_at", "year", order="DESC")]


def choose_season(asked: str | None, years: list[int]) -> int | None:
    """The season a page shows: the year asked for if the table played in it, everything for
    "tumu"; otherwise the latest year, or everything while the table has only one."""
    if asked == ALL_SEASONS or len(years) < 2:
        return None
    if asked and re.fullmatch(r"[0-9]{4}", asked) and int(asked) in years:
        return int(asked)
    return years[0]


def load_table(table: Table, season: int | None = None, *, viewer: bool = False) -> TableRecord:
    """Everything the table's page shows, for one season (a year) or all of them: four
    queries however many matches it has. For a `viewer` (the table's view link) a match whose
    totals are hidden from its viewers now ("gizli toplam", Match.totals_hidden) is listed but not
    counted: its hands would give the players' averages, their ranks and so its hidden totals."""
    players = list(table.players.all())
    in_season = {"created_at__year": season} if season else {}
    matches = list(
        table.matches.filter(**in_season)
        .defer("rules", "base_rules")
        .annotate(rules_title=KT("rules__name"))
        .order_by("-created_at", "-pk")
    )
    of_matches = {"match__table": table}
    if season:
        of_matches["match__created_at__year"] = season
    seats: dict[int, list[int]] = {match.pk: [] for match in matches}
    for match_id, place in (
        Player.objects.filter(**of_matches)
        .order_by("match_id", "seat")
        .values_list("match_id", "table_place")
    ):
        seats[match_id].append(place)
    hands: dict[int, list[PlayedHand]] = {match.pk: [] for match in matches}
    for match_id, scores, finisher, finish in (
        Hand.objects.filter(**of_matches)
        .order_by("match_id", "number")
        .values_list("match_id", *Hand.PLAYED)
    ):
        hands[match_id].append(played_hand(scores, finisher, finish))
    listed = [
        TableMatch(
            match,
            PlayedMatch(
                places=tuple(seats[match.pk]),
                teams=match.teams,
                planned_hands=match.planned_hands,
                hands=tuple(hands[match.pk]),
            ),
        )
        for match in matches
    ]
    names = {player.place: player.name for player in players}
    counted = [entry.played for entry in reversed(listed) if not (viewer and hides(entry))]
    stats = table_stats(names, counted)
    return TableRecord(table, players, listed, stats, season)


def hides(entry: TableMatch) -> bool:
    """Whether this match's totals are hidden from its viewers now."""
    return entry.match.totals_hidden(entry.hands_played)


# --- Changes ---------------------------------------------------------------------------------


def create_table(name: str, names: list[str]) -> Table:
    with transaction.atomic():
        table = Table.objects.create(name=name)
        TablePlayer.objects.bulk_create(
            TablePlayer(table=table, place=place, name=player) for place, player in enumerate(names)
        )
    return table


def table_from_match(match: Match, name: str) -> Table:
    """A new table whose players are this match's, in seat order. The match joins it, and so do
    the matches it is a rematch of and the rematches of it: their players are the same people,
    each rematch one seat along, so everyone's place follows from their seat, never from how a
    name was typed. A match already at a table stays there (a second tap finds that table)."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.table_id is not None:
            return locked.table
        players = list(locked.players.all())
        table = create_table(name, [player.name for player in players])
        # The tea tally's rule moves with the match: a table's matches pay by the table's.
        Table.objects.filter(pk=table.pk).update(tea_rule=locked.tea_rule)
        seats = len(players)
        chain = [(locked, 0), *rematch_chain(locked)]
        steps_of = {entry.pk: steps for entry, steps in chain if entry.table_id is None}
        placed = list(Player.objects.filter(match_id__in=steps_of))
        for player in placed:
            # After k rematches everyone sits k seats along: seat t holds place t - k.
            player.table_place = (player.seat - steps_of[player.match_id]) % seats
        Player.objects.bulk_update(placed, ["table_place"])
        Match.objects.filter(pk__in=steps_of).update(table=table)
        # Their sheets show the table's tea list and rule from now on: every kept drawing of
        # them is of the version before (cetele.matches.sheet).
        bump_table(table.pk)
    return table


def rematch_chain(match: Match) -> list[tuple[Match, int]]:
    """The matches linked to this one by rematches, each with how many rematches it lies after
    this one (negative: before). Only matches with as many players can be in it."""
    chain = []
    current, steps = match, 0
    while current.rematch_of_id is not None:
        current, steps = Match.objects.get(pk=current.rematch_of_id), steps - 1
        chain.append((current, steps))
    current, steps = match, 0
    while (after := Match.objects.filter(rematch_of=current).first()) is not None:
        current, steps = after, steps + 1
        chain.append((current, steps))
    return chain


def table_full() -> str:
    return _("Masada en çok %(count)s oyuncu olabilir.") % {"count": MAX_TABLE_PLAYERS}


class PlayersRefused(Exception):
    """The table's players as they are now, under its lock, refuse this change; the sentence
    says why. The form checked the same before, but against the players it read earlier."""


def save_players(table: Table, renamed: list[TablePlayer], new_names: list[str]) -> None:
    """Rename the table's players and seat newcomers at the next free places, with the table
    row locked so that two phones adding at once never pick the same place. Under the lock the
    names are checked again against the players as they are now: a newcomer already seated (a
    double tap) is not seated twice, a name taken meanwhile or a table filled meanwhile refuses
    the whole change (PlayersRefused)."""
    with transaction.atomic():
        Table.objects.select_for_update().only("id").get(pk=table.pk)
        now = dict(table.players.values_list("place", "name"))
        now |= {player.place: player.name for player in renamed if player.place in now}
        taken = {name.casefold() for name in now.values()}
        newcomers = [name for name in new_names if name.casefold() not in taken]
        if len(taken) != len(now):
            raise PlayersRefused(_("Masada aynı adla iki oyuncu olamaz."))
        if len(now) + len(newcomers) > MAX_TABLE_PLAYERS:
            raise PlayersRefused(table_full())
        TablePlayer.objects.bulk_update(
            [player for player in renamed if player.place in now], ["name"]
        )
        start = max(now, default=-1)
        TablePlayer.objects.bulk_create(
            TablePlayer(table=table, place=start + 1 + index, name=name)
            for index, name in enumerate(newcomers)
        )
        changed([table.pk])


def moved_on(items: list) -> list:
    """Everyone one seat along: who sat at seat s sits at s + 1, the last at seat 0. In team
    play partners (seats 0 & 2, 1 & 3) stay partners."""
    return items[-1:] + items[:-1]


class NotFinished(Exception):
    """A rematch waits for the match's last hand."""


def rematch(match: Match) -> Match:
    """The same players with the seats moved on by one, the same frozen rules and length, at
    the same table. One rematch per match: asking again returns the one already started."""
    try:
        with transaction.atomic():
            Match.objects.select_for_update().only("id").get(pk=match.pk)
            existing = Match.objects.filter(rematch_of=match).first()
            if existing is not None:
                return existing
            if not match.is_over():
                raise NotFinished()
            players = moved_on(list(match.players.all()))
            return Match.start(
                [player.name for player in players],
                teams=match.teams,
                planned_hands=match.planned_hands,
                rules=match.rules,
                preset_slug=match.preset_slug,
                base_rules=match.base_rules,
                table=match.table,
                places=[player.table_place for player in players],
                rematch_of=match,
                hidden_totals=match.hidden_totals,  # the same table, the same way of playing
                tea_rule=match.tea_rule,  # and the same tea tally's rule, at no table
            )
    except IntegrityError:
        # Two taps raced past the check above: the one-to-one constraint kept one rematch.
        return Match.objects.get(rematch_of=match)


# --- The standings as a message --------------------------------------------------------------


def standings_message(record: TableRecord, link: str = "") -> str:
    """A few lines for the table's group chat: the standings, then the link."""
    finished = sum(entry.played.finished for entry in record.matches)
    name = record.table.name
    if record.season:
        name = f"{name} ({record.season})"
    lines = [
        ngettext("%(name)s: %(count)s maç bitti", "%(name)s: %(count)s maç bitti", finished)
        % {"name": name, "count": finished}
    ]
    for standing in record.stats.standings:
        player = standing.record
        lines.append(
            _("%(rank)s. %(name)s: %(won)s galibiyet / %(played)s maç")
            % {
                "rank": standing.rank,
                "name": player.name,
                "won": player.won,
                "played": player.played,
            }
        )
    if link:
        lines.append(_("Masanın sayfası: %(link)s") % {"link": link})
    return "\n".join(lines)
