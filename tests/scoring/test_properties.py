"""Properties over generated hands and rulesets (Hypothesis)."""

import copy
import json
import re

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring import (
    InvalidHand,
    deep_merge,
    format_breakdown,
    parse_hand,
    resolve_rules,
    ruleset_for,
    score_hand,
    score_json,
    validate_ruleset,
)
from scoring.labels import MINUS
from tests.scoring.strategies import json_values, requests, rulesets
from tests.scoring.support import filled

PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def points_of(steps, rule=None, kind=None):
    return sum(
        step["points"]
        for step in steps
        if (rule is None or step["rule"] == rule) and (kind is None or step.get("kind") == kind)
    )


def shown(number):
    return f"{MINUS}{-number}" if number < 0 else str(number)


@PROPERTY
@given(requests())
def test_steps_add_up_to_each_score_and_teams_to_their_seats(request):
    result = score_json(request)

    assert json.loads(json.dumps(result)) == result
    assert [points_of(steps) for steps in result["breakdown"]] == result["scores"]
    if request["teams"]:
        scores = result["scores"]
        assert result["team_scores"] == [scores[0] + scores[2], scores[1] + scores[3]]
    else:
        assert result["team_scores"] is None


@PROPERTY
@given(requests())
def test_every_breakdown_reads_as_a_sentence_ending_in_the_score(request):
    result = score_json(request)

    for steps, score in zip(result["breakdown"], result["scores"], strict=True):
        for lang in ("tr", "en"):
            sentence = format_breakdown(steps, lang)
            # Either a calculation ending in its result, or one step: the amount (and its reason).
            one_amount = re.fullmatch(rf"{re.escape(shown(score))}( \([^()]+\))?", sentence)
            assert sentence.endswith(f" = {shown(score)}") or (len(steps) == 1 and one_amount)


@PROPERTY
@given(requests())
def test_the_typed_api_and_the_json_contract_agree(request):
    hand = parse_hand(request["hand"], request["teams"])

    assert score_hand(hand, ruleset_for(request["rules"])).to_json() == score_json(request)


@PROPERTY
@given(requests())
def test_doubling_an_opened_losers_tiles_doubles_their_base(request):
    ruleset = ruleset_for(request["rules"])
    result = score_json(request)
    for seat, steps in enumerate(result["breakdown"]):
        tiles = [step for step in steps if step["rule"] == "tiles"]
        if not tiles or tiles[0]["okeys"] or tiles[0]["fake_okeys"]:
            continue
        if 2 * tiles[0]["remaining"] > ruleset.max_remaining:
            continue
        doubled = copy.deepcopy(request)
        doubled["hand"]["players"][seat]["remaining"] *= 2

        again = score_json(doubled)["breakdown"][seat]

        assert points_of(again, "tiles") == 2 * points_of(steps, "tiles")


@PROPERTY
@given(requests(teams=st.just(True), finished=True))
def test_in_teams_the_finishers_partner_scores_only_their_penalties(request):
    finisher = request["hand"]["finisher"]
    assume(request["rules"]["teams"]["winner_partner_zero"])
    partner = (finisher + 2) % 4

    result = score_json(request)

    steps = result["breakdown"][partner]
    assert result["scores"][partner] == points_of(steps, "penalty")
    assert {step["rule"] for step in steps} <= {"partner_zero", "penalty"}


@PROPERTY
@given(requests(), st.data())
def test_the_order_of_penalty_events_never_matters(request, data):
    shuffled = copy.deepcopy(request)
    for player in shuffled["hand"]["players"]:
        player["penalties"] = data.draw(st.permutations(player["penalties"]))

    assert score_json(shuffled)["scores"] == score_json(request)["scores"]


@PROPERTY
@given(requests(rules=rulesets(cezali=False)))
def test_a_cezasiz_ruleset_never_charges_a_non_custom_penalty(request):
    result = score_json(request)

    for steps in result["breakdown"]:
        assert not any(step["rule"] == "okey_left_penalty" for step in steps)
        assert all(step["kind"] == "custom" for step in steps if step["rule"] == "penalty")


@PROPERTY
@given(
    requests(rules=rulesets(cezali=False)),
    st.sampled_from(
        ["okey_discard", "islek_discard", "take_back", "failed_open", "side_take_unused"]
    ),
)
def test_a_cezasiz_ruleset_refuses_every_non_custom_event(request, kind):
    request["hand"]["players"][-1]["penalties"].append({"kind": kind})

    try:
        score_json(request)
    except InvalidHand as error:
        assert error.code == "penalty_not_on_cezasiz"
    else:
        raise AssertionError("a non-custom penalty was accepted on a cezasız table")


@PROPERTY
@given(requests(rules=rulesets(cezali=False)), st.integers(0, 202), st.booleans())
def test_a_cezasiz_ruleset_ignores_how_okeys_left_are_counted(request, counts, fake_too):
    changed = copy.deepcopy(request)
    changed["rules"]["okey_left"] = {"counts": counts, "penalty": 999, "fake_too": fake_too}

    assert score_json(changed)["scores"] == score_json(request)["scores"]


