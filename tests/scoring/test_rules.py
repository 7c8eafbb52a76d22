"""RULES.md's arithmetic, rule by rule, beyond the public vectors."""

import pytest

from scoring import (
    FinishKind,
    Hand,
    Opened,
    PenaltyEvent,
    PenaltyKind,
    SeatInput,
    finish_kind,
    ruleset_for,
    score_hand,
    score_json,
)
from tests.scoring.support import four, hand_request


def scores(request):
    return score_json(request)["scores"]


def steps_of(request, seat):
    return score_json(request)["breakdown"][seat]


# --- Finish kinds ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opened", "okey_finish", "kafa", "kind"),
    [
        (Opened.SERIES, False, False, FinishKind.NORMAL),
        (Opened.SERIES, False, True, FinishKind.KAFA),
        (Opened.PAIRS, False, False, FinishKind.PAIRS),
        (Opened.SERIES, True, False, FinishKind.OKEY),
        (Opened.SERIES, True, True, FinishKind.OKEY_KAFA),
        (Opened.PAIRS, True, False, FinishKind.PAIRS_OKEY),
        (Opened.PAIRS, False, True, FinishKind.PAIRS_KAFA),
        (Opened.PAIRS, True, True, FinishKind.PAIRS_KAFA),
    ],
)
def test_finish_kind_follows_the_table(opened, okey_finish, kafa, kind):
    hand = Hand(
        (SeatInput(opened), SeatInput(Opened.NO)), finisher=0, okey_finish=okey_finish, kafa=kafa
    )

    assert finish_kind(hand) is kind


def test_nobody_finishing_is_the_none_kind():
    hand = Hand((SeatInput(Opened.SERIES, remaining=4), SeatInput(Opened.NO)), finisher=None)

    assert finish_kind(hand) is FinishKind.NONE


# --- Okeys left in hand, in every counting mode ----------------------------------------------


@pytest.mark.parametrize(
    ("rules", "seat", "expected"),
    [
        # Çetele: face + 101 each, fake okeys too.
        ("cetele-standart", {"okeys": 2}, 30 + 2 * 9 + 2 * 101),
        ("cetele-standart", {"fake_okeys": 1}, 30 + 9 + 101),
        ("cetele-standart", {"okeys": 1, "fake_okeys": 1}, 30 + 9 + 9 + 2 * 101),
        # Okey Masters: a real okey counts 0 and costs 101; a fake okey counts its face, no penalty.
        ("om-klasik", {"okeys": 1}, 30 + 101),
        ("om-klasik", {"fake_okeys": 2}, 30 + 2 * 9),
        # KafaDinle: an okey is 101 inside the tiles, no penalty; a fake okey its face.
        ("kafadinle", {"okeys": 2}, 30 + 2 * 101),
        ("kafadinle", {"fake_okeys": 1}, 30 + 9),
        # Geleneksel: face + 101 for a real okey; a fake okey its face only.
        ("geleneksel", {"okeys": 1, "fake_okeys": 1}, 30 + 9 + 9 + 101),
    ],
)
def test_okeys_left_in_an_opened_losers_hand(rules, seat, expected):
    players = four({"opened": "series", "remaining": 30, **seat})

    assert scores(hand_request(players, rules=rules, okey_number=9))[1] == expected


def test_okeys_left_are_multiplied_inside_the_tiles_but_the_penalty_is_not():
    players = four({"opened": "series", "remaining": 30, "okeys": 1})

    result = scores(hand_request(players, rules="cetele-sert", okey_number=9, okey_finish=True))

    assert result[1] == (30 + 9) * 4 + 101


@pytest.mark.parametrize("rules", ["om-klasik", "kafadinle", "cetele-standart"])
def test_a_cezasiz_table_counts_okeys_at_face_without_a_penalty(rules):
    cezasiz = {"preset": rules, "override": {"cezali": False}}
    players = four({"opened": "series", "remaining": 30, "okeys": 1, "fake_okeys": 1})

    assert scores(hand_request(players, rules=cezasiz, okey_number=9))[1] == 30 + 9 + 9


def test_a_non_opener_pays_the_fixed_amount_whatever_is_in_hand():
    players = four({"opened": "no", "remaining": 120, "okeys": 2, "fake_okeys": 1})

    assert scores(hand_request(players, okey_number=9))[1] == 202


# --- Pair openers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("remaining", "okeys", "expected"),
    [
        (100, 0, 200),  # exactly 100 is not over 100
        (101, 0, 202 + 101),
        (92, 1, (92 + 9) * 2 + 101 + 101),  # the okey's face counts toward the threshold
    ],
)
def test_pair_opener_over_100_compares_the_raw_tiles(remaining, okeys, expected):
    players = four({"opened": "pairs", "remaining": remaining, "okeys": okeys})

    assert scores(hand_request(players, okey_number=9))[1] == expected


