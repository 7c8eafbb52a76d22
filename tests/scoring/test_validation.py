"""RULES.md, "Validation": one test per rule, each asserting the error's code and field."""

import pytest

from scoring import InvalidHand, resolve_rules, score_json
from scoring.labels import ERRORS
from tests.scoring.support import four, hand_request

CEZASIZ = {"preset": "cetele-standart", "override": {"cezali": False}}
WITH_PAIRS_KAFA = {
    "preset": "cetele-standart",
    "override": {
        "finishes": {"pairs_kafa": {"winner": -404, "opened_multiplier": 2, "not_opened": 808}}
    },
}


def rejected(request) -> InvalidHand:
    with pytest.raises(InvalidHand) as caught:
        score_json(request)
    return caught.value


def assert_rejected(request, code, field):
    error = rejected(request)

    assert (error.code, error.field) == (code, field)
    assert error.message and error.message_en and error.message != error.message_en
    assert error.to_json() == {"code": code, "field": field, "message": error.message}


# --- The request's shape ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_", "code", "field"),
    [
        ([1, 2], "wrong_type", "request"),
        ({"hand": {}}, "missing_field", "rules"),
        ({"rules": "om-klasik"}, "missing_field", "hand"),
        ({**hand_request(four()), "colour": "red"}, "unknown_field", "colour"),
        ({**hand_request(four()), "teams": "yes"}, "wrong_type", "teams"),
        ({"rules": "om-klasik", "hand": []}, "wrong_type", "hand"),
        ({"rules": "om-klasik", "hand": {"players": four()}}, "missing_field", "hand.finisher"),
        (hand_request(four(), speed=3), "unknown_field", "hand.speed"),
        (
            {"rules": "om-klasik", "hand": {"finisher": 0, "players": {}}},
            "wrong_type",
            "hand.players",
        ),
        (hand_request(four({"remaining": 3})), "missing_field", "hand.players[1].opened"),
        (hand_request(four({"opened": "yes"})), "invalid_choice", "hand.players[1].opened"),
        (
            hand_request(four({"opened": "series", "remainig": 3})),
            "unknown_field",
            "hand.players[1].remainig",
        ),
        (
            hand_request(four({"opened": "series", "remaining": 2.0})),
            "wrong_type",
            "hand.players[1].remaining",
        ),
        (
            hand_request(four({"opened": "series", "remaining": True})),
            "wrong_type",
            "hand.players[1].remaining",
        ),
        (hand_request(four(), okey_finish=1), "wrong_type", "hand.okey_finish"),
        (hand_request(four(), finisher="0"), "wrong_type", "hand.finisher"),
        (hand_request(four(), finisher=True), "wrong_type", "hand.finisher"),
        (
            hand_request(four({"opened": "series", "penalties": {}})),
            "wrong_type",
            "hand.players[1].penalties",
        ),
    ],
)
def test_a_malformed_request_names_the_field(request_, code, field):
    assert_rejected(request_, code, field)


# --- Seats, teams, finisher ------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 5])
def test_seats_are_two_to_four(count):
    assert_rejected(hand_request([{"opened": "series"}] * count), "seat_count", "hand.players")


@pytest.mark.parametrize("count", [2, 3])
def test_teams_need_exactly_four_seats(count):
    players = [{"opened": "series"}] + [{"opened": "no"}] * (count - 1)

    assert_rejected(hand_request(players, teams=True), "teams_need_four", "teams")


@pytest.mark.parametrize("count", [2, 3, 4])
def test_singles_take_two_to_four_seats(count):
    players = [{"opened": "series"}] + [{"opened": "no"}] * (count - 1)

    assert len(score_json(hand_request(players))["scores"]) == count


@pytest.mark.parametrize("finisher", [4, -1, 99])
def test_finisher_is_a_seat_or_null(finisher):
    assert_rejected(hand_request(four(), finisher=finisher), "finisher_not_a_seat", "hand.finisher")


def test_finisher_must_have_opened():
    assert_rejected(hand_request(four(), finisher=3), "finisher_not_opened", "hand.finisher")


