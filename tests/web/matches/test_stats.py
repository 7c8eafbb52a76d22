"""The statistics (cetele.matches.stats) against hand-made matches whose numbers were worked
out by hand.

The table: Ali (place 0), Ayşe (1), Can (2), Deniz (3), and Ece (4), who never played.

Match A, singles, seats Ali, Ayşe, Can, finished after 2 hands:
    hand 1: -101, 40, 202    Ali finished (normal)
    hand 2:   30, -202, 404  Ayşe finished (okey)
    totals -71, -162, 606 → Ayşe 1st, Ali 2nd, Can 3rd.
Match B, singles, seats Can, Ali, Ayşe, finished after 2 hands:
    hand 1: -202, 10, 404    Can finished (pairs)
    hand 2:   50, -404, 808  Ali finished (okey + kafa)
    totals -152, -394, 1212 → Ali 1st, Can 2nd, Ayşe 3rd.
Match C, teams, seats Ali, Ayşe, Can, Deniz (Ali & Can against Ayşe & Deniz), 1 hand:
    hand 1: -101, 30, 0, 202  Ali finished (normal)
    teams -101 and 232 → Ali & Can win; Ayşe & Deniz 2nd.
Match D, singles, seats Deniz, Ali, 1 hand of 3 (not finished):
    hand 1: -101, 20          Deniz finished (kafa)
"""

import pytest

from cetele.matches.stats import (
    PlayedHand,
    PlayedMatch,
    biggest_hand,
    finish_traits,
    match_summary,
    most_finishes,
    table_stats,
)

H = PlayedHand
PLAYERS = {0: "Ali", 1: "Ayşe", 2: "Can", 3: "Deniz", 4: "Ece"}
MATCH_A = PlayedMatch(
    (0, 1, 2), False, 2, (H((-101, 40, 202), 0, "normal"), H((30, -202, 404), 1, "okey"))
)
MATCH_B = PlayedMatch(
    (2, 0, 1), False, 2, (H((-202, 10, 404), 0, "pairs"), H((50, -404, 808), 1, "okey_kafa"))
)
MATCH_C = PlayedMatch((0, 1, 2, 3), True, 1, (H((-101, 30, 0, 202), 0, "normal"),))
MATCH_D = PlayedMatch((3, 0), False, 3, (H((-101, 20), 0, "kafa"),))
TABLE = [MATCH_A, MATCH_B, MATCH_C, MATCH_D]


@pytest.fixture(scope="module")
def stats():
    return table_stats(PLAYERS, TABLE)


def record(stats, name):
    return next(r for r in stats.records if r.name == name)


@pytest.mark.parametrize(
    ("kind", "traits"),
    [
        ("normal", ("normal",)),
        ("kafa", ("kafa",)),
        ("pairs", ("pairs",)),
        ("okey", ("okey",)),
        ("okey_kafa", ("okey", "kafa")),
        ("pairs_okey", ("okey", "pairs")),
        ("pairs_okey_kafa", ("okey", "pairs", "kafa")),
        ("none", ()),
    ],
)
def test_a_finish_counts_under_each_of_its_traits(kind, traits):
    assert finish_traits(kind) == traits


@pytest.mark.parametrize(
    ("name", "played", "won", "average_place"),
    [("Ali", 3, 2, 1.33), ("Ayşe", 3, 1, 2.0), ("Can", 3, 1, 2.0), ("Deniz", 1, 0, 2.0)],
)
def test_matches_played_and_won_count_finished_matches_and_teams_win_together(
    stats, name, played, won, average_place
):
    player = record(stats, name)

    assert (player.played, player.won, player.average_place) == (played, won, average_place)


@pytest.mark.parametrize(
    ("name", "hands", "points", "average", "best", "worst"),
    [
        ("Ali", 6, -546, -91.0, -404, 30),  # -101 + 30 + 10 - 404 - 101 + 20
        ("Ayşe", 5, 1080, 216.0, -202, 808),  # 40 - 202 + 404 + 808 + 30
        ("Can", 5, 454, 90.8, -202, 404),  # 202 + 404 - 202 + 50 + 0
        ("Deniz", 2, 101, 50.5, -101, 202),  # 202 - 101 (the unfinished match counts)
    ],
)
def test_hand_statistics_count_every_hand_played(stats, name, hands, points, average, best, worst):
    player = record(stats, name)

    assert (player.hands, player.points, player.average) == (hands, points, average)
    assert (player.best, player.worst) == (best, worst)