def test_no_over_100_rule_where_the_ruleset_has_none():
    players = four({"opened": "pairs", "remaining": 150})

    assert scores(hand_request(players, rules="om-klasik"))[1] == 300


# --- Teams -----------------------------------------------------------------------------------


def test_the_finishers_partner_writes_zero_but_keeps_their_penalties():
    partner = {"opened": "series", "remaining": 40, "penalties": [{"kind": "okey_discard"}]}
    players = [{"opened": "series"}, {"opened": "no"}, partner, {"opened": "no"}]

    result = score_json(hand_request(players, teams=True))

    assert result["scores"] == [-101, 202, 101, 202]
    assert result["team_scores"] == [0, 404]


def test_without_partner_zero_the_partner_is_an_ordinary_loser():
    rules = {"preset": "cetele-standart", "override": {"teams": {"winner_partner_zero": False}}}
    players = [
        {"opened": "series"},
        {"opened": "no"},
        {"opened": "series", "remaining": 40},
        {"opened": "no"},
    ]

    assert scores(hand_request(players, rules=rules, teams=True)) == [-101, 202, 40, 202]


def test_without_partner_zero_a_non_opening_partner_of_a_kafa_finisher_is_halved():
    rules = {"preset": "cetele-standart", "override": {"teams": {"winner_partner_zero": False}}}
    players = [{"opened": "series"}, {"opened": "no"}, {"opened": "no"}, {"opened": "no"}]

    assert scores(hand_request(players, rules=rules, teams=True, kafa=True)) == [
        -202,
        404,
        202,
        404,
    ]


def test_kafa_halving_rounds_half_up():
    rules = {"preset": "cetele-standart", "override": {"finishes": {"kafa": {"not_opened": 405}}}}
    players = [
        {"opened": "series", "remaining": 3},
        {"opened": "series"},
        {"opened": "no"},
        {"opened": "no"},
    ]

    result = scores(hand_request(players, rules=rules, teams=True, finisher=1, kafa=True))

    assert result == [3, -202, (405 + 1) // 2, 0]


def test_kafa_halving_halves_a_cifte_devam_amount():
    rules = {
        "preset": "om-zorlu",
        "override": {"teams": {"kafa_halving": True}, "kafa_requires_nobody_opened": False},
    }
    players = [
        {"opened": "series"},
        {"opened": "no", "cifte_devam": True},
        {"opened": "no"},
        {"opened": "series", "remaining": 8},
    ]

    assert scores(hand_request(players, rules=rules, teams=True, kafa=True))[1] == 404


def test_kafa_halving_only_on_kafa_kinds():
    players = [
        {"opened": "series"},
        {"opened": "no"},
        {"opened": "no"},
        {"opened": "series", "remaining": 8},
    ]

    assert scores(hand_request(players, teams=True, okey_finish=True))[1] == 404


def test_no_kafa_halving_where_the_ruleset_has_none():
    rules = {"preset": "om-klasik", "override": {"kafa_requires_nobody_opened": False}}
    players = [
        {"opened": "series"},
        {"opened": "no"},
        {"opened": "no"},
        {"opened": "series", "remaining": 8},
    ]

    assert scores(hand_request(players, rules=rules, teams=True, kafa=True))[1] == 404


# --- Opening bonus ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opened", "opening", "bonus"),
    [
        ("series", 149, 0),
        ("series", 150, -101),
        ("series", 179, -101),
        ("series", 180, -202),  # the highest tier only
        ("pairs", 6, 0),
        ("pairs", 7, -101),
        ("pairs", 9, -202),
    ],
)
def test_the_opening_bonus_tiers(opened, opening, bonus):
    players = four({"opened": opened, "remaining": 10, "opening": opening})
    base = 10 * (2 if opened == "pairs" else 1)

    assert scores(hand_request(players, rules="om-kademeli"))[1] == base + bonus


def test_the_finisher_gets_the_opening_bonus_too():
    players = [{"opened": "pairs", "opening": 9}, *four()[1:]]

    assert scores(hand_request(players, rules="om-zorlu"))[0] == -202 - 202


def test_the_opening_bonus_applies_on_a_cezasiz_table():
    rules = {"preset": "om-kademeli", "override": {"cezali": False}}
    players = [{"opened": "series", "opening": 181}, *four()[1:]]

    assert scores(hand_request(players, rules=rules))[0] == -101 - 202


def test_no_opening_bonus_without_tiers():
    players = [{"opened": "series", "opening": 200}, *four()[1:]]

    assert scores(hand_request(players))[0] == -101


# --- Penalty events --------------------------------------------------------------------------


def charged(event, rules="cetele-standart", teams=None, seat=1, **hand):
    players = four({"opened": "series", "remaining": 5, "penalties": [event]})
    return scores(hand_request(players, rules=rules, teams=teams, **hand))[seat] - 5


