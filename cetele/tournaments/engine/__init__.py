"""A café tournament of 101 Okey: the draw, the schedule, pairings, standings and the knock-out.

Plain Python, standard library only, no Django and no I/O: the functional core the Django shell
around it (cetele.tournaments: models, views) calls; tests/scoring/test_no_django.py keeps it so.
Everything here is a pure function of its arguments: the shell stores the entrants, the draw's
seed and the game totals, and asks again whenever it needs a table, a schedule or a bracket.
Sides (a team of two, or a player) are named by stable ids (an int or a str, e.g. a database
key), never by their names.

Typed API, re-exported here from the parts that hold it (spec: the settings; schedule: the draw
and the tables; standings: pairings and tables; knockout; tek; sides: what they all share)
    TournamentSpec(kind, layout, hands_per_game, games_per_pairing, group_size, advance, points,
                   place_points, rounds, tables)            the settings, checked when built
    draw_groups(entrants, group_size, seed=None) -> (Group(name, sides), ...)
    round_robin(sides, played=()) -> (Round(number, pairings, sitting_out), ...)
    group_schedule(groups, tables=None) -> ((AtTable(GroupPairing), ...) per round)
    assign_tables(items, tables=None) -> (AtTable(item, table, wave), ...)
    pairing_result(games, games_per_pairing=3) -> PairingResult
    standings(sides, results, points=Points()) -> (StandingRow, ...)
    knockout_bracket(group_standings, advance=2) -> (KnockoutPairing, ...)    the first round
    knockout_winner(pairing, result) -> side id
    next_knockout_round(pairings, winners) -> (KnockoutPairing, ...)          () after the final
    tek_rounds(players, rounds, seed=0, played=()) -> (TekRound(number, tables, sitting_out), ...)
    tek_place_points(totals, place_points=(3, 2, 1, 0)) -> {player: Fraction}
    tek_standings(players, games, place_points=(3, 2, 1, 0), byes=()) -> (TekRow, ...)
    TournamentError(ValueError)       .code (English, stable) and an English message: the shell's
                                      forms validate what users type; this is the last guard

Words
    A *game* is N hands (hands_per_game, default 11) played by two teams (eşli) at one table, or
    by four players (tek). Lower totals win (101: the lowest total wins). A *pairing* (eşli) is
    the meeting of two teams: one game, or the best of three. Nothing here scores hands: the
    shell sums a game's hands (scoring's team_scores) and passes the game totals; the spec
    carries hands_per_game for it. A league is round_robin over all entrants, then standings;
    it has no knock-out.

Averaj
    For one game, a side's averaj is the opponent's total minus its own, so a positive averaj is
    good (lower totals win); a side's averaj is the sum over its games. A drawn game (equal
    totals) adds 0. Tek: a player's averaj at a table is the sum, over the three others, of
    (their total − own total) = the others' totals − 3 × own total; a table's averajs sum to 0.

What the issue leaves open — what this module decided
 1. Game points: a won game is 1 game point, a drawn game ½ to each side. A pairing is won by the
    side holding more than half of its games' game points (2 of 3: "üç oyundan iki oyun alan
    takım galip sayılır"; 1 of 1), and it ends as soon as a side has them, or after its last
    game. So a best of three ends after two games at 2–0, and after three games otherwise; with
    drawn games, the side that won more games wins (win, draw, draw → won), and equal wins (one
    each and a draw; three draws) make a *level* pairing. Equivalently: decided exactly when
    2 × wins + draws > games_per_pairing. A game entered after the pairing ended is refused.
 2. A level pairing is a drawn pairing in a league or a group (draw points to both). In the
    knock-out it goes to the side with the better averaj over the pairing's games, and when that
    is equal too (always so for a drawn one-game pairing) to the better seed — the side listed
    first (`a`) of a KnockoutPairing, with the smaller seed number: group winners hold seeds
    1..g, runners-up the next ones, and so on (see 9). No extra game is played; a shell that
    wants one can record the winner itself (next_knockout_round takes winners, not results).
 3. Only finished pairings count in standings; a pairing still being played counts nothing.
 4. League table points: win 2, draw 1, loss 0 by default (Points, editable; win ≥ draw ≥ loss).
    Standings order: points, then averaj, then head to head among exactly the sides still tied
    (points, then averaj, over the pairings between them only; applied again to any smaller set
    it leaves tied), then the last resort: the smaller side id first (ids are compared as ints or
    as strings, never mixed; a database key makes it "registered first"). Ranks are 1..n with
    no shared rank, and the order does not depend on the order of the arguments.
 5. Draw: the number of groups is ceil(entrants / group_size), so sizes differ by at most one.
    Without a seed the entrants' order is the seeding and they are dealt in snake order (A, B,
    …, then back …, B, A); with a seed they are first shuffled with random.Random(seed), by a
    Fisher–Yates shuffle written here on Random.random() (whose sequence Python keeps stable
    across versions, unlike shuffle's), then dealt the same way. Groups are named A, B, C, …
    (at most 26).
 6. Round robin: the circle method (the first side fixed, the others turning); an odd number of
    sides gets a bye, one side sitting out each round. The fixed side is listed first in odd
    rounds and second in even ones. With `played`, pairings already played are left out and
    the rest are packed first-fit into rounds in circle order; with nothing played this is the
    plain circle schedule.
 7. Late entrant or withdrawal before a round starts: the shell calls round_robin again with
    the entrants as they now are and the pairings already played, and replaces the rounds not
    started. A withdrawn side's unplayed pairings are removed (not forfeits: nobody gets points
    for them); its finished pairings stay in the standings, for it and for its opponents, so it
    stays in `sides` for standings. In the knock-out its opponent goes through (the shell
    passes that winner to next_knockout_round).
 8. Tables: a round's pairings (or tek tables) are numbered 1..tables in order; with more of
    them than tables, the rest play in later waves of the same round (item i → table
    i mod tables + 1, wave i div tables + 1). tables=None means as many tables as needed. A
    best of three stays at its table for all its games. group_schedule lists round k of every
    group (A's pairings, then B's, …) as the tournament's round k.
 9. Knock-out seeding: from each group its first `advance` sides (fewer if the group is
    smaller). Group winners get seeds 1..g in group order (A1, B1, …); a standard bracket
    (1 v n, …, byes to the top seeds when the number of qualifiers is not a power of two) fixes
    their places. Lower finishers are placed rank by rank, group by group, each into the free
    place of its rank where it would meet a side of its own group as late as possible (ties:
    the better seed number). Two groups give A1–B2 and B1–A2; four give group winners against
    runners-up of other groups, each group's two in opposite halves.
10. Tek: only the tek_rounds layout (four players at a table, one game each round); eşli plays
    groups or a league. Each round's tables are chosen to meet as many new opponents as
    possible: fewest pairs of players who already met, then the least repeated meetings
    (sum of squares), by greedy filling and swaps between tables, from a few shuffled starts
    drawn from random.Random(seed) — deterministic for a seed, and not guaranteed optimal for
    large fields (it is for 8 players over three rounds: everyone meets all seven others).
    When the number of players is not a multiple of four, the remainder sit out that round:
    those who sat out least, ties by the round's shuffle; a round already played counts as sat
    out for everyone not at one of its tables (a late entrant's missed rounds too). Players are
    listed at a table in the order of `players`; tables by their first player. To re-draw
    after a late entry or a withdrawal, call tek_rounds with the players as they now are and
    the rounds played: meetings and sit-outs of those rounds count.
11. Tek points: places 3/2/1/0 by default (editable, four numbers). Players with equal totals at
    a table share the points of the places they cover, averaged: two tied for second with
    (3, 2, 1, 0) get (2 + 1) / 2 = 3/2 each, hence Fractions (an int when whole). A round sat
    out scores the average of the place points (3/2 by default) and 0 averaj, and is counted
    in `byes`, not in `played`. Byes are what the shell passes (each round's sitting_out); a
    late entrant's missed rounds score nothing unless the shell passes them as byes.
12. Tek standings order: points, averaj, head to head among exactly the tied players (at each
    table where two of them sat together, the lower total counts +1 and the higher −1, equal
    totals 0, so a draw weighs the same as not having met), then the smaller player id, as in 4.
"""