@pytest.mark.parametrize("attribute", ["remaining", "okeys", "fake_okeys"])
def test_finisher_holds_no_tiles_or_okeys(attribute):
    players = [{"opened": "series", attribute: 1}, *four()[1:]]

    assert_rejected(
        hand_request(players, okey_number=5),
        "finisher_holds_tiles",
        f"hand.players[0].{attribute}",
    )


@pytest.mark.parametrize("flag", ["okey_finish", "kafa"])
def test_okey_finish_and_kafa_need_a_finisher(flag):
    assert_rejected(
        hand_request(four(), finisher=None, **{flag: True}), "needs_finisher", f"hand.{flag}"
    )


def test_pairs_kafa_needs_a_pairs_kafa_row():
    players = [{"opened": "pairs"}, *four()[1:]]

    assert_rejected(hand_request(players, kafa=True), "pairs_kafa_not_allowed", "hand.kafa")


def test_pairs_kafa_is_scored_where_the_ruleset_defines_it():
    players = [{"opened": "pairs"}, {"opened": "series", "remaining": 10}, *four()[2:]]

    result = score_json(hand_request(players, rules=WITH_PAIRS_KAFA, kafa=True, okey_finish=True))

    assert result["finish"] == "pairs_kafa"
    assert result["scores"] == [-404, 20, 808, 808]


def test_kafa_when_another_seat_opened_is_refused_where_nobody_may_have_opened():
    players = four({"opened": "no"}, {"opened": "series", "remaining": 4})

    assert_rejected(
        hand_request(players, rules="om-klasik", kafa=True), "kafa_others_opened", "hand.kafa"
    )


def test_kafa_when_another_seat_opened_is_fine_on_cetele():
    players = four({"opened": "no"}, {"opened": "series", "remaining": 4})

    assert score_json(hand_request(players, kafa=True))["scores"] == [-202, 404, 4, 404]


# --- Tiles and okeys -------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "too_many"), [("cetele-standart", 256), ("om-51", 177)])
def test_remaining_is_at_most_what_the_dealt_tiles_can_hold(rules, too_many):
    players = four({"opened": "series", "remaining": too_many})

    assert_rejected(
        hand_request(players, rules=rules), "remaining_out_of_range", "hand.players[1].remaining"
    )


@pytest.mark.parametrize(("rules", "most"), [("cetele-standart", 255), ("om-51", 176)])
def test_remaining_may_reach_the_most_the_dealt_tiles_hold(rules, most):
    players = four({"opened": "series", "remaining": most})

    assert score_json(hand_request(players, rules=rules))["scores"][1] == most


def test_remaining_is_not_negative():
    players = four({"opened": "series", "remaining": -1})

    assert_rejected(hand_request(players), "remaining_out_of_range", "hand.players[1].remaining")


@pytest.mark.parametrize("attribute", ["okeys", "fake_okeys"])
@pytest.mark.parametrize("count", [-1, 3])
def test_okeys_and_fake_okeys_are_zero_to_two_each(attribute, count):
    players = four({"opened": "series", "remaining": 5, attribute: count})

    assert_rejected(
        hand_request(players, okey_number=4), "okeys_out_of_range", f"hand.players[1].{attribute}"
    )


@pytest.mark.parametrize("attribute", ["okeys", "fake_okeys"])
def test_at_most_two_of_each_okey_in_the_whole_hand(attribute):
    players = four(
        {"opened": "series", "remaining": 5, attribute: 2},
        {"opened": "no", attribute: 1},
    )

    assert_rejected(
        hand_request(players, okey_number=4), "too_many_okeys", f"hand.players[2].{attribute}"
    )


@pytest.mark.parametrize("number", [0, 14])
def test_okey_number_is_one_to_thirteen(number):
    assert_rejected(
        hand_request(four(), okey_number=number), "okey_number_out_of_range", "hand.okey_number"
    )


@pytest.mark.parametrize(
    ("rules", "seat"),
    [
        ("cetele-standart", {"opened": "series", "remaining": 5, "okeys": 1}),  # counts its face
        ("om-klasik", {"opened": "series", "remaining": 5, "fake_okeys": 1}),  # fake okeys: face
        (CEZASIZ, {"opened": "series", "remaining": 5, "okeys": 1}),  # cezasız counts the face
        ({"preset": "om-klasik", "override": {"cezali": False}}, {"opened": "pairs", "okeys": 1}),
    ],
)
def test_okey_number_is_required_when_a_count_needs_it(rules, seat):
    assert_rejected(
        hand_request(four(seat), rules=rules), "okey_number_required", "hand.okey_number"
    )


