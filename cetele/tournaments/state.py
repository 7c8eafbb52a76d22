"""A tournament's rows turned into the core's inputs, and the core's answers into what the pages
show: the one place where cetele.tournaments meets its engine (cetele.tournaments.engine).

`picture(tournament)` reads everything a page needs in a fixed number of queries, whatever the
number of tables, games and hands (the entrants, the pairings, the games with their matches,
the matches' hand scores, the results entered by hand), and asks the core for the rest:
pairing results, group and league standings, the knock-out bracket, tek standings, what the
organiser may draw next. No score arithmetic here: a game's totals are its match's sheet
(scoring.sheet.tally: the two team totals eşli, the four players' totals tek), or the totals
an organiser entered by hand.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Max, Sum

from cetele.models import Hand
from cetele.tournaments import engine as core
from cetele.tournaments import naming
from cetele.tournaments.models import (
    Entrant,
    Game,
    ManualResult,
    Pairing,
    Stage,
    Tournament,
)
from scoring.sheet import tally

# What the organiser may draw next (Picture.next_draw).
DRAW_START = "start"
DRAW_KNOCKOUT = "knockout"
DRAW_TEK_ROUND = "tek_round"


def spec_of(tournament: Tournament) -> core.TournamentSpec:
    """The core's settings (TournamentError when they do not hold together)."""
    return core.TournamentSpec(
        kind=core.Kind(tournament.kind),
        layout=core.Layout(tournament.layout),
        hands_per_game=tournament.hands_per_game,
        games_per_pairing=tournament.games_per_pairing,
        group_size=tournament.group_size,
        advance=tournament.advance,
        points=points_of(tournament),
        place_points=tuple(tournament.place_points or (3, 2, 1, 0)),
        rounds=tournament.rounds,
        tables=tournament.tables,
    )


def points_of(tournament: Tournament) -> core.Points:
    return core.Points(tournament.win_points, tournament.draw_points, tournament.loss_points)


@dataclass(frozen=True)
class LiveVersion:
    """What a live page's poll compares, read in one query (`live_version`)."""

    key: str  # "<tournament's version>.<sum of its matches' versions>.<number of matches>"
    touched_at: datetime  # the latest change of the tournament or one of its matches
    pk: int
    created_at: datetime


def live_version(queryset) -> LiveVersion | None:
    """The version a live page shows and when it last changed, in one aggregate query over the
    tournament found by `queryset` (a filter on a token): its own version, then the sum and
    the number of its matches' versions (every save bumps one; a match deleted changes the
    count); the latest of its own and its matches' touched_at (the poll's schedule: a table
    that plays is asked often). None: no such tournament."""
    row = (
        queryset.annotate(
            saves=Sum("games__match__version"),
            matches=Count("games__match"),
            latest=Max("games__match__touched_at"),
        )
        .values_list("version", "saves", "matches", "touched_at", "latest", "pk", "created_at")
        .first()
    )
    if row is None:
        return None
    version, saves, matches, touched, latest, pk, created_at = row
    return LiveVersion(
        f"{version}.{saves or 0}.{matches}", max(touched, latest or touched), pk, created_at
    )


# --- What the pages show --------------------------------------------------------------------


@dataclass
class Side:
    id: int
    number: int  # in the order entered, from 1
    name: str
    players: tuple[str, ...]
    withdrawn: bool
    group: str


@dataclass
class GameLine:
    """One game as the pages show it: who plays, where its match stands, its totals."""

    game: Game
    sides: tuple[Side, ...]  # eşli: (a, b); tek: the four players by seat
    played: int
    planned: int
    running: tuple[int, ...]  # the sides' running totals (eşli: the teams', tek: by seat)
    totals: tuple[int, ...] | None  # the game's result: its match finished, or entered by hand
    manual: list[ManualResult] = field(default_factory=list)
    needed: bool = True  # False: a best of three decided before this game
    knockout_pairings: int | None = None  # a knock-out game: the pairings of its round

    @property
    def finished(self) -> bool:
        return self.totals is not None

    @property
    def name(self) -> str:
        """As every page names it: "2. tur, masa 1", "Yarı final, masa 2", "Final"."""
        return naming.game_name(self.game.round, self.game.table, self.knockout_pairings)

    @property
    def stage(self) -> str:
        """Its round: "2. tur", "Yarı final" (a table's printed sheet names its table)."""
        return naming.game_stage(self.game.round, self.knockout_pairings)

    @property
    def match(self):
        return self.game.match

    @property
    def hidden(self) -> bool:
        """The running totals are hidden ("gizli toplam", turned on at the match) as on the
        match's own view link: until its last hands."""
        return self.match is not None and self.match.totals_hidden(self.played)


