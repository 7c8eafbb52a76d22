"""Statistics of a match and of a table's matches: pure functions over scores the engine already
computed. No Django here and no database: the shell turns models into `PlayedMatch`es once
(cetele.tables.season) and shows what these functions return.

Lowest total wins, ties shared (as on the sheet: `scoring.sheet.tally` decides totals, places
and leaders; nothing here adds a match's scores up again). Decisions where the issue was silent:

- A table's match statistics (played, won, places, head-to-head, standings) count finished
  matches only; its hand statistics (average per hand, finishes, best and worst hand) count
  every hand played, an unfinished match's too.
- In team play both partners win when their team wins; head-to-head compares opponents only,
  by their teams' totals.
- A finish is counted under each of its traits: an okey finish by a pair opener counts as both
  "okey" and "pairs"; "normal" is a series finish with neither okey nor kafa.
- The biggest hand is the one whose scores lie furthest apart (highest minus lowest score),
  the earliest on a tie: the hand that moved the standings most.
- The standings: most matches won first, then the better average place, then the lower average
  score per hand; players equal on all three share a place.
"""

from collections import Counter
from dataclasses import dataclass, field

from scoring.sheet import TEAM_SEATS, Sheet, tally

FINISH_TRAITS = ("normal", "okey", "pairs", "kafa")


def finish_traits(kind: str) -> tuple[str, ...]:
    """The traits of an engine finish kind: "pairs_okey" → ("okey", "pairs")."""
    if kind == "none":
        return ()
    traits = tuple(trait for trait in ("okey", "pairs", "kafa") if trait in kind.split("_"))
    return traits or ("normal",)


def drawn(sheet: Sheet, teams: bool) -> bool:
    """Every side shares the lowest total: a draw, which nobody won ("Berabere", never
    "Kazanan:" with every side named)."""
    leaders = sheet.team_leaders if teams else sheet.leaders
    sides = len(TEAM_SEATS) if teams else len(sheet.totals)
    return sides > 1 and len(leaders) == sides


@dataclass(frozen=True)
class PlayedHand:
    scores: tuple[int, ...]  # per seat, as the engine scored them
    finisher: int | None  # seat, or None when nobody finished
    finish: str  # the engine's finish kind


@dataclass(frozen=True)
class PlayedMatch:
    """One match of a table: who sat where (table places by seat) and its hands in order."""

    places: tuple[int, ...]
    teams: bool
    planned_hands: int
    hands: tuple[PlayedHand, ...]
    sheet: Sheet = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        sheet = tally([hand.scores for hand in self.hands], len(self.places), self.teams)
        object.__setattr__(self, "sheet", sheet)

    @property
    def finished(self) -> bool:
        return len(self.hands) >= self.planned_hands

    def side_of(self, seat: int) -> int:
        """The seat itself in singles, its team (0 or 1) in team play."""
        return seat % 2 if self.teams else seat

    def side_place(self, seat: int) -> int:
        """The seat's place in this match (its team's place in team play)."""
        if self.teams:
            return self.sheet.team_places[self.side_of(seat)]
        return self.sheet.places[seat]

    def won(self, seat: int) -> bool:
        leaders = self.sheet.team_leaders if self.teams else self.sheet.leaders
        return self.side_of(seat) in leaders

    def side_total(self, seat: int) -> int:
        if self.teams:
            return self.sheet.team_totals[self.side_of(seat)]
        return self.sheet.totals[seat]

    @property
    def drawn(self) -> bool:
        return drawn(self.sheet, self.teams)

    @property
    def winner_places(self) -> tuple[int, ...]:
        """The table places of the winners (every seat of a winning team), in seat order."""
        return tuple(place for seat, place in enumerate(self.places) if self.won(seat))


# --- One match: the summary a player sends after the last hand -------------------------------


@dataclass(frozen=True)
class BiggestHand:
    position: int  # 1-based, as the sheet numbers rows
    finish: str
    finisher: int | None
    top_seat: int  # who wrote the highest score in it
    top_score: int
    spread: int


@dataclass(frozen=True)
class MatchSummary:
    sides: tuple[str, ...]  # player names, or "A & C" per team
    order: tuple[int, ...]  # side indexes by place (then by seat)
    places: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]  # side indexes
    drawn: bool  # every side won: nobody did
    biggest: BiggestHand | None
    top_finishers: tuple[int, ...]  # seats that finished most often
    top_finishes: int


def side_names(names: list[str], teams: bool) -> tuple[str, ...]:
    if teams:
        return tuple(f"{names[a]} & {names[b]}" for a, b in TEAM_SEATS)
    return tuple(names)


def biggest_hand(hands: list[PlayedHand]) -> BiggestHand | None:
    best = None
    for position, hand in enumerate(hands, start=1):
        spread = max(hand.scores) - min(hand.scores)
        if best is None or spread > best.spread:
            top = max(range(len(hand.scores)), key=lambda seat: (hand.scores[seat], -seat))
            best = BiggestHand(position, hand.finish, hand.finisher, top, hand.scores[top], spread)
    return best


def most_finishes(hands: list[PlayedHand]) -> tuple[tuple[int, ...], int]:
    """The seats that finished most often, and how often; ((), 0) when nobody ever finished."""
    counts = Counter(hand.finisher for hand in hands if hand.finisher is not None)
    if not counts:
        return (), 0
    most = max(counts.values())
    return tuple(sorted(seat for seat, count in counts.items() if count == most)), most


