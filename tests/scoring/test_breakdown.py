"""The per-seat breakdown: steps that add up to the score, and the sentence the UI prints."""

import pytest

from scoring import describe_step, format_breakdown, score_json
from scoring.labels import turkish_accusative
from scoring.turkish import genitive
from tests.scoring.support import four, hand_request, load_shared

VECTORS = load_shared("vectors/public.json")


def vector(name_start):
    return next(vector for vector in VECTORS if vector["name"].startswith(name_start))


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["name"] for vector in VECTORS])
def test_the_steps_of_each_seat_add_up_to_its_score(vector):
    result = score_json(vector["request"])

    assert [sum(step["points"] for step in steps) for steps in result["breakdown"]] == result[
        "scores"
    ]


def test_the_529_sentence():
    steps = score_json(vector("pair opener with 107 left, okey finish")["request"])["breakdown"][1]

    assert (
        format_breakdown(steps)
        == "107 × 2 (çift açtı) × 2 (okeyle bitiş) + 101 (100'ü geçti) = 529"
    )
    assert (
        format_breakdown(steps, "en")
        == "107 × 2 (opened pairs) × 2 (okey finish) + 101 (over 100) = 529"
    )


def test_the_529_steps_carry_what_explains_them():
    steps = score_json(vector("pair opener with 107 left, okey finish")["request"])["breakdown"][1]

    assert steps == [
        {
            "rule": "tiles",
            "points": 428,
            "remaining": 107,
            "okeys": 0,
            "fake_okeys": 0,
            "okey_value": None,
            "okey_number": None,
            "tiles": 107,
            "pair_multiplier": 2,
            "multiplier": 2,
            "finish": "okey",
        },
        {"rule": "pair_opener_over", "points": 101, "tiles": 107, "threshold": 100},
    ]


@pytest.mark.parametrize(
    ("name_start", "seat", "sentence"),
    [
        (
            "okey left in hand of a pair opener",
            1,
            "(41 + 9 (okey)) × 2 (çift açtı) + 101 (okey kaldı) = 201",
        ),
        ("teams, kafa: winner's partner 0", 3, "404 (açamadı, kafa) ÷ 2 (kafa, eşi açtı) = 202"),
        ("teams, kafa: winner's partner 0", 2, "0 (eşi bitirdi)"),
        ("om-kademeli: an opening of 152", 0, "−101 (normal bitiş) − 101 (152 ile açtı) = −202"),
        ("om-zorlu: çifte devam", 1, "202 (açamadı, normal bitiş) × 2 (çifte devam) = 404"),
        (
            "om-zorlu: an okey discard used",
            0,
            "10 + 120 (3 × 40, attığı okey çiftte kullanıldı) = 130",
        ),
        ("işlek discard", 2, "10 + 80 (8 × 10, işlek taşı alındı) = 90"),
        ("cetele-standart normal finish", 1, "20"),
        (
            "kafadinle: an okey left",
            1,
            "(20 + 101 (okey)) × 2 (çift açtı) × 2 (okeyle bitiş) = 484",
        ),
        ("om-klasik cezalı: a real okey", 1, "30 + 101 (okey kaldı) = 131"),
    ],
)
def test_sentences_for_the_public_vectors(name_start, seat, sentence):
    steps = score_json(vector(name_start)["request"])["breakdown"][seat]

    assert format_breakdown(steps) == sentence


def test_a_custom_penalty_shows_its_note():
    event = {"kind": "custom", "points": -20, "note": "çay ısmarladı"}
    players = four({"opened": "series", "remaining": 5, "penalties": [event]})

    steps = score_json(hand_request(players))["breakdown"][1]

    assert format_breakdown(steps) == "5 − 20 (çay ısmarladı) = −15"


