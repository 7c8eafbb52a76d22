"""Turkish grammar for text built from parts: suffixes by vowel harmony for names and numbers,
capital letters by Turkish rules."""

import pytest

from scoring import parameters
from scoring.names import PENALTY_NAMES
from scoring.turkish import (
    ABLATIVE,
    ACCUSATIVE,
    DATIVE,
    GENITIVE,
    LOCATIVE,
    capitalize,
    lower,
    reading,
    suffixed,
    upper,
)


@pytest.mark.parametrize(
    ("name", "genitive", "dative", "locative"),
    [
        ("Ayşe", "Ayşe'nin", "Ayşe'ye", "Ayşe'de"),
        ("Burak", "Burak'ın", "Burak'a", "Burak'ta"),
        ("Can", "Can'ın", "Can'a", "Can'da"),
        ("Deniz", "Deniz'in", "Deniz'e", "Deniz'de"),
        ("Oğuz", "Oğuz'un", "Oğuz'a", "Oğuz'da"),
        ("Gül", "Gül'ün", "Gül'e", "Gül'de"),
        ("Ahmet", "Ahmet'in", "Ahmet'e", "Ahmet'te"),
        ("Koray", "Koray'ın", "Koray'a", "Koray'da"),
        ("Ülkü", "Ülkü'nün", "Ülkü'ye", "Ülkü'de"),
        ("IŞIK", "IŞIK'ın", "IŞIK'a", "IŞIK'ta"),  # capital I is ı in Turkish
        ("İpek", "İpek'in", "İpek'e", "İpek'te"),
        ("Kâmil", "Kâmil'in", "Kâmil'e", "Kâmil'de"),
        ("Ali K.", "Ali K.'nin", "Ali K.'ye", "Ali K.'de"),  # read "ke"
        ("Masa 3", "Masa 3'ün", "Masa 3'e", "Masa 3'te"),  # read "üç"
    ],
)
def test_a_name_takes_its_suffix_from_its_last_vowel(name, genitive, dative, locative):
    assert suffixed(name, GENITIVE) == genitive
    assert suffixed(name, DATIVE) == dative
    assert suffixed(name, LOCATIVE) == locative


@pytest.mark.parametrize(
    ("number", "accusative", "genitive", "ablative"),
    [
        (1, "1'i", "1'in", "1'den"),
        (2, "2'yi", "2'nin", "2'den"),
        (3, "3'ü", "3'ün", "3'ten"),
        (6, "6'yı", "6'nın", "6'dan"),
        (40, "40'ı", "40'ın", "40'tan"),
        (50, "50'yi", "50'nin", "50'den"),
        (100, "100'ü", "100'ün", "100'den"),
        (1000, "1000'i", "1000'in", "1000'den"),
        (0, "0'ı", "0'ın", "0'dan"),
    ],
)
def test_a_number_takes_its_suffix_from_the_last_word_spoken(
    number, accusative, genitive, ablative
):
    assert suffixed(number, ACCUSATIVE) == accusative
    assert suffixed(number, GENITIVE) == genitive
    assert suffixed(number, ABLATIVE) == ablative


def test_a_name_with_nothing_to_read_still_gets_a_suffix():
    assert reading("🙂") == ""
    assert suffixed("🙂", GENITIVE) == "🙂'in"


@pytest.mark.parametrize(
    ("text", "lang", "capitalised"),
    [
        ("işlek taş attı", "tr", "İşlek taş attı"),
        ("ılık", "tr", "Ilık"),
        ("okey attı", "tr", "Okey attı"),
        ("indicator's colour", "en", "Indicator's colour"),
        ("sarı (yeşil)", "tr", "Sarı (yeşil)"),  # the rest untouched, unlike str.capitalize
        ("", "tr", ""),
    ],
)
def test_capitals_follow_the_languages_rules(text, lang, capitalised):
    assert capitalize(text, lang) == capitalised


def test_upper_and_lower_case_follow_turkish_rules():
    assert upper("iki ılık") == "İKİ ILIK"
    assert lower("İKİ ILIK") == "iki ılık"
    assert upper("kafa ile", "en") == "KAFA ILE"


def test_every_label_begins_with_a_turkish_capital():
    labels = [item.text("label", "tr") for item in parameters.DECLARATION]

    assert [label for label in labels if label[:1] != upper(label[:1])] == []
    assert capitalize(PENALTY_NAMES["tr"]["islek_discard"]) == "İşlek taş attı"