@PROPERTY
@given(requests(), st.integers(1, 50))
def test_more_tiles_left_never_lower_a_score(request, extra):
    ruleset = ruleset_for(request["rules"])
    before = score_json(request)["scores"]
    for seat, player in enumerate(request["hand"]["players"]):
        if seat == request["hand"]["finisher"]:
            continue
        more = copy.deepcopy(request)
        grown = more["hand"]["players"][seat]
        grown["remaining"] = min(ruleset.max_remaining, player.get("remaining", 0) + extra)

        assert score_json(more)["scores"][seat] >= before[seat]


@PROPERTY
@given(requests(), st.integers(0, 255))
def test_a_non_openers_tiles_do_not_change_their_score(request, remaining):
    changed = copy.deepcopy(request)
    ruleset = ruleset_for(request["rules"])
    for player in changed["hand"]["players"]:
        if player["opened"] == "no" and "remaining" in player:
            player["remaining"] = min(remaining, ruleset.max_remaining)

    assert score_json(changed)["scores"] == score_json(request)["scores"]


@PROPERTY
@given(requests(), st.integers(1, 3))
def test_renumbering_the_seats_renumbers_the_scores(request, shift):
    seats = len(request["hand"]["players"])
    shift %= seats
    moved = copy.deepcopy(request)
    hand = moved["hand"]
    hand["players"] = (
        hand["players"][-shift:] + hand["players"][:-shift] if shift else hand["players"]
    )
    if hand["finisher"] is not None:
        hand["finisher"] = (hand["finisher"] + shift) % seats
    for player in hand["players"]:
        for event in player["penalties"]:
            if "by" in event:
                event["by"] = (event["by"] + shift) % seats

    before, after = score_json(request)["scores"], score_json(moved)["scores"]

    assert [after[(seat + shift) % seats] for seat in range(seats)] == before


@PROPERTY
@given(requests(finished=True))
def test_the_finisher_writes_the_winner_row_plus_bonus_and_penalties(request):
    finisher = request["hand"]["finisher"]

    result = score_json(request)

    steps = result["breakdown"][finisher]
    kind = result["finish"]
    assert steps[0] == {
        "rule": "winner",
        "points": request["rules"]["finishes"][kind]["winner"],
        "finish": kind,
    }
    assert {step["rule"] for step in steps[1:]} <= {"opening_bonus", "penalty"}


# --- Rulesets --------------------------------------------------------------------------------


@PROPERTY
@given(rulesets(), st.sampled_from(["cetele-standart", "om-zorlu", "kafadinle"]))
def test_a_valid_ruleset_round_trips_in_every_form(rules, slug):
    assert validate_ruleset(rules).to_json() == filled(rules)
    assert resolve_rules(rules) == filled(rules)
    assert resolve_rules(resolve_rules(rules)) == filled(rules)
    if "pairs_kafa" not in resolve_rules(slug)["finishes"]:
        assert resolve_rules({"preset": slug, "override": rules}) == filled(rules)


@PROPERTY
@given(rulesets(), rulesets())
def test_deep_merge(base, override):
    base_before, override_before = copy.deepcopy(base), copy.deepcopy(override)

    merged = deep_merge(base, override)

    assert (base, override) == (base_before, override_before)
    assert deep_merge(base, {}) == base
    assert deep_merge(base, base) == base
    assert merged["name"] == override["name"]
    assert merged["finishes"].keys() == base["finishes"].keys() | override["finishes"].keys()
    assert merged["opening_bonus"] == override["opening_bonus"]


# --- Anything else only ever raises InvalidHand ----------------------------------------------


def only_invalid_hand(call, *args):
    try:
        call(*args)
    except InvalidHand as error:
        assert error.code and error.field is not None and error.message


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_arbitrary_json_only_ever_raises_invalid_hand(value):
    only_invalid_hand(score_json, value)
    only_invalid_hand(resolve_rules, value)
    only_invalid_hand(score_json, {"rules": "om-zorlu", "hand": value})
    only_invalid_hand(score_json, {"rules": value, "hand": {"finisher": None, "players": []}})


@settings(max_examples=150, deadline=None)
@given(requests(), json_values, st.data())
def test_a_valid_request_with_any_field_replaced_only_ever_raises_invalid_hand(request, junk, data):
    target = request
    path = []
    while isinstance(target, dict | list) and target and data.draw(st.booleans()):
        key = data.draw(
            st.sampled_from(list(target) if isinstance(target, dict) else range(len(target)))
        )
        path.append(key)
        target = target[key]
    broken = copy.deepcopy(request)
    if not path:
        broken = junk
    else:
        holder = broken
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = junk

    only_invalid_hand(score_json, broken)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["cetele-standart", "om-zorlu", "kafadinle"]), json_values)
def test_any_override_only_ever_raises_invalid_hand(slug, override):
    only_invalid_hand(resolve_rules, {"preset": slug, "override": override})
