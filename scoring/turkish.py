"""Turkish grammar for text built from parts: a number's case suffix follows the last word
spoken ("100'ü", "50'yi", "80'i", "120'yi"; "oyuncu 2'nin", "3'ün").

Every place that writes a number with a suffix calls these; none spells a suffix itself.
"""

from __future__ import annotations


def accusative(number: int) -> str:
    """The number with its accusative suffix as written: 100'ü, 50'yi, 80'i, 9'u, 40'ı."""
    return f"{number}'{_ACCUSATIVE[_last_word(abs(number))]}"


def genitive(number: int) -> str:
    """The number with its genitive suffix: 1'in, 2'nin, 3'ün, 6'nın, 9'un, 40'ın, 100'ün."""
    suffix = _ACCUSATIVE[_last_word(abs(number))]
    # The same vowel as the accusative; after a vowel the buffer is "n" instead of "y".
    vowel = suffix[-1]
    return f"{number}'{'n' + vowel + 'n' if suffix.startswith('y') else vowel + 'n'}"


# The accusative suffix after the last spoken word of a number, by vowel harmony
# (and a buffer "y" after a vowel).
_ACCUSATIVE = {
    0: "ı",
    1: "i",
    2: "yi",
    3: "ü",
    4: "ü",
    5: "i",
    6: "yı",
    7: "yi",
    8: "i",
    9: "u",
    10: "u",
    20: "yi",
    30: "u",
    40: "ı",
    50: "yi",
    60: "ı",
    70: "i",
    80: "i",
    90: "ı",
    100: "ü",
    1000: "i",
    10**6: "u",
    10**9: "ı",
}


def _last_word(number: int) -> int:
    """The value of the last word spoken: 152 → 2 ("iki"), 150 → 50 ("elli"), 2000 → 1000."""
    if number == 0 or number % 10:
        return number % 10
    if number % 100:
        return number % 100
    for scale, word in ((1000, 100), (10**6, 1000), (10**9, 10**6)):
        if number % scale:
            return word
    return 10**9