from cetele.tournaments.engine.knockout import (
    KnockoutPairing,
    knockout_bracket,
    knockout_winner,
    next_knockout_round,
)
from cetele.tournaments.engine.schedule import (
    AtTable,
    Group,
    GroupPairing,
    Pairing,
    Round,
    assign_tables,
    draw_groups,
    group_schedule,
    round_robin,
)
from cetele.tournaments.engine.sides import SideId, TournamentError
from cetele.tournaments.engine.spec import (
    DEFAULT_POINTS,
    TABLE_SEATS,
    Kind,
    Layout,
    Points,
    TournamentSpec,
)
from cetele.tournaments.engine.standings import (
    RECORD,
    Outcome,
    PairingResult,
    StandingRow,
    pairing_result,
    standings,
)
from cetele.tournaments.engine.tek import (
    TekRound,
    TekRow,
    tek_place_points,
    tek_rounds,
    tek_standings,
)

__all__ = [
    "DEFAULT_POINTS",
    "RECORD",
    "TABLE_SEATS",
    "AtTable",
    "Group",
    "GroupPairing",
    "Kind",
    "KnockoutPairing",
    "Layout",
    "Outcome",
    "Pairing",
    "PairingResult",
    "Points",
    "Round",
    "SideId",
    "StandingRow",
    "TekRound",
    "TekRow",
    "TournamentError",
    "TournamentSpec",
    "assign_tables",
    "draw_groups",
    "group_schedule",
    "knockout_bracket",
    "knockout_winner",
    "next_knockout_round",
    "pairing_result",
    "round_robin",
    "standings",
    "tek_place_points",
    "tek_rounds",
    "tek_standings",
]
