"""Rulesets stored before the house-rule extensions existed score exactly as they did.

`fixtures/stored_rulesets.json` was written by the engine of commit 909d500, before the ruleset
declaration and the extensions: the eight presets' rulesets and two house presets, each with ten
hands and what `score_json` answered then (the full result, or the error's code and field).
Never regenerate it from newer code: it is the "before" of a before-and-after comparison.
"""

import json
from pathlib import Path

import pytest

import scoring
from scoring import score_json

STORED = json.loads((Path(__file__).parent / "fixtures" / "stored_rulesets.json").read_text())
CASES = [
    (stored["name"], number, stored["rules"], case)
    for stored in STORED
    for number, case in enumerate(stored["cases"])
]


def test_the_fixture_holds_every_preset_and_two_house_presets():
    names = [stored["name"] for stored in STORED]

    assert names == [*scoring.PRESETS, "house", "house-cezasiz"]
    assert len(CASES) == 100
    assert sum("error" not in case["result"] for *_, case in CASES) >= 60


@pytest.mark.parametrize(
    ("name", "number", "rules", "case"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES]
)
def test_a_stored_ruleset_scores_as_before(name, number, rules, case):
    request = {"rules": rules, "teams": case["teams"], "hand": case["request_hand"]}

    try:
        result = score_json(request)
    except scoring.InvalidHand as error:
        result = {"error": {"code": error.code, "field": error.field}}

    assert result == case["result"]