def test_okey_number_is_required_for_an_okey_discard_used_without_a_tile():
    event = {"kind": "discard_used", "used_for": "series", "okey": True}
    players = four({"opened": "series", "remaining": 5, "penalties": [event]})

    assert_rejected(
        hand_request(players, rules="om-zorlu"), "okey_number_required", "hand.okey_number"
    )


@pytest.mark.parametrize(
    ("rules", "seat", "score"),
    [
        # a real okey counts 0, plus the 101 penalty
        ("om-klasik", {"opened": "series", "remaining": 30, "okeys": 1}, 30 + 101),
        ("kafadinle", {"opened": "series", "remaining": 30, "okeys": 1}, 30 + 101),  # 101 inside
        ("cetele-standart", {"opened": "no", "okeys": 1, "fake_okeys": 1}, 202),  # not counted
    ],
)
def test_okey_number_is_not_needed_when_no_count_uses_it(rules, seat, score):
    result = score_json(hand_request(four(seat), rules=rules))

    assert result["scores"][1] == score


@pytest.mark.parametrize(
    ("seat", "kafa", "okey_finish"),
    [
        ({"opened": "series", "remaining": 30, "fake_okeys": 1}, True, False),
        ({"opened": "pairs", "remaining": 120, "okeys": 1}, True, False),
        ({"opened": "series", "okeys": 1, "fake_okeys": 1}, False, True),
    ],
)
def test_okey_number_is_not_needed_on_a_row_with_a_flat_amount_for_openers(seat, kafa, okey_finish):
    """On an opened_flat row an opened loser's okeys are never counted: nothing asks the okey."""
    flat = {"finishes": {"kafa": {"opened_flat": 800}, "okey": {"opened_flat": 300}}}
    rules = {"preset": "cetele-standart", "override": flat}
    request = hand_request(four(seat), rules=rules, kafa=kafa, okey_finish=okey_finish)

    assert score_json(request)["scores"][1] == (800 if kafa else 300)


def test_okey_number_is_still_needed_on_the_other_rows_of_an_opened_flat_ruleset():
    rules = {"preset": "cetele-standart", "override": {"finishes": {"kafa": {"opened_flat": 800}}}}
    players = four({"opened": "series", "remaining": 30, "fake_okeys": 1})

    assert_rejected(hand_request(players, rules=rules), "okey_number_required", "hand.okey_number")


def test_okey_number_is_not_needed_for_the_zero_partner():
    players = four({"opened": "no"}, {"opened": "series", "remaining": 9, "fake_okeys": 1})

    assert score_json(hand_request(players, teams=True))["scores"][2] == 0


# --- Çifte devam and openings ----------------------------------------------------------------


def test_cifte_devam_only_where_the_ruleset_has_a_factor():
    players = four({"opened": "no", "cifte_devam": True})

    assert_rejected(
        hand_request(players), "cifte_devam_not_in_ruleset", "hand.players[1].cifte_devam"
    )


def test_cifte_devam_never_with_a_series_opening():
    players = four({"opened": "series", "remaining": 3, "cifte_devam": True})

    assert_rejected(
        hand_request(players, rules="om-zorlu"),
        "cifte_devam_with_series",
        "hand.players[1].cifte_devam",
    )


def test_cifte_devam_with_a_pairs_opening_is_allowed_and_changes_nothing():
    declared = four({"opened": "pairs", "remaining": 3, "cifte_devam": True})
    silent = four({"opened": "pairs", "remaining": 3})

    assert (
        score_json(hand_request(declared, rules="om-zorlu"))["scores"]
        == score_json(hand_request(silent, rules="om-zorlu"))["scores"]
    )


