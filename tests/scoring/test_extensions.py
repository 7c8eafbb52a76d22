"""The house-rule extensions of RULES.md: the hand-level facts, riziko, colours, last hand ×N,
elden + çift + okey, and the worked examples of ../shared/vectors/extensions.json."""

import pytest

import scoring
from scoring import parse_hand, score_json
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
