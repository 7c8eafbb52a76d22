"""Every worked example of ../shared/vectors/public.json and extensions.json (the house-rule
extensions), read from those files at test time."""

import json

import pytest

from scoring import InvalidHand, InvalidRuleset, ruleset_from_text, score_hand_json, score_json
from tests.scoring.support import load_shared

PUBLIC = load_shared("vectors/public.json")
EXTENSIONS = load_shared("vectors/extensions.json")
VECTORS = PUBLIC + EXTENSIONS


def test_the_vectors_are_there():
    assert len(PUBLIC) >= 20
    assert len(EXTENSIONS) >= 11


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["name"] for vector in VECTORS])
def test_vector(vector):
    request, expect = vector["request"], vector["expect"]

    if expect == "error":
        with pytest.raises(InvalidHand):
            score_json(request)
        return
    result = score_json(request)

    assert {key: result[key] for key in expect} == expect


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["name"] for vector in VECTORS])
def test_vector_with_its_rules_resolved_from_their_text(vector):
    """What a stored match scores with (cetele's Match.score): the rules found by their JSON
    text, the hand scored by score_hand_json. The same result, or the same refusal."""
    request = vector["request"]
    teams = request.get("teams")
    if not isinstance(teams, bool | None) or not {"rules", "hand"} <= request.keys():
        pytest.skip("a request-level error: score_hand_json takes the parts, already checked")

    def scored():
        rules = ruleset_from_text(json.dumps(request["rules"]))
        return score_hand_json(request["hand"], rules, bool(teams))

    if vector["expect"] == "error":
        with pytest.raises(InvalidHand):
            scored()
        return
    assert scored() == score_json(request)


def test_text_that_is_not_a_ruleset_is_refused_as_one():
    for text in ("{", "[]", '"no-such-preset"', '{"preset": 3}'):
        with pytest.raises(InvalidRuleset):
            ruleset_from_text(text)