@pytest.mark.parametrize(
    ("rules", "seat"),
    [
        ("cetele-standart", {"opened": "series", "remaining": 3, "opening": 100}),
        ("cetele-standart", {"opened": "pairs", "remaining": 3, "opening": 4}),
        ("om-51", {"opened": "series", "remaining": 3, "opening": 50}),
        ("om-51", {"opened": "pairs", "remaining": 3, "opening": 3}),
    ],
)
def test_opening_is_at_least_the_opening_base(rules, seat):
    assert_rejected(
        hand_request(four(seat), rules=rules), "opening_below_base", "hand.players[1].opening"
    )


def test_opening_only_for_a_seat_that_opened():
    players = four({"opened": "no", "opening": 120})

    assert_rejected(hand_request(players), "opening_not_opened", "hand.players[1].opening")


@pytest.mark.parametrize(("rules", "pairs"), [("om-kademeli", 12), ("om-51", 8)])
def test_a_pairs_opening_cannot_exceed_the_pairs_the_tiles_hold(rules, pairs):
    players = four({"opened": "pairs", "remaining": 3, "opening": pairs})

    assert_rejected(
        hand_request(players, rules=rules), "opening_above_max", "hand.players[1].opening"
    )


# --- Penalty events --------------------------------------------------------------------------


def penalised(event, rules="cetele-standart", teams=None):
    players = four({"opened": "series", "remaining": 5, "penalties": [event]})
    return hand_request(players, rules=rules, teams=teams, okey_number=7)


EVENT = "hand.players[1].penalties[0]"


@pytest.mark.parametrize(
    ("event", "rules", "code", "field"),
    [
        ({"kind": "okey_swallowed"}, "cetele-standart", "unknown_penalty_kind", f"{EVENT}.kind"),
        ({"tile": 3}, "cetele-standart", "missing_field", f"{EVENT}.kind"),
        ({"kind": 3}, "cetele-standart", "wrong_type", f"{EVENT}.kind"),
        ("okey_discard", "cetele-standart", "wrong_type", EVENT),
        ({"kind": "okey_discard", "tile": 3}, "cetele-standart", "unknown_field", f"{EVENT}.tile"),
        ({"kind": "take_back"}, "cetele-standart", "penalty_disabled", f"{EVENT}.kind"),
        ({"kind": "failed_open"}, "om-klasik", "penalty_disabled", f"{EVENT}.kind"),
        ({"kind": "okey_discard"}, "kafadinle", "penalty_disabled", f"{EVENT}.kind"),
        (
            {"kind": "discard_used", "tile": 3, "used_for": "series"},
            "om-kademeli",
            "penalty_disabled",
            f"{EVENT}.kind",
        ),
        ({"kind": "okey_discard"}, CEZASIZ, "penalty_not_on_cezasiz", f"{EVENT}.kind"),
        (
            {"kind": "discard_used", "tile": 3, "used_for": "series"},
            {"preset": "om-zorlu", "override": {"cezali": False}},
            "penalty_not_on_cezasiz",
            f"{EVENT}.kind",
        ),
        (
            {"kind": "islek_discard", "taken": True, "tile": 14},
            "cetele-standart",
            "tile_out_of_range",
            f"{EVENT}.tile",
        ),
        (
            {"kind": "islek_discard", "taken": True, "tile": 0},
            "cetele-standart",
            "tile_out_of_range",
            f"{EVENT}.tile",
        ),
        (
            {"kind": "discard_used", "tile": 14, "used_for": "pairs"},
            "om-zorlu",
            "tile_out_of_range",
            f"{EVENT}.tile",
        ),
        (
            {"kind": "islek_discard", "taken": True},
            "cetele-standart",
            "tile_required",
            f"{EVENT}.tile",
        ),
        (
            {"kind": "discard_used", "used_for": "pairs"},
            "om-zorlu",
            "tile_required",
            f"{EVENT}.tile",
        ),
        ({"kind": "discard_used", "tile": 3}, "om-zorlu", "missing_field", f"{EVENT}.used_for"),
        (
            {"kind": "discard_used", "tile": 3, "used_for": "runs"},
            "om-zorlu",
            "invalid_choice",
            f"{EVENT}.used_for",
        ),
        ({"kind": "okey_taken"}, "cetele-standart", "missing_field", f"{EVENT}.by"),
        ({"kind": "okey_taken", "by": 4}, "cetele-standart", "by_not_a_seat", f"{EVENT}.by"),
        ({"kind": "okey_taken", "by": -1}, "cetele-standart", "by_not_a_seat", f"{EVENT}.by"),
        ({"kind": "okey_taken", "by": 1}, "cetele-standart", "by_self", f"{EVENT}.by"),
        ({"kind": "custom"}, "cetele-standart", "missing_field", f"{EVENT}.points"),
        ({"kind": "custom", "points": "5"}, "cetele-standart", "wrong_type", f"{EVENT}.points"),
        (
            {"kind": "custom", "points": 5, "note": 5},
            "cetele-standart",
            "wrong_type",
            f"{EVENT}.note",
        ),
        (
            {"kind": "islek_discard", "taken": "yes"},
            "cetele-standart",
            "wrong_type",
            f"{EVENT}.taken",
        ),
    ],
)
def test_a_penalty_event_must_be_known_enabled_and_complete(event, rules, code, field):
    assert_rejected(penalised(event, rules), code, field)