@dataclass
class PairingLine:
    pairing: Pairing
    a: Side
    b: Side | None
    games: list[GameLine]
    result: core.PairingResult
    winner: Side | None = None  # knock-out: who goes through, once finished

    @property
    def finished(self) -> bool:
        return self.b is None or self.result.finished

    @property
    def current(self) -> GameLine | None:
        """The game its table plays now: the first one needed and not finished."""
        return next((g for g in self.games if g.needed and not g.finished), None)


@dataclass
class StandingLine:
    row: core.StandingRow
    side: Side


@dataclass
class TekLine:
    row: core.TekRow
    side: Side

    @property
    def points(self) -> int | float:
        """The place points as a page shows them: whole, or to two decimals (shared places
        give fractions: 3/2 is "1,5")."""
        value = self.row.points
        return int(value) if value.denominator == 1 else round(float(value), 2)


@dataclass
class GroupTable:
    name: str
    lines: list[StandingLine]


@dataclass
class KnockoutRound:
    title: str
    lines: list[PairingLine]


@dataclass
class Picture:
    tournament: Tournament
    sides: dict[int, Side]
    entrants: list[Side]  # in the order entered
    pairings: list[PairingLine]
    games: list[GameLine]
    groups: list[GroupTable]  # the league is one group named ""
    knockout: list[KnockoutRound]
    tek: list[TekLine]
    current_round: int
    live: list[GameLine]  # the game each table plays now, by table
    next_draw: str | None
    finished: bool
    champion: Side | None
    manual: list[ManualResult]

    @property
    def next_round(self) -> int:
        """Tek: the number of the round "Kura çek" draws next."""
        return self.current_round + 1

    @property
    def manual_lines(self) -> list[tuple[ManualResult, GameLine]]:
        """Each result entered by hand with its game, latest first (few: a live page shows
        them)."""
        lines = {line.game.pk: line for line in self.games}
        return [(entry, lines[entry.game_id]) for entry in reversed(self.manual)]

    @property
    def current_pairings(self) -> list[PairingLine]:
        phase = self.current_phase
        return [
            p
            for p in self.pairings
            if p.pairing.phase == phase and p.pairing.round == self.current_round
        ]

    @property
    def current_knockout_pairings(self) -> int | None:
        """The pairings of the knock-out round being played (None before the knock-out)."""
        if self.current_phase != Pairing.Phase.KNOCKOUT:
            return None
        return len(self.current_pairings)

    @property
    def round_name(self) -> str:
        """The round being played: "2. tur", "Yarı final" (cetele.tournaments.naming)."""
        return naming.round_name(self.current_round, self.current_knockout_pairings)

    @property
    def draw_due(self) -> str:
        """Above the organiser's "Kura çek" once a round is over: which one ended, what the
        draw is for ("Yarı finaller bitti: finalin kurasını çekin.")."""
        if self.next_draw not in (DRAW_KNOCKOUT, DRAW_TEK_ROUND):
            return ""
        stage = self.tournament.stage
        return naming.draw_due(stage, self.current_knockout_pairings, self.current_round)

    @property
    def after_this_round(self) -> str:
        """What follows the round being played (naming.NEXT_DRAWN, NEXT_BY_DRAW, LAST_ROUND):
        the printed sheets say when the next round's come."""
        t = self.tournament
        if t.stage in (Stage.GROUPS, Stage.LEAGUE):
            drawn = max((p.pairing.round for p in self.pairings), default=0)
            if self.current_round < drawn:
                return naming.NEXT_DRAWN
            return naming.NEXT_BY_DRAW if t.stage == Stage.GROUPS else naming.LAST_ROUND
        if t.stage == Stage.KNOCKOUT:
            last = self.current_knockout_pairings == 1
            return naming.LAST_ROUND if last else naming.NEXT_BY_DRAW
        return naming.NEXT_BY_DRAW if self.current_round < t.rounds else naming.LAST_ROUND

    @property
    def sheets_note(self) -> tuple[str, str]:
        return naming.sheets_note(self.round_name, self.after_this_round)

    @property
    def current_phase(self) -> str:
        if self.tournament.stage == Stage.KNOCKOUT:
            return Pairing.Phase.KNOCKOUT
        return Pairing.Phase.GROUP

    @property
    def current_games(self) -> list[GameLine]:
        """The current round's games (tek) or the games of its pairings (eşli), by table."""
        if not self.tournament.esli:
            return [g for g in self.games if g.game.round == self.current_round]
        return [g for p in self.current_pairings for g in p.games]


