"""A pure model of a café tournament, for
tests/web/tournaments/test_random_tournaments_agree_with_a_model.py: what the standings, the
bracket and the champion must be, worked out again from the games' results with nothing of the
app's (no Django, no tournament engine), following the rules the engine's docstring states
(cetele/tournaments/engine, "What the issue leaves open").

The draw itself (who is in which group, who meets whom, who sits out) is the app's to make: the
test copies it in after each draw, and checks it against the results it was drawn from
(`bracket_problems`). A game's result is the last one entered by hand, else its hands' totals
once all its hands are in; its hands are modelled with their "Geri al" and "Yinele" history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

TEAM_SEATS = ((0, 2), (1, 3))  # eşli: team a at seats 0 and 2, team b at 1 and 3


@dataclass
class Change:
    """One change of a match's hands as "Geri al" and "Yinele" see it: hand `number` went from
    `before` to `after` (None: no such hand)."""

    action: str  # create, edit, delete, undo, redo
    number: int
    before: tuple[int, ...] | None
    after: tuple[int, ...] | None
    undone: bool = False


@dataclass
class GameModel:
    number: int
    round: int
    pairing: int | None  # eşli: the pairing's number
    index: int  # eşli: its place in the pairing
    seats: tuple[int, ...]  # tek: entrant numbers by seat
    edit_token: str
    view_token: str
    hands: dict[int, tuple[int, ...]] = field(default_factory=dict)  # number -> seat scores
    changes: list[Change] = field(default_factory=list)
    manual: list[tuple[int, ...]] = field(default_factory=list)

    def ordered_hands(self) -> list[tuple[int, ...]]:
        return [self.hands[number] for number in sorted(self.hands)]

    def totals(self, planned: int, esli: bool) -> tuple[int, ...] | None:
        if self.manual:
            return self.manual[-1]
        if len(self.hands) < planned:
            return None
        seats = tuple(sum(column) for column in zip(*self.ordered_hands(), strict=True))
        if esli:
            return tuple(seats[a] + seats[b] for a, b in TEAM_SEATS)
        return seats

    # --- The match's own history: what a saved, corrected or deleted hand, an undo and a redo
    # leave on its sheet.

    def record(self, action: str, number: int, after: tuple[int, ...] | None) -> None:
        before = self.hands.get(number)
        self.put(number, after)
        self.changes.append(Change(action, number, before, after))

    def add(self, scores: tuple[int, ...]) -> None:
        self.record("create", max(self.hands, default=0) + 1, scores)

    def put(self, number: int, scores: tuple[int, ...] | None) -> None:
        if scores is None:
            self.hands.pop(number, None)
        else:
            self.hands[number] = scores

    def undoable(self) -> Change | None:
        """The latest change made by a person (a redo too) that was not undone."""
        return next(
            (c for c in reversed(self.changes) if c.action != "undo" and not c.undone), None
        )

    def redoable(self) -> Change | None:
        """The latest change, when it is an undo nothing reversed since."""
        latest = self.changes[-1] if self.changes else None
        return latest if latest and latest.action == "undo" and not latest.undone else None

    def reverse(self, change: Change, action: str) -> None:
        self.put(change.number, change.before)
        change.undone = True
        self.changes.append(Change(action, change.number, change.after, change.before))


@dataclass
class PairingModel:
    number: int
    phase: str  # group, knockout
    round: int
    group: str
    a: int  # entrant numbers
    b: int | None  # None: a knock-out bye
    games: list[int] = field(default_factory=list)  # game numbers, in order


@dataclass
class Outcome:
    """Where a pairing stands after its counted games (the core's docstring, 1 and 2)."""

    finished: bool
    winner: str | None  # "a", "b", or None (level, or open)
    wins_a: int
    wins_b: int
    draws: int
    averaj_a: int
    games: list[tuple[int, int]]


def outcome(games: list[tuple[int, int]], per: int) -> Outcome:
    """The pairing after its finished games in order (lower total wins a game; a side with more
    than half the game points wins, and the pairing ends there)."""
    wins_a = wins_b = draws = averaj = 0
    counted = []
    for total_a, total_b in games:
        counted.append((total_a, total_b))
        averaj += total_b - total_a
        wins_a += total_a < total_b
        wins_b += total_b < total_a
        draws += total_a == total_b
        if 2 * wins_a + draws > per:
            return Outcome(True, "a", wins_a, wins_b, draws, averaj, counted)
        if 2 * wins_b + draws > per:
            return Outcome(True, "b", wins_a, wins_b, draws, averaj, counted)
    finished = len(counted) == per
    return Outcome(finished, None, wins_a, wins_b, draws, averaj, counted)


@dataclass
class Row:
    """A side's line in a group or league table, as the page shows it."""

    side: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    games_won: int = 0
    games_lost: int = 0
    averaj: int = 0
    points: int = 0


def ordered(sides, key, head_to_head) -> list:
    """Best first by `key`; sides tied on it by `head_to_head` among exactly them, again on
    any smaller set it leaves tied; then the smaller id (registered first)."""

    def buckets(group, by):
        values = sorted({by[side] for side in group}, reverse=True)
        return [[side for side in group if by[side] == value] for value in values]

    def untie(group):
        if len(group) == 1:
            return group
        split = buckets(group, head_to_head(frozenset(group)))
        if len(split) == 1:
            return sorted(group)
        return [side for part in split for side in untie(part)]

    return [side for part in buckets(list(sides), key) for side in untie(part)]


@dataclass
class TournamentModel:
    esli: bool
    layout: str  # groups, league, tek_rounds
    planned: int  # hands a game
    per: int  # games a pairing
    advance: int
    rounds: int  # tek
    points: tuple[int, int, int]  # win, draw, loss
    place_points: tuple[int, ...]
    names: dict[int, str] = field(default_factory=dict)  # entrant number -> name
    groups: dict[int, str] = field(default_factory=dict)  # entrant number -> group
    stage: str = "entry"
    pairings: dict[int, PairingModel] = field(default_factory=dict)
    games: dict[int, GameModel] = field(default_factory=dict)
    byes: list[int] = field(default_factory=list)  # tek: every round's sitting out
    withdrawn: set[int] = field(default_factory=set)  # tek: left between rounds

    # --- Results ----------------------------------------------------------------------------

    def result(self, number: int) -> tuple[int, ...] | None:
        return self.games[number].totals(self.planned, self.esli)

    def counted(self, pairing: PairingModel) -> list[tuple[int, int]]:
        """Its games' results in order, up to the first one not in or the one that ends it."""
        results = []
        for number in pairing.games:
            if outcome(results, self.per).finished:
                break
            totals = self.result(number)
            if totals is None:
                break
            results.append(totals)
        return results

    def outcome_of(self, pairing: PairingModel) -> Outcome:
        return outcome(self.counted(pairing), self.per)

    def needed(self, pairing: PairingModel, number: int) -> bool:
        """Whether game `number` still counts: none before it ended the pairing."""
        before = [g for g in pairing.games if g < number]
        results = [self.result(g) for g in before]
        return None in results or not outcome(results, self.per).finished

    def finished(self, pairing: PairingModel) -> bool:
        return pairing.b is None or self.outcome_of(pairing).finished

    def winner(self, pairing: PairingModel) -> int | None:
        """Who goes through a finished knock-out pairing: its winner; level, the better
        averaj, then the better seed (side a)."""
        if pairing.b is None:
            return pairing.a
        result = self.outcome_of(pairing)
        if not result.finished:
            return None
        if result.winner == "b" or (result.winner is None and result.averaj_a < 0):
            return pairing.b
        return pairing.a

    # --- Group and league tables ------------------------------------------------------------

    def group_names(self) -> list[str]:
        return sorted(set(self.groups.values()))

    def table(self, group: str) -> list[Row]:
        members = [side for side, name in self.groups.items() if name == group]
        meetings = [
            (p, self.outcome_of(p))
            for p in self.pairings.values()
            if p.phase == "group" and p.group == group
        ]
        rows = self.tally(members, meetings)

        def head_to_head(tied):
            among = [(p, r) for p, r in meetings if {p.a, p.b} <= tied]
            return {s: (r.points, r.averaj) for s, r in self.tally(tied, among).items()}

        key = {side: (row.points, row.averaj) for side, row in rows.items()}
        return [rows[side] for side in ordered(members, key, head_to_head)]

    def tally(self, sides, meetings) -> dict[int, Row]:
        rows = {side: Row(side) for side in sides}
        win, draw, loss = self.points
        for pairing, result in meetings:
            if not result.finished:
                continue
            for side, mine, other, won, lost, averaj in (
                (pairing.a, "a", "b", result.wins_a, result.wins_b, result.averaj_a),
                (pairing.b, "b", "a", result.wins_b, result.wins_a, -result.averaj_a),
            ):
                row = rows[side]
                row.played += 1
                if result.winner == mine:
                    row.won, row.points = row.won + 1, row.points + win
                elif result.winner == other:
                    row.lost, row.points = row.lost + 1, row.points + loss
                else:
                    row.drawn, row.points = row.drawn + 1, row.points + draw
                row.games_won += won
                row.games_lost += lost
                row.averaj += averaj
        return rows

    # --- Tek --------------------------------------------------------------------------------

    def tek_table(self) -> list[tuple[int, Fraction, int, int, int]]:
        """(player, points, played, byes, averaj), best first."""
        players = sorted(self.names)
        points = dict.fromkeys(players, Fraction(0))
        played = dict.fromkeys(players, 0)
        averaj = dict.fromkeys(players, 0)
        tables = []
        for game in self.games.values():
            totals = self.result(game.number)
            if totals is None:
                continue
            table = dict(zip(game.seats, totals, strict=True))
            tables.append(table)
            values = sorted(totals)
            for player, total in table.items():
                first = values.index(total)
                shared = self.place_points[first : first + values.count(total)]
                points[player] += Fraction(sum(shared), len(shared))
                played[player] += 1
                averaj[player] += sum(totals) - 4 * total
        for player in self.byes:
            points[player] += Fraction(sum(self.place_points), 4)

        def head_to_head(tied):
            score = dict.fromkeys(tied, 0)
            for table in tables:
                for x, y in combinations([p for p in table if p in tied], 2):
                    score[x] += (table[x] < table[y]) - (table[x] > table[y])
                    score[y] += (table[y] < table[x]) - (table[y] > table[x])
            return {player: (score[player],) for player in tied}

        key = {player: (points[player], averaj[player]) for player in players}
        return [
            (p, points[p], played[p], self.byes.count(p), averaj[p])
            for p in ordered(players, key, head_to_head)
        ]

    # --- Where the tournament stands --------------------------------------------------------

    def knockout_rounds(self) -> list[list[PairingModel]]:
        rounds: dict[int, list[PairingModel]] = {}
        for pairing in sorted(self.pairings.values(), key=lambda p: p.number):
            if pairing.phase == "knockout":
                rounds.setdefault(pairing.round, []).append(pairing)
        return [rounds[number] for number in sorted(rounds)]

    def current_tek_round(self) -> int:
        return max((g.round for g in self.games.values()), default=0)

    def open_games(self) -> list[GameModel]:
        """The games the tables play now (needed, without a result), current round only."""
        if not self.esli:
            current = self.current_tek_round()
            return [
                g
                for g in self.games.values()
                if g.round == current and self.result(g.number) is None
            ]
        phase = "knockout" if self.stage == "knockout" else "group"
        games = []
        for pairing in self.pairings.values():
            if pairing.phase != phase or self.finished(pairing):
                continue
            games += [
                self.games[n]
                for n in pairing.games
                if self.result(n) is None and self.needed(pairing, n)
            ]
        return games

    def next_draw(self) -> bool:
        """Whether "Kura çek" has something to draw."""
        if self.stage == "entry":
            return True
        if self.open_games():
            return False
        if not self.esli:
            return self.current_tek_round() < self.rounds
        if self.stage == "groups":
            return True
        if self.stage == "knockout":
            return len(self.knockout_rounds()[-1]) > 1
        return False

    def champion(self) -> int | None:
        """Whom the page names champion: None while the tournament is not over."""
        if self.stage == "entry" or self.next_draw() or self.open_games():
            return None
        if not self.esli:
            return self.tek_table()[0][0]
        if self.stage == "league":
            return self.table("")[0].side
        if self.stage == "knockout":
            (final,) = self.knockout_rounds()[-1]
            return self.winner(final)
        return None

    def frozen(self, number: int) -> bool:
        """Whether a later draw used the game's result (cetele.tournaments.guard's rule)."""
        game = self.games[number]
        if game.pairing is None:
            return False
        pairing = self.pairings[game.pairing]
        if pairing.phase == "group":
            return self.stage == "knockout"
        return any(p.round > pairing.round for p in self.pairings.values() if p.phase == "knockout")

    def qualifiers(self) -> set[int]:
        """The sides the group tables put through to the knock-out."""
        return {
            row.side for group in self.group_names() for row in self.table(group)[: self.advance]
        }

    def bracket_problems(self) -> list[str]:
        """Where the bracket contradicts the results it was drawn from: the first round holds
        exactly the sides the group tables put through, each later pairing exactly the winners
        of the two pairings before it."""
        rounds = self.knockout_rounds()
        problems = []
        if rounds:
            through = self.qualifiers()
            drawn = {s for p in rounds[0] for s in (p.a, p.b) if s is not None}
            if drawn != through:
                problems.append(f"first round {sorted(drawn)}, the groups put {sorted(through)}")
        for earlier, later in zip(rounds, rounds[1:], strict=False):
            for index, pairing in enumerate(later):
                feeders = earlier[2 * index : 2 * index + 2]
                winners = {self.winner(p) for p in feeders}
                if {pairing.a, pairing.b} != winners:
                    problems.append(
                        f"round {pairing.round} pairing {pairing.number} holds "
                        f"{pairing.a}, {pairing.b}; the winners before it are {winners}"
                    )
        return problems