def test_a_custom_penalty_is_allowed_on_a_cezasiz_table():
    event = {"kind": "custom", "points": -50, "note": "ev kuralı"}

    assert score_json(penalised(event, CEZASIZ))["scores"][1] == 5 - 50


def test_an_islek_discard_taken_where_no_factor_is_set_costs_the_flat_amount():
    event = {"kind": "islek_discard", "taken": True}

    assert score_json(penalised(event, "om-klasik"))["scores"][1] == 5 + 101


# --- Rulesets --------------------------------------------------------------------------------


def standart_with(**changes):
    rules = resolve_rules("cetele-standart")
    rules.update(changes)
    return rules


def without(path):
    rules = resolve_rules("cetele-standart")
    *parents, last = path
    target = rules
    for key in parents:
        target = target[key]
    del target[last]
    return rules


@pytest.mark.parametrize(
    ("spec", "code", "field"),
    [
        (3, "wrong_type", "rules"),
        ("cetele-yumusak", "unknown_preset", "rules"),
        ({"preset": "nope"}, "unknown_preset", "rules.preset"),
        ({"preset": 3}, "wrong_type", "rules.preset"),
        ({"preset": "om-klasik", "override": []}, "wrong_type", "rules.override"),
        ({"preset": "om-klasik", "extra": {}}, "unknown_field", "rules.extra"),
        (standart_with(colour="red"), "unknown_field", "rules.colour"),
        (without(["finishes", "okey"]), "missing_field", "rules.finishes.okey"),
        (
            without(["finishes", "none", "not_opened"]),
            "missing_field",
            "rules.finishes.none.not_opened",
        ),
        (without(["teams"]), "missing_field", "rules.teams"),
        (
            {"preset": "om-klasik", "override": {"finishes": {"okey": {"winner": "-202"}}}},
            "wrong_type",
            "rules.finishes.okey.winner",
        ),
        (
            {"preset": "om-klasik", "override": {"finishes": {"okey": {"winner": 202}}}},
            "out_of_range",
            "rules.finishes.okey.winner",
        ),
        (
            {"preset": "om-klasik", "override": {"finishes": {"okey": {"opened_multiplier": -2}}}},
            "out_of_range",
            "rules.finishes.okey.opened_multiplier",
        ),
        (
            {"preset": "om-klasik", "override": {"finishes": {"none": {"winner": -101}}}},
            "unknown_field",
            "rules.finishes.none.winner",
        ),
        (
            {"preset": "om-klasik", "override": {"finishes": {"elden": {}}}},
            "unknown_field",
            "rules.finishes.elden",
        ),
        (
            {"preset": "om-klasik", "override": {"pair_opener_multiplier": 0}},
            "out_of_range",
            "rules.pair_opener_multiplier",
        ),
        ({"preset": "om-klasik", "override": {"cezali": "true"}}, "wrong_type", "rules.cezali"),
        ({"preset": "om-klasik", "override": {"cezali": None}}, "wrong_type", "rules.cezali"),
        ({"preset": "om-klasik", "override": {"name": "  "}}, "empty_value", "rules.name"),
        (
            {"preset": "om-klasik", "override": {"tiles_dealt": 20}},
            "invalid_choice",
            "rules.tiles_dealt",
        ),
        ({"preset": "om-klasik", "override": {"hands": []}}, "empty_value", "rules.hands"),
        (
            {"preset": "om-klasik", "override": {"hands": [1, 2]}},
            "invalid_choice",
            "rules.hands[1]",
        ),
        (
            {"preset": "om-klasik", "override": {"hands": [3, 3]}},
            "duplicate_value",
            "rules.hands[1]",
        ),
        (
            {"preset": "om-klasik", "override": {"okey_left": {"counts": "half"}}},
            "invalid_choice",
            "rules.okey_left.counts",
        ),
        (
            {"preset": "om-klasik", "override": {"okey_left": {"counts": -1}}},
            "out_of_range",
            "rules.okey_left.counts",
        ),
        (
            {"preset": "om-klasik", "override": {"penalties": {"take_back": -101}}},
            "out_of_range",
            "rules.penalties.take_back",
        ),
        (
            {"preset": "om-klasik", "override": {"penalties": {"islek_taken_factor": 0}}},
            "out_of_range",
            "rules.penalties.islek_taken_factor",
        ),
        (
            {"preset": "om-klasik", "override": {"discard_used": {"series": 10}}},
            "missing_field",
            "rules.discard_used.pairs",
        ),
        (
            {"preset": "om-klasik", "override": {"pair_opener_over": {"threshold": 100}}},
            "missing_field",
            "rules.pair_opener_over.penalty",
        ),
        (
            {"preset": "om-klasik", "override": {"cifte_devam_factor": -2}},
            "out_of_range",
            "rules.cifte_devam_factor",
        ),
        (
            {"preset": "om-kademeli", "override": {"opening_bonus": [{"series": 150, "pairs": 7}]}},
            "missing_field",
            "rules.opening_bonus[0].points",
        ),
        (
            {
                "preset": "om-kademeli",
                "override": {
                    "opening_bonus": [
                        {"series": 180, "pairs": 9, "points": -202},
                        {"series": 150, "pairs": 7, "points": -101},
                    ]
                },
            },
            "tiers_not_increasing",
            "rules.opening_bonus[1]",
        ),
        (
            {"preset": "om-kademeli", "override": {"opening": {"raising": "always"}}},
            "invalid_choice",
            "rules.opening.raising",
        ),
        (
            {"preset": "om-kademeli", "override": {"teams": {"kafa_halving": 1}}},
            "wrong_type",
            "rules.teams.kafa_halving",
        ),
    ],
)
def test_a_custom_ruleset_is_refused_with_a_clear_error(spec, code, field):
    with pytest.raises(InvalidHand) as caught:
        resolve_rules(spec)

    assert (caught.value.code, caught.value.field) == (code, field)
    assert_rejected(hand_request(four(), rules=spec), code, field)


def test_an_override_may_replace_a_null_section_with_a_complete_one():
    used = {"series": 5, "pairs": 10, "okey_series": 10, "okey_pairs": 20}

    rules = resolve_rules({"preset": "om-klasik", "override": {"discard_used": used}})

    assert rules["discard_used"] == used


# --- Messages --------------------------------------------------------------------------------


def test_every_error_code_has_a_turkish_and_an_english_message():
    assert ERRORS["tr"].keys() == ERRORS["en"].keys()


def test_messages_name_seats_one_based_and_speak_turkish():
    players = four({"opened": "series", "remaining": 300})

    error = rejected(hand_request(players))

    assert error.field == "hand.players[1].remaining"
    assert error.message == (
        "Oyuncu 2: kalan taş toplamı 0 ile 255 arasında bir tam sayı olmalı "
        "(21 taşla en fazla 255 olur)."
    )
    assert error.message_en.startswith("Player 2: tiles left must be an integer from 0 to 255")


def test_a_generic_type_error_names_the_field_in_words():
    players = four({"opened": "series", "remaining": "12"})

    error = rejected(hand_request(players))

    assert error.message == "Oyuncu 2, kalan taş toplamı: bir tam sayı olmalı."