def match_summary(
    names: list[str], teams: bool, hands: list[PlayedHand], sheet: Sheet
) -> MatchSummary:
    """Winner, final totals by place, the biggest hand, who finished most often."""
    if teams:
        totals, places, leaders = sheet.team_totals, sheet.team_places, sheet.team_leaders
    else:
        totals, places, leaders = sheet.totals, sheet.places, sheet.leaders
    top_finishers, top_finishes = most_finishes(hands)
    return MatchSummary(
        sides=side_names(names, teams),
        order=tuple(sorted(range(len(totals)), key=lambda side: (places[side], side))),
        places=tuple(places),
        totals=tuple(totals),
        winners=tuple(sorted(leaders)),
        drawn=drawn(sheet, teams),
        biggest=biggest_hand(hands),
        top_finishers=top_finishers,
        top_finishes=top_finishes,
    )


# --- A table: every player's record over its matches ----------------------------------------


@dataclass
class PlayerRecord:
    place: int
    name: str
    played: int = 0  # finished matches
    won: int = 0
    place_sum: int = 0  # of the player's places in finished matches, for the average
    hands: int = 0
    points: int = 0  # sum of the player's own hand scores
    finishes: Counter = field(default_factory=Counter)  # "all" and each trait
    best: int | None = None  # lowest hand score (lower is better in 101)
    worst: int | None = None

    @property
    def average(self) -> float | None:
        """Average score per hand, one decimal."""
        return round(self.points / self.hands, 1) if self.hands else None

    @property
    def average_place(self) -> float | None:
        return round(self.place_sum / self.played, 2) if self.played else None

    @property
    def finished_hands(self) -> int:
        return self.finishes["all"]

    def finish_count(self, trait: str) -> int:
        return self.finishes[trait]

    @property
    def standing_key(self) -> tuple:
        return (
            -self.won,
            self.average_place if self.played else float("inf"),
            self.average if self.hands else float("inf"),
        )


@dataclass(frozen=True)
class HeadToHead:
    """How often `player` finished a match ahead of `opponent`, behind, or level."""

    player: int
    opponent: int
    ahead: int
    behind: int
    level: int

    @property
    def met(self) -> int:
        return self.ahead + self.behind + self.level


@dataclass(frozen=True)
class Standing:
    rank: int
    record: PlayerRecord


@dataclass(frozen=True)
class TableStats:
    records: tuple[PlayerRecord, ...]  # by table place
    head_to_head: dict[tuple[int, int], HeadToHead]  # (player place, opponent place)
    standings: tuple[Standing, ...]

    def meeting(self, player: int, opponent: int) -> HeadToHead | None:
        return self.head_to_head.get((player, opponent))

    @property
    def ranked(self) -> list[PlayerRecord]:
        """The players who have played, in standings order."""
        return [standing.record for standing in self.standings]

    @property
    def head_to_head_rows(self) -> list[tuple[PlayerRecord, list[HeadToHead | None]]]:
        """The head-to-head table: a row per player, a cell per opponent (None: never met)."""
        players = self.ranked
        return [
            (row, [self.meeting(row.place, column.place) for column in players]) for row in players
        ]


def table_stats(players: dict[int, str], matches: list[PlayedMatch]) -> TableStats:
    """Every player's record, the head-to-head results and the standings of a table."""
    records = {place: PlayerRecord(place, name) for place, name in sorted(players.items())}
    meetings: dict[tuple[int, int], list[int]] = {}  # [ahead, behind, level]
    for match in matches:
        for seat, place in enumerate(match.places):
            record = records.get(place)
            if record is not None:
                _count_hands(record, match, seat)
                if match.finished:
                    record.played += 1
                    record.won += match.won(seat)
                    record.place_sum += match.side_place(seat)
        if match.finished:
            _count_meetings(meetings, match)
    head_to_head = {
        pair: HeadToHead(pair[0], pair[1], *counts)
        for pair, counts in meetings.items()
        if pair[0] in records and pair[1] in records
    }
    return TableStats(
        records=tuple(records.values()),
        head_to_head=head_to_head,
        standings=_standings(list(records.values())),
    )


def _count_hands(record: PlayerRecord, match: PlayedMatch, seat: int) -> None:
    for hand in match.hands:
        score = hand.scores[seat]
        record.hands += 1
        record.points += score
        record.best = score if record.best is None else min(record.best, score)
        record.worst = score if record.worst is None else max(record.worst, score)
        if hand.finisher == seat:
            record.finishes["all"] += 1
            record.finishes.update(finish_traits(hand.finish))


def _count_meetings(meetings: dict, match: PlayedMatch) -> None:
    seats = range(len(match.places))
    for seat in seats:
        for other in seats:
            if seat == other or match.side_of(seat) == match.side_of(other):
                continue  # oneself, or one's partner
            mine, theirs = match.side_total(seat), match.side_total(other)
            counts = meetings.setdefault((match.places[seat], match.places[other]), [0, 0, 0])
            counts[0 if mine < theirs else 1 if mine > theirs else 2] += 1


def _standings(records: list[PlayerRecord]) -> tuple[Standing, ...]:
    ranked = sorted(
        (record for record in records if record.played or record.hands),
        key=lambda record: (record.standing_key, record.place),
    )
    keys = [record.standing_key for record in ranked]
    return tuple(
        Standing(rank=1 + sum(other < key for other in keys), record=record)
        for key, record in zip(keys, ranked, strict=True)
    )
