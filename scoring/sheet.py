"""The çetele: running totals and standings over a match's hands.

Pure arithmetic over hand scores that the engine already computed, so that the web app
never adds numbers itself. Lowest total wins; equal totals share a place.
"""

from dataclasses import dataclass

TEAM_SEATS = ((0, 2), (1, 3))


@dataclass(frozen=True)
class SheetRow:
    """One hand of the çetele: the hand's scores and the totals after it."""

    scores: tuple[int, ...]
    team_scores: tuple[int, ...] | None
    running: tuple[int, ...]
    team_running: tuple[int, ...] | None


@dataclass(frozen=True)
class Sheet:
    rows: tuple[SheetRow, ...]
    totals: tuple[int, ...]
    team_totals: tuple[int, ...] | None
    leaders: frozenset[int]  # seats with the lowest total (all of them on a tie)
    team_leaders: frozenset[int] | None  # team indexes (0: seats 1&3, 1: seats 2&4)
    places: tuple[int, ...]  # 1-based place per seat, ties share the place
    team_places: tuple[int, ...] | None


def team_split(scores: tuple[int, ...] | list[int]) -> tuple[int, int]:
    """A team's score is the sum of its two seats' scores."""
    return tuple(scores[a] + scores[b] for a, b in TEAM_SEATS)


def _lowest(totals: tuple[int, ...]) -> frozenset[int]:
    if not totals:
        return frozenset()
    best = min(totals)
    return frozenset(i for i, total in enumerate(totals) if total == best)


def _places(totals: tuple[int, ...]) -> tuple[int, ...]:
    # Competition ranking: 1, 1, 3 — a tie shares the better place.
    return tuple(1 + sum(other < total for other in totals) for total in totals)


def tally(hand_scores: list[list[int]] | list[tuple[int, ...]], seats: int, teams: bool) -> Sheet:
    """Running totals after each hand, final totals, leaders and places."""
    running = [0] * seats
    rows = []
    for scores in hand_scores:
        if len(scores) != seats:
            raise ValueError(f"a hand has {len(scores)} scores for {seats} seats")
        running = [total + score for total, score in zip(running, scores, strict=True)]
        rows.append(
            SheetRow(
                scores=tuple(scores),
                team_scores=team_split(scores) if teams else None,
                running=tuple(running),
                team_running=team_split(running) if teams else None,
            )
        )
    totals = tuple(running)
    team_totals = team_split(totals) if teams else None
    return Sheet(
        rows=tuple(rows),
        totals=totals,
        team_totals=team_totals,
        leaders=_lowest(totals),
        team_leaders=_lowest(team_totals) if teams else None,
        places=_places(totals),
        team_places=_places(team_totals) if teams else None,
    )