def picture(tournament: Tournament) -> Picture:
    """Everything the tournament's pages show, in five queries whatever its size."""
    entrants = list(Entrant.objects.filter(tournament=tournament))
    sides = {
        e.pk: Side(
            e.pk,
            e.number,
            e.name,
            tuple(name for name in (e.player_1, e.player_2) if name),
            e.withdrawn,
            e.group,
        )
        for e in entrants
    }
    pairings = list(Pairing.objects.filter(tournament=tournament))
    games = list(
        Game.objects.filter(tournament=tournament)
        .select_related("match")
        .defer("match__rules", "match__base_rules")
    )
    scores = defaultdict(list)
    hands = Hand.objects.filter(match__tournament_game__tournament=tournament).order_by(
        "match_id", "number"
    )
    for match_id, hand_scores in hands.values_list("match_id", "result__scores"):
        scores[match_id].append(hand_scores)
    manual = list(ManualResult.objects.filter(game__tournament=tournament))
    manual_by_game = defaultdict(list)
    for entry in manual:
        manual_by_game[entry.game_id].append(entry)
    pairing_sides = {p.pk: p for p in pairings}
    lines = [
        game_line(tournament, game, sides, pairing_sides, scores, manual_by_game[game.pk])
        for game in games
    ]
    by_pairing = defaultdict(list)
    for line in lines:
        if line.game.pairing_id is not None:
            by_pairing[line.game.pairing_id].append(line)
    pairing_lines = [pairing_line(tournament, p, sides, by_pairing[p.pk]) for p in pairings]
    return assemble(tournament, sides, entrants, pairing_lines, lines, manual)


def game_line(tournament, game, sides, pairings, scores, manual) -> GameLine:
    if game.pairing_id is not None:
        pairing = pairings[game.pairing_id]
        game_sides = (sides[pairing.a_id], sides[pairing.b_id])
    else:
        game_sides = tuple(sides[entrant] for entrant in game.seats)
    match = game.match
    hand_scores = scores.get(match.pk, []) if match is not None else []
    seats = 4
    sheet = tally(hand_scores, seats, tournament.esli)
    running = sheet.team_totals if tournament.esli else sheet.totals
    planned = match.planned_hands if match is not None else tournament.hands_per_game
    totals = None
    if game.totals is not None:
        totals = tuple(game.totals)
    elif match is not None and len(hand_scores) >= planned:
        totals = tuple(running)
    return GameLine(game, game_sides, len(hand_scores), planned, tuple(running), totals, manual)


def pairing_line(tournament, pairing, sides, games) -> PairingLine:
    """The pairing's result from its games in order: a game counts once those before it are
    in; one that comes after the pairing is decided is not needed."""
    counted: list[tuple[int, int]] = []
    waiting = False
    per = tournament.games_per_pairing
    for game in games:
        if core.pairing_result(counted, per).finished:
            game.needed = False
        elif waiting or game.totals is None:
            waiting = True
        else:
            counted.append(game.totals)
    b = sides[pairing.b_id] if pairing.b_id is not None else None
    return PairingLine(pairing, sides[pairing.a_id], b, games, core.pairing_result(counted, per))


def knockout_of(line: PairingLine) -> core.KnockoutPairing:
    p = line.pairing
    return core.KnockoutPairing(p.a_id, p.b_id, p.seed_a, p.seed_b)