def test_fake_okeys_are_named_in_the_sum_and_the_penalty():
    players = four({"opened": "series", "remaining": 5, "fake_okeys": 2})

    steps = score_json(hand_request(players, okey_number=4))["breakdown"][1]

    assert format_breakdown(steps) == "5 + 2 × 4 (sahte okey) + 202 (sahte okey kaldı) = 215"


def test_the_penalty_names_what_was_left_an_okey_a_fake_okey_or_both():
    """Only a fake okey left is "sahte okey kaldı", not "okey / sahte okey kaldı"."""
    both = four({"opened": "series", "remaining": 5, "okeys": 1, "fake_okeys": 1})
    okey = four({"opened": "series", "remaining": 5, "okeys": 1})

    both_text = format_breakdown(score_json(hand_request(both, okey_number=4))["breakdown"][1])
    okey_text = format_breakdown(score_json(hand_request(okey, okey_number=4))["breakdown"][1])

    assert "(okey ve sahte okey kaldı)" in both_text
    assert "(okey kaldı)" in okey_text and "sahte" not in okey_text


@pytest.mark.parametrize(
    ("step", "text"),
    [
        (
            {"rule": "pair_opener_over", "points": 101, "tiles": 107, "threshold": 100},
            "101 (100'ü geçti)",
        ),
        (
            {
                "rule": "opening_bonus",
                "points": -202,
                "opening": 9,
                "opened": "pairs",
                "threshold": 9,
            },
            "−202 (9 çift açtı)",
        ),
        ({"rule": "cifte_devam", "points": 202, "factor": 2}, "× 2 (çifte devam)"),
        ({"rule": "winner", "points": -404, "finish": "pairs_okey"}, "−404 (çiftten okey)"),
        (
            {"rule": "penalty", "points": 101, "kind": "side_take_unused"},
            "101 (yandan alıp kullanmadı)",
        ),
    ],
)
def test_describe_step(step, text):
    assert describe_step(step) == text


@pytest.mark.parametrize(
    ("number", "written"),
    [
        (100, "100'ü"),
        (50, "50'yi"),
        (80, "80'i"),
        (9, "9'u"),
        (40, "40'ı"),
        (152, "152'yi"),
        (6, "6'yı"),
        (1000, "1000'i"),
        (200, "200'ü"),
        (0, "0'ı"),
        (60, "60'ı"),
        (73, "73'ü"),
        (110, "110'u"),
    ],
)
def test_turkish_accusative_of_a_threshold(number, written):
    assert turkish_accusative(number) == written


def test_two_fake_okeys_alone_read_as_a_calculation_with_its_result():
    # Found by the sentence property once it stopped accepting any sentence that starts with
    # the score: "2 × 1 (sahte okey)" was shown without "= 2".
    steps = score_json(
        hand_request(four({"opened": "series", "fake_okeys": 2}), rules="om-klasik", okey_number=1)
    )["breakdown"][1]

    assert format_breakdown(steps) == "2 × 1 (sahte okey) = 2"


@pytest.mark.parametrize(
    ("number", "written"),
    [
        (1, "1'in"),
        (2, "2'nin"),
        (3, "3'ün"),
        (6, "6'nın"),
        (9, "9'un"),
        (40, "40'ın"),
        (100, "100'ün"),
    ],
)
def test_the_genitive_suffix_follows_the_last_word_spoken(number, written):
    assert genitive(number) == written


EXTENSIONS = load_shared("vectors/extensions.json")


def test_a_flat_amount_for_an_opener_reads_as_one_figure_with_its_row():
    request = next(v for v in EXTENSIONS if v["name"].startswith("opened_flat with riziko"))
    steps = score_json(request["request"])["breakdown"]

    assert format_breakdown(steps[0]) == "300 (açtı, sabit, okeyle bitiş) × 2 (riziko) = 600"
    assert format_breakdown(steps[0], "en").startswith("300 (opened, flat, okey finish) × 2")
    assert [step["rule"] for step in steps[2]] == ["opened_flat", "penalty"]