@pytest.mark.parametrize(
    ("name", "counts"),
    [
        ("Ali", {"all": 3, "normal": 2, "okey": 1, "pairs": 0, "kafa": 1}),
        ("Ayşe", {"all": 1, "normal": 0, "okey": 1, "pairs": 0, "kafa": 0}),
        ("Can", {"all": 1, "normal": 0, "okey": 0, "pairs": 1, "kafa": 0}),
        ("Deniz", {"all": 1, "normal": 0, "okey": 0, "pairs": 0, "kafa": 1}),
    ],
)
def test_finishes_are_counted_by_kind(stats, name, counts):
    player = record(stats, name)

    assert {trait: player.finishes[trait] for trait in counts} == counts


def test_a_player_who_never_played_has_an_empty_record_and_no_standing(stats):
    ece = record(stats, "Ece")

    assert (ece.played, ece.hands, ece.average, ece.best) == (0, 0, None, None)
    assert "Ece" not in [standing.record.name for standing in stats.standings]


def test_standings_rank_wins_then_average_place_then_average_per_hand(stats):
    # Ayşe and Can: one win each, average place 2.0; Can's 90.8 a hand beats Ayşe's 216.0.
    assert [(s.rank, s.record.name) for s in stats.standings] == [
        (1, "Ali"),
        (2, "Can"),
        (3, "Ayşe"),
        (4, "Deniz"),
    ]


@pytest.mark.parametrize(
    ("player", "opponent", "ahead", "behind", "level"),
    [
        (0, 1, 2, 1, 0),  # Ali v Ayşe: behind in A, ahead in B and C (teams)
        (1, 0, 1, 2, 0),
        (0, 2, 2, 0, 0),  # Ali v Can: A and B; partners in C do not meet
        (1, 2, 1, 2, 0),  # Ayşe v Can: ahead in A, behind in B and C
        (0, 3, 1, 0, 0),  # Ali v Deniz: only C (D is not finished)
        (2, 3, 1, 0, 0),
    ],
)
def test_head_to_head_counts_opponents_in_finished_matches(
    stats, player, opponent, ahead, behind, level
):
    meeting = stats.meeting(player, opponent)

    assert (meeting.ahead, meeting.behind, meeting.level) == (ahead, behind, level)


def test_partners_never_meet_head_to_head(stats):
    assert stats.meeting(1, 3) is None  # Ayşe and Deniz only ever played as partners
    assert stats.meeting(0, 4) is None  # Ece never played


def test_a_tie_is_a_win_for_both_and_level_head_to_head():
    tied = PlayedMatch((0, 1), False, 1, (H((-101, -101), None, "none"),))

    stats = table_stats({0: "Ali", 1: "Ayşe"}, [tied])

    assert [r.won for r in stats.records] == [1, 1]
    assert stats.meeting(0, 1).level == 1
    assert [s.rank for s in stats.standings] == [1, 1]


def test_the_summary_names_the_winner_the_totals_by_place_and_the_biggest_hand():
    summary = match_summary(["Can", "Ali", "Ayşe"], False, list(MATCH_B.hands), MATCH_B.sheet)

    assert summary.winners == (1,)
    assert [summary.sides[side] for side in summary.order] == ["Ali", "Can", "Ayşe"]
    assert [summary.totals[side] for side in summary.order] == [-394, -152, 1212]
    # Hand 2's scores lie 808 - (-404) = 1212 apart, hand 1's 404 - (-202) = 606.
    biggest = summary.biggest
    assert (biggest.position, biggest.finish, biggest.finisher) == (2, "okey_kafa", 1)
    assert (biggest.top_seat, biggest.top_score, biggest.spread) == (2, 808, 1212)
    # Can and Ali finished once each.
    assert (summary.top_finishers, summary.top_finishes) == ((0, 1), 1)


def test_the_summary_of_a_team_match_speaks_of_teams():
    summary = match_summary(
        ["Ali", "Ayşe", "Can", "Deniz"], True, list(MATCH_C.hands), MATCH_C.sheet
    )

    assert summary.sides == ("Ali & Can", "Ayşe & Deniz")
    assert summary.winners == (0,)
    assert summary.totals == (-101, 232)


def test_the_biggest_hand_on_a_tie_is_the_earliest_and_nobody_finishing_counts_nobody():
    hands = [H((10, -10), None, "none"), H((-10, 10), None, "none")]

    assert biggest_hand(hands).position == 1
    assert most_finishes(hands) == ((), 0)
    assert biggest_hand([]) is None
