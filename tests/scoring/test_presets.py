"""The eight built-in presets: exactly presets.json, named and described for players."""

import pytest

from scoring import PRESETS, resolve_rules, validate_ruleset
from tests.scoring.support import filled, load_shared

SHARED_PRESETS = load_shared("presets.json")
TURKISH_LETTERS = set("çğıöşüÇĞİÖŞÜ")


def test_presets_equal_the_shared_presets_json_in_order():
    ours = [{"slug": preset.slug, "rules": preset.rules} for preset in PRESETS.values()]

    assert ours == SHARED_PRESETS


def test_there_are_the_eight_presets_of_rules_md():
    assert list(PRESETS) == [
        "cetele-standart",
        "cetele-sert",
        "om-klasik",
        "om-kademeli",
        "om-zorlu",
        "om-51",
        "kafadinle",
        "geleneksel",
    ]


@pytest.mark.parametrize("slug", list(PRESETS))
def test_each_preset_has_a_turkish_name_and_description(slug):
    preset = PRESETS[slug]

    assert preset.slug == slug
    assert preset.name_tr.strip() and preset.name_en.strip()
    assert len(preset.description_tr) > 60 and len(preset.description_en) > 60
    assert preset.description_tr != preset.description_en
    assert TURKISH_LETTERS & set(preset.description_tr)


@pytest.mark.parametrize("slug", list(PRESETS))
def test_each_preset_is_a_valid_ruleset_that_round_trips(slug):
    rules = PRESETS[slug].rules

    ruleset = validate_ruleset(rules)

    assert ruleset.to_json() == filled(rules)
    assert resolve_rules(slug) == filled(rules)
    assert (ruleset.riziko, ruleset.colours, ruleset.last_hand_multiplier) == (None, None, None)


def test_preset_rules_are_a_copy_so_editing_them_changes_no_preset():
    rules = PRESETS["om-klasik"].rules

    rules["finishes"]["normal"]["winner"] = -1
    rules["hands"].append(15)

    assert PRESETS["om-klasik"].rules["finishes"]["normal"]["winner"] == -101
    assert resolve_rules("om-klasik")["hands"] == [1, 3, 5, 7, 9, 11, 13]


@pytest.mark.parametrize(
    ("slug", "kind", "row"),
    [
        (
            "cetele-standart",
            "okey_kafa",
            {"winner": -404, "opened_multiplier": 2, "not_opened": 808},
        ),
        ("cetele-sert", "none", {"opened_multiplier": 2, "not_opened": 404}),
        ("cetele-sert", "pairs_okey", {"winner": -404, "opened_multiplier": 8, "not_opened": 1616}),
        ("om-zorlu", "kafa", {"winner": -202, "opened_multiplier": 2, "not_opened": 404}),
        ("geleneksel", "okey_kafa", {"winner": -404, "opened_multiplier": 4, "not_opened": 808}),
    ],
)
def test_finish_tables_carry_rules_md_figures(slug, kind, row):
    assert PRESETS[slug].rules["finishes"][kind] == row


def test_no_built_in_preset_has_a_pairs_kafa_row():
    assert all("pairs_kafa" not in preset.rules["finishes"] for preset in PRESETS.values())