def assemble(tournament, sides, entrants, pairings, games, manual) -> Picture:
    group_lines = [p for p in pairings if p.pairing.phase == Pairing.Phase.GROUP]
    knockout_lines = [p for p in pairings if p.pairing.phase == Pairing.Phase.KNOCKOUT]
    groups = []
    if tournament.esli and tournament.stage != Stage.ENTRY:
        # Eşli entrants withdraw only before the draw: the drawn ones are the others.
        drawn = [e for e in entrants if not e.withdrawn]
        for name in sorted({e.group for e in drawn}):
            members = [e.pk for e in drawn if e.group == name]
            results = [
                (core.Pairing(p.pairing.a_id, p.pairing.b_id), p.result)
                for p in group_lines
                if p.pairing.group == name
            ]
            rows = core.standings(members, results, points_of(tournament))
            groups.append(GroupTable(name, [StandingLine(r, sides[r.side]) for r in rows]))
    rounds: dict[int, list[PairingLine]] = defaultdict(list)
    for line in knockout_lines:
        if line.finished:
            line.winner = sides[core.knockout_winner(knockout_of(line), line.result)]
        rounds[line.pairing.round].append(line)
    knockout = [
        KnockoutRound(naming.round_title(len(rounds[k])), rounds[k]) for k in sorted(rounds)
    ]
    for lines in rounds.values():
        for line in lines:
            for game in line.games:
                game.knockout_pairings = len(lines)
    tek = []
    if not tournament.esli and tournament.stage != Stage.ENTRY:
        tek = tek_table(tournament, sides, games)
    picture = Picture(
        tournament=tournament,
        sides=sides,
        entrants=[sides[e.pk] for e in entrants],
        pairings=pairings,
        games=games,
        groups=groups,
        knockout=knockout,
        tek=tek,
        current_round=0,
        live=[],
        next_draw=None,
        finished=False,
        champion=None,
        manual=manual,
    )
    settle(picture)
    return picture


def tek_table(tournament, sides, games) -> list[TekLine]:
    players = list(sides)
    results = [
        dict(zip(g.game.seats, g.totals, strict=True)) for g in games if g.totals is not None
    ]
    byes = [entrant for round_byes in tournament.byes.values() for entrant in round_byes]
    rows = core.tek_standings(
        players, results, tuple(tournament.place_points or (3, 2, 1, 0)), byes=byes
    )
    return [TekLine(r, sides[r.player]) for r in rows]


def settle(picture: Picture) -> None:
    """The current round, the tables' live games, what may be drawn next, whether it is over."""
    t = picture.tournament
    if t.stage == Stage.ENTRY:
        picture.next_draw = DRAW_START
        return
    if t.esli:
        phase = picture.current_phase
        in_phase = [p for p in picture.pairings if p.pairing.phase == phase]
        open_rounds = [p.pairing.round for p in in_phase if not p.finished]
        all_rounds = [p.pairing.round for p in in_phase]
        picture.current_round = min(open_rounds) if open_rounds else max(all_rounds, default=0)
        picture.live = [p.current for p in picture.current_pairings if p.current is not None]
        done = not open_rounds
        if t.stage == Stage.GROUPS and done:
            picture.next_draw = DRAW_KNOCKOUT
        elif t.stage == Stage.KNOCKOUT and done:
            last = picture.knockout[-1].lines if picture.knockout else []
            if len(last) == 1:
                picture.finished = True
                picture.champion = last[0].winner
            else:
                picture.next_draw = DRAW_KNOCKOUT
        elif t.stage == Stage.LEAGUE and done:
            picture.finished = True
            if picture.groups and picture.groups[0].lines:
                picture.champion = picture.groups[0].lines[0].side
    else:
        picture.current_round = max((g.game.round for g in picture.games), default=0)
        current = picture.current_games
        picture.live = [g for g in current if not g.finished]
        if not picture.live:
            if picture.current_round < t.rounds:
                picture.next_draw = DRAW_TEK_ROUND
            else:
                picture.finished = True
                picture.champion = picture.tek[0].side if picture.tek else None
    picture.live.sort(key=lambda g: (g.game.table or 0, g.game.number))


def knockout_winners(picture: Picture) -> list[int]:
    """The last knock-out round's winners, in bracket order."""
    return [line.winner.id for line in picture.knockout[-1].lines]


def past_tek_rounds(picture: Picture) -> list[core.TekRound]:
    """The rounds drawn so far, as tek_rounds takes them (meetings and sit-outs count)."""
    by_round = defaultdict(list)
    for line in picture.games:
        by_round[line.game.round].append(tuple(line.game.seats))
    byes = picture.tournament.byes
    return [
        core.TekRound(number, tuple(by_round[number]), tuple(byes.get(str(number), ())))
        for number in sorted(by_round)
    ]


def group_orders(picture: Picture) -> list[list[int]]:
    """Each group's finishing order (groups A, B, …), for the knock-out's first round."""
    return [[line.side.id for line in group.lines] for group in picture.groups]
