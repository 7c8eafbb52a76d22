"""The house-rule extensions of RULES.md: the hand-level facts, riziko, colours, last hand ×N,
elden + çift + okey, and the worked examples of ../shared/vectors/extensions.json."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from scoring import format_breakdown, parse_hand, score_json
from tests.scoring.strategies import requests
from tests.scoring.support import four, hand_request


def error_of(request) -> tuple[str, str]:
    with pytest.raises(scoring.InvalidHand) as caught:
        score_json(request)
    return caught.value.code, caught.value.field


# --- The hand-level facts: always accepted -----------------------------------------------------


def test_a_hand_carries_riziko_colour_and_last_hand():
    hand = parse_hand(
        {"finisher": 0, "riziko": True, "colour": "blue", "last_hand": True, "players": four()}
    )

    assert (hand.riziko, hand.colour, hand.last_hand) == (True, "blue", True)


def test_the_hand_level_facts_default_to_off():
    hand = parse_hand({"finisher": 0, "players": four()})

    assert (hand.riziko, hand.colour, hand.last_hand) == (False, None, False)


def test_the_facts_change_no_score_where_the_ruleset_lacks_the_rule():
    plain = score_json(hand_request(four({"opened": "series", "remaining": 30})))
    flagged = score_json(
        hand_request(
            four({"opened": "series", "remaining": 30}), riziko=True, colour="red", last_hand=True
        )
    )

    assert flagged == plain


@pytest.mark.parametrize(
    ("facts", "code", "field"),
    [
        ({"colour": "green"}, "invalid_choice", "hand.colour"),
        ({"colour": 1}, "invalid_choice", "hand.colour"),
        ({"riziko": "yes"}, "wrong_type", "hand.riziko"),
        ({"last_hand": 1}, "wrong_type", "hand.last_hand"),
    ],
)
def test_a_malformed_fact_is_refused_naming_its_field(facts, code, field):
    assert error_of(hand_request(four(), **facts)) == (code, field)


# --- The rules ---------------------------------------------------------------------------------

COLOURS = {"multipliers": {"red": 5, "blue": 4, "black": 3, "yellow": 2}, "scope": "finish"}


def house(**override):
    return {"preset": "cetele-standart", "override": override}


def sentences(request, lang="tr") -> list[str]:
    return [format_breakdown(steps, lang) for steps in score_json(request)["breakdown"]]


def test_each_multiplication_is_named_in_the_breakdown():
    request = hand_request(
        [{"opened": "series"}, {"opened": "series", "remaining": 9}, {"opened": "no"}],
        rules=house(riziko={"multiplier": 2}, colours=COLOURS, last_hand_multiplier=10),
        riziko=True,
        colour="yellow",
        last_hand=True,
    )

    assert sentences(request) == [
        "−101 (normal bitiş) × 2 (riziko) × 2 (sarı/yeşil) × 10 (son el) = −4040",
        "9 × 2 (riziko) × 2 (sarı/yeşil) × 10 (son el) = 360",
        "202 (açamadı, normal bitiş) × 2 (riziko) × 2 (sarı/yeşil) × 10 (son el) = 8080",
    ]
    assert sentences(request, "en")[0] == (
        "−101 (normal finish) × 2 (riziko) × 2 (yellow/green) × 10 (last hand) = −4040"
    )


def test_a_whole_score_multiplier_brackets_what_it_multiplies():
    request = hand_request(
        four({"opened": "series", "remaining": 20, "penalties": [{"kind": "okey_discard"}]}),
        rules=house(colours={**COLOURS, "scope": "all"}),
        colour="red",
    )

    assert sentences(request)[1] == "(20 + 101 (okey attı)) × 5 (kırmızı) = 605"
    assert score_json(request)["breakdown"][1][-1] == {
        "rule": "colour",
        "points": 121 * 4,
        "colour": "red",
        "factor": 5,
    }


def test_riziko_multiplies_the_row_and_cifte_devam_and_kafa_halving_apply_on_top():
    rules = {
        "preset": "om-zorlu",  # kafa −202 / ×2 / 404, çifte devam ×2
        "override": {
            "riziko": {"multiplier": 3},
            "teams": {"kafa_halving": True},
            "kafa_requires_nobody_opened": False,
        },
    }
    players = [
        {"opened": "series"},
        {"opened": "no", "cifte_devam": True},
        {"opened": "no"},
        {"opened": "pairs", "remaining": 10},  # seat 1's partner opened: seat 1 is halved
    ]
    request = hand_request(players, rules=rules, teams=True, kafa=True, riziko=True)

    result = score_json(request)

    # −202 × 3; (404 × 3) × 2 ÷ 2; the partner writes 0; 10 × 2 (pairs) × (2 × 3).
    assert result["scores"] == [-606, 1212, 0, 120]
    assert format_breakdown(result["breakdown"][1]) == (
        "404 (açamadı, kafa) × 3 (riziko) × 2 (çifte devam) ÷ 2 (kafa, eşi açtı) = 1212"
    )


def test_colour_is_required_when_the_rules_count_colours():
    request = hand_request(four(), rules=house(colours=COLOURS))

    assert error_of(request) == ("colour_required", "hand.colour")


def test_the_colour_of_a_hand_is_accepted_and_ignored_without_the_rule():
    assert score_json(hand_request(four(), colour="black"))["scores"] == [-101, 202, 202, 202]


def test_elden_cift_okey_falls_back_to_pairs_kafa_without_its_row():
    rules = house(
        finishes={"pairs_kafa": {"winner": -404, "opened_multiplier": 2, "not_opened": 808}}
    )
    players = [{"opened": "pairs"}, {"opened": "series", "remaining": 10}, {"opened": "no"}]

    result = score_json(hand_request(players, rules=rules, kafa=True, okey_finish=True))

    assert result["finish"] == "pairs_kafa"
    assert result["scores"] == [-404, 20, 808]


@pytest.mark.parametrize(
    ("override", "code", "field"),
    [
        ({"riziko": {"multiplier": 0}}, "out_of_range", "rules.riziko.multiplier"),
        ({"riziko": {}}, "missing_field", "rules.riziko.multiplier"),
        ({"riziko": 2}, "wrong_type", "rules.riziko"),
        ({"last_hand_multiplier": 101}, "out_of_range", "rules.last_hand_multiplier"),
        (
            {"colours": {**COLOURS, "scope": "half"}},
            "invalid_choice",
            "rules.colours.scope",
        ),
        (
            {"colours": {"multipliers": {"red": 5, "blue": 4, "black": 3}, "scope": "all"}},
            "missing_field",
            "rules.colours.multipliers.yellow",
        ),
        (
            {
                "finishes": {
                    "pairs_okey_kafa": {"winner": -8, "opened_multiplier": 8, "not_opened": 8}
                }
            },
            "pairs_okey_kafa_without_pairs_kafa",
            "rules.finishes.pairs_okey_kafa",
        ),
    ],
)
def test_a_bad_extension_is_an_invalid_ruleset_naming_its_path(override, code, field):
    with pytest.raises(scoring.InvalidRuleset) as caught:
        score_json(hand_request(four(), rules=house(**override)))

    assert (caught.value.code, caught.value.field) == (code, field)
    assert isinstance(caught.value, scoring.InvalidHand)  # RULES.md's contract still holds


def test_a_hands_mistake_is_not_an_invalid_ruleset():
    with pytest.raises(scoring.InvalidHand) as caught:
        score_json(hand_request(four({"opened": "series", "remaining": 999})))

    assert not isinstance(caught.value, scoring.InvalidRuleset)


def test_messages_are_rendered_in_the_language_asked():
    with pytest.raises(scoring.InvalidRuleset) as caught:
        score_json(hand_request(four(), rules=house(riziko={"multiplier": 0})))
    error = caught.value

    assert error.message_in("tr") == "Riziko katı: 1 ile 100 arasında olmalı."
    assert error.message_in("en") == "Riziko multiplier: must be from 1 to 100."
    assert error.message == error.message_in("tr")
    assert error.to_json() == {
        "code": "out_of_range",
        "field": "rules.riziko.multiplier",
        "message": "Riziko katı: 1 ile 100 arasında olmalı.",
    }


@pytest.mark.parametrize(("rules", "most"), [("om-klasik", 10), ("om-51", 7)])
def test_a_pairs_opening_leaves_a_tile_in_hand(rules, most):
    def opening(pairs):
        return hand_request(
            four({"opened": "pairs", "remaining": 4, "opening": pairs}), rules=rules
        )

    score_json(opening(most))  # accepted
    assert error_of(opening(most + 1)) == ("opening_above_max", "hand.players[1].opening")


@pytest.mark.parametrize("points", [100_001, -100_001])
def test_the_engine_bounds_a_custom_penalty(points):
    seat = {"opened": "no", "penalties": [{"kind": "custom", "points": points}]}

    assert error_of(hand_request(four(seat))) == (
        "out_of_range",
        "hand.players[1].penalties[0].points",
    )


# --- Properties ----------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests(), st.sampled_from(["red", "blue", "black", "yellow"]), st.integers(1, 10))
def test_colours_on_everything_and_the_last_hand_multiply_every_seats_score(request, colour, n):
    plain = score_json(request)
    multipliers = {"red": 5, "blue": 4, "black": 3, "yellow": 2}
    house_rules = scoring.deep_merge(
        request["rules"],
        {"colours": {"multipliers": multipliers, "scope": "all"}, "last_hand_multiplier": n},
    )
    hand = {**request["hand"], "colour": colour, "last_hand": True}

    result = score_json({**request, "rules": house_rules, "hand": hand})

    assert result["scores"] == [score * multipliers[colour] * n for score in plain["scores"]]
    assert [sum(s["points"] for s in steps) for steps in result["breakdown"]] == result["scores"]
    for steps in result["breakdown"]:
        assert [step["rule"] for step in steps[-2:]] == ["colour", "last_hand"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests(), st.integers(1, 5))
def test_riziko_off_for_the_hand_changes_nothing_and_on_never_lowers_a_loser(request, k):
    plain = score_json(request)
    rules = scoring.deep_merge(request["rules"], {"riziko": {"multiplier": k}})

    calm = score_json({**request, "rules": rules, "hand": {**request["hand"], "riziko": False}})
    risky = score_json({**request, "rules": rules, "hand": {**request["hand"], "riziko": True}})

    assert calm == plain
    finisher = request["hand"]["finisher"]
    for seat, (before, after) in enumerate(zip(plain["scores"], risky["scores"], strict=True)):
        if seat != finisher and plain["breakdown"][seat][0]["rule"] != "partner_zero":
            assert after >= before  # a loser's row figures only grow; flat amounts stay
