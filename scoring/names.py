"""The names of things a player sees, in Turkish ("tr") and English ("en"): finish kinds,
penalty kinds, the indicator's colours. The game's words come from `scoring.vocabulary`.

Plain dicts, no gettext: the scoring package must not import Django.
"""

from __future__ import annotations

from scoring import vocabulary as v

LANGS = ("tr", "en")

# --- Finish kinds ---------------------------------------------------------------------------

FINISH_NAMES = {
    "tr": {
        "normal": "Normal bitiş",
        "kafa": "Kafa",
        "pairs": "Çiftten bitiş",
        "okey": "Okeyle bitiş",
        "okey_kafa": "Okey-kafa",
        "pairs_okey": "Çiftten okey",
        "pairs_kafa": "Çiftten kafa",
        "pairs_okey_kafa": "Çiftten okey-kafa",
        "none": "Kimse bitmedi",
    },
    "en": {
        "normal": "Normal finish",
        "kafa": "Kafa",
        "pairs": "Finish with pairs",
        "okey": "Okey finish",
        "okey_kafa": "Okey-kafa",
        "pairs_okey": "Pairs okey",
        "pairs_kafa": "Pairs kafa",
        "pairs_okey_kafa": "Pairs okey-kafa",
        "none": "Nobody finished",
    },
}

# The same, as the short reason inside a sentence: "× 2 (okeyle bitiş)".
FINISH_REASONS = {
    "tr": {
        "normal": "normal bitiş",
        "kafa": "kafa",
        "pairs": "çiftten bitiş",
        "okey": "okeyle bitiş",
        "okey_kafa": "okey-kafa",
        "pairs_okey": "çiftten okey",
        "pairs_kafa": "çiftten kafa",
        "pairs_okey_kafa": "çiftten okey-kafa",
        "none": "kimse bitmedi",
    },
    "en": {
        "normal": "normal finish",
        "kafa": "kafa",
        "pairs": "pairs finish",
        "okey": "okey finish",
        "okey_kafa": "okey-kafa",
        "pairs_okey": "pairs okey",
        "pairs_kafa": "pairs kafa",
        "pairs_okey_kafa": "pairs okey-kafa",
        "none": "nobody finished",
    },
}

# --- Penalty kinds --------------------------------------------------------------------------

PENALTY_NAMES = {
    "tr": {
        "okey_discard": "okey attı",
        "islek_discard": "işlek taş attı",
        "take_back": v.TOOK_BACK.tr,
        "failed_open": "açılış tutmadı",
        "okey_taken": v.LET_OKEY_BE_TAKEN.tr,
        "side_take_unused": "yandan alıp kullanmadı",
        "okey_from_per_unused": "perden okey alıp kullanmadı",
        "discard_used": v.DISCARD_USED.tr,
        "custom": v.CUSTOM_PENALTY.tr,
    },
    "en": {
        "okey_discard": "discarded an okey",
        "islek_discard": "discarded a playable tile",
        "take_back": v.TOOK_BACK.en,
        "failed_open": "opening fell short",
        "okey_taken": v.LET_OKEY_BE_TAKEN.en,
        "side_take_unused": "took the side tile, did not use it",
        "okey_from_per_unused": "took an okey from a meld, did not use it",
        "discard_used": v.DISCARD_USED.en,
        "custom": v.CUSTOM_PENALTY.en,
    },
}

# --- The indicator's colours (the colours house rule) ---------------------------------------

# Yellow is printed green in some sets: both are said where the colour is named, as one name
# ("sarı/yeşil 8"), never one in brackets after the other.
COLOUR_NAMES = {
    "tr": {"red": "kırmızı", "blue": "mavi", "black": "siyah", "yellow": "sarı/yeşil"},
    "en": {"red": "red", "blue": "blue", "black": "black", "yellow": "yellow/green"},
}


# The same inside a breakdown's brackets ("× 2 (sarı/yeşil)").
COLOUR_REASONS = {
    "tr": {**COLOUR_NAMES["tr"]},
    "en": {**COLOUR_NAMES["en"]},
}


def finish_name(kind: str, lang: str = "tr") -> str:
    """The finish kind's display name, e.g. "Okeyle bitiş"."""
    return FINISH_NAMES[lang][str(kind)]


def penalty_name(kind: str, lang: str = "tr") -> str:
    return PENALTY_NAMES[lang][str(kind)]


def colour_name(colour: str, lang: str = "tr") -> str:
    return COLOUR_NAMES[lang][str(colour)]