@pytest.mark.parametrize(
    ("event", "rules", "points"),
    [
        ({"kind": "okey_discard"}, "cetele-standart", 101),
        ({"kind": "islek_discard"}, "cetele-standart", 101),
        ({"kind": "islek_discard", "taken": False, "tile": 12}, "cetele-standart", 101),
        ({"kind": "islek_discard", "taken": True, "tile": 12}, "cetele-standart", 120),
        ({"kind": "islek_discard", "taken": True, "tile": 12}, "geleneksel", 101),
        ({"kind": "take_back"}, "om-klasik", 101),
        ({"kind": "failed_open"}, "geleneksel", 101),
        ({"kind": "okey_taken", "by": 0}, "om-klasik", 101),
        ({"kind": "side_take_unused"}, "kafadinle", 101),
        ({"kind": "okey_from_per_unused"}, "kafadinle", 101),
        ({"kind": "discard_used", "tile": 7, "used_for": "series"}, "om-zorlu", 70),
        ({"kind": "discard_used", "tile": 7, "used_for": "pairs"}, "om-zorlu", 140),
        ({"kind": "discard_used", "tile": 7, "used_for": "series", "okey": True}, "om-zorlu", 140),
        ({"kind": "discard_used", "tile": 7, "used_for": "pairs", "okey": True}, "om-zorlu", 280),
        ({"kind": "custom", "points": -77, "note": "iyi oyun"}, "om-klasik", -77),
        ({"kind": "custom", "points": 33}, "kafadinle", 33),
    ],
)
def test_each_penalty_kind_costs_what_the_ruleset_says(event, rules, points):
    assert charged(event, rules) == points


def test_an_okey_discard_used_defaults_its_tile_to_the_okey_number():
    event = {"kind": "discard_used", "used_for": "series", "okey": True}

    assert charged(event, "om-zorlu", okey_number=11) == 11 * 20


def test_okey_taken_by_the_partner_is_exempt_in_teams():
    players = [
        {"opened": "series"},
        {"opened": "series", "remaining": 5, "penalties": [{"kind": "okey_taken", "by": 3}]},
        {"opened": "no"},
        {"opened": "no"},
    ]

    result = score_json(hand_request(players, teams=True))

    assert result["scores"][1] == 5
    assert result["breakdown"][1][-1] == {
        "rule": "penalty",
        "points": 0,
        "kind": "okey_taken",
        "by": 3,
        "exempt": True,
    }


def test_okey_taken_by_an_opponent_is_charged_in_teams():
    assert charged({"kind": "okey_taken", "by": 2}, teams=True) == 101


def test_okey_taken_by_the_partner_is_charged_where_not_exempt():
    rules = {
        "preset": "cetele-standart",
        "override": {"penalties": {"okey_taken_partner_exempt": False}},
    }

    assert charged({"kind": "okey_taken", "by": 3}, rules, teams=True) == 101


def test_penalties_add_up_and_count_for_the_finisher_too():
    events = [{"kind": "okey_discard"}, {"kind": "custom", "points": 10}]
    players = [{"opened": "series", "penalties": events}, *four()[1:]]

    assert scores(hand_request(players))[0] == -101 + 101 + 10


# --- Çifte devam, nobody finished, three players ---------------------------------------------


def test_cifte_devam_doubles_the_not_opened_amount_of_any_finish():
    players = four({"opened": "no", "cifte_devam": True})

    assert scores(hand_request(players, rules="om-zorlu", okey_finish=True))[1] == 808


def test_nobody_finished_uses_the_none_row_for_everyone():
    players = [
        {"opened": "pairs", "remaining": 20},
        {"opened": "no"},
        {"opened": "series", "remaining": 7},
    ]

    assert scores(hand_request(players, rules="cetele-sert", finisher=None)) == [80, 404, 14]


def test_fourteen_tiles_om_51():
    players = [
        {"opened": "series", "opening": 51},
        {"opened": "pairs", "remaining": 60, "opening": 4},
    ]

    assert scores(hand_request(players, rules="om-51")) == [-101, 120]


# --- The typed API ---------------------------------------------------------------------------


def test_score_hand_takes_typed_input_and_agrees_with_score_json():
    hand = Hand(
        players=(
            SeatInput(Opened.SERIES),
            SeatInput(Opened.PAIRS, remaining=107),
            SeatInput(
                Opened.SERIES, remaining=10, penalties=(PenaltyEvent(PenaltyKind.OKEY_DISCARD),)
            ),
            SeatInput(Opened.NO),
        ),
        finisher=0,
        okey_finish=True,
    )

    result = score_hand(hand, ruleset_for("cetele-standart"))

    assert result.finish is FinishKind.OKEY
    assert result.scores == (-202, 529, 121, 404)
    assert result.team_scores is None
    assert [step.rule for step in result.breakdown[1]] == ["tiles", "pair_opener_over"]
