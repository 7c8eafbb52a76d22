"""Where a pairing stands after its games, and a league's or a group's table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum

from cetele.tournaments.engine.schedule import Pairing
from cetele.tournaments.engine.sides import SideId, TournamentError, distinct, is_int, ordered
from cetele.tournaments.engine.spec import DEFAULT_POINTS, Points


class Outcome(StrEnum):
    OPEN = "open"  # games still to play
    A = "a"  # side a won the pairing
    B = "b"
    LEVEL = "level"  # over, nobody won: a drawn pairing (knock-out: see knockout_winner)


@dataclass(frozen=True)
class PairingResult:
    games: tuple[tuple[int, int], ...]  # (side a's total, side b's total) per finished game
    games_per_pairing: int
    wins_a: int
    wins_b: int
    draws: int
    averaj_a: int  # sum of (b's total − a's total)
    outcome: Outcome

    @property
    def averaj_b(self) -> int:
        return -self.averaj_a

    @property
    def finished(self) -> bool:
        return self.outcome != Outcome.OPEN

    @property
    def decided(self) -> bool:
        return self.outcome in (Outcome.A, Outcome.B)


def pairing_result(games: Sequence[tuple[int, int]], games_per_pairing: int = 3) -> PairingResult:
    """Where a pairing stands after its finished games (lower total wins a game)."""
    if not is_int(games_per_pairing) or games_per_pairing < 1:
        raise TournamentError("games_per_pairing", "a pairing has at least one game")
    wins_a = wins_b = draws = averaj = 0
    outcome = Outcome.OPEN
    for number, game in enumerate(games, start=1):
        if outcome != Outcome.OPEN:
            raise TournamentError("game_after_end", f"game {number} comes after the pairing ended")
        if not isinstance(game, Sequence) or len(game) != 2 or not all(map(is_int, game)):
            raise TournamentError("game_totals", f"game {number} needs two whole-number totals")
        total_a, total_b = game
        averaj += total_b - total_a
        wins_a += total_a < total_b
        wins_b += total_b < total_a
        draws += total_a == total_b
        if 2 * wins_a + draws > games_per_pairing:
            outcome = Outcome.A
        elif 2 * wins_b + draws > games_per_pairing:
            outcome = Outcome.B
        elif number == games_per_pairing:
            outcome = Outcome.LEVEL
    return PairingResult(
        tuple((a, b) for a, b in games),
        games_per_pairing,
        wins_a,
        wins_b,
        draws,
        averaj,
        outcome,
    )


# --- Standings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    side: SideId
    rank: int  # 1-based, no two rows share one
    points: int
    played: int  # finished pairings
    won: int
    drawn: int
    lost: int
    games_won: int
    games_drawn: int
    games_lost: int
    averaj: int


# A side's record as it is counted up: StandingRow's columns after side and rank, by name.
RECORD = tuple(column.name for column in fields(StandingRow))[2:]


def _tally(
    sides: Iterable[SideId],
    results: Sequence[tuple[Pairing, PairingResult]],
    points: Points,
) -> dict[SideId, Counter]:
    lines = {side: Counter() for side in sides}
    for pairing, result in results:
        if not result.finished or pairing.a not in lines or pairing.b not in lines:
            continue
        sides_and_outcomes = (
            (lines[pairing.a], Outcome.A, result.wins_a, result.wins_b, result.averaj_a),
            (lines[pairing.b], Outcome.B, result.wins_b, result.wins_a, result.averaj_b),
        )
        for line, mine, games_won, games_lost, averaj in sides_and_outcomes:
            line["played"] += 1
            if result.outcome == mine:
                line["won"] += 1
                line["points"] += points.win
            elif result.outcome == Outcome.LEVEL:
                line["drawn"] += 1
                line["points"] += points.draw
            else:
                line["lost"] += 1
                line["points"] += points.loss
            line["games_won"] += games_won
            line["games_lost"] += games_lost
            line["games_drawn"] += result.draws
            line["averaj"] += averaj
    return lines


def standings(
    sides: Sequence[SideId],
    results: Iterable[tuple[Pairing, PairingResult]],
    points: Points = DEFAULT_POINTS,
) -> tuple[StandingRow, ...]:
    """A league's or a group's table from its finished pairings, tie-breaks applied."""
    listed = distinct(sides, "sides")
    given = list(results)
    known = set(listed)
    for pairing, _ in given:
        if pairing.a == pairing.b:
            raise TournamentError("same_side", "a side cannot meet itself")
        if not pairing.sides <= known:
            raise TournamentError("unknown_side", "a result names a side not in the table")
    lines = _tally(listed, given, points)

    def head_to_head(tied: frozenset[SideId]) -> dict[SideId, tuple]:
        among = [(p, r) for p, r in given if p.sides <= tied]
        return {
            side: (line["points"], line["averaj"])
            for side, line in _tally(tied, among, points).items()
        }

    overall = {side: (line["points"], line["averaj"]) for side, line in lines.items()}
    return tuple(
        StandingRow(side, rank, **{name: lines[side][name] for name in RECORD})
        for rank, side in enumerate(ordered(listed, overall, head_to_head), start=1)
    )
