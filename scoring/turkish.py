"""Turkish grammar for text built from parts.

A case suffix follows the vowels of the last word spoken: "100'ü", "50'yi", "80'i", "120'yi";
"Ayşe'nin", "Burak'ın", "Can'a", "Ali K.'nin". Numbers are read aloud for it (150 → "elli"),
abbreviations letter by letter (K → "ke"). Every place that writes a number or a name with a
suffix calls `suffixed` (or `accusative` / `genitive`); none spells a suffix itself.

`capitalize` makes a sentence's first letter a capital by the language's own rules: Turkish
"i" → "İ" and "ı" → "I", where Python's str.upper() and str.capitalize() would give "I" and
lowercase the rest.
"""

from __future__ import annotations

import re
import unicodedata

# --- Case suffixes ----------------------------------------------------------------------------

ACCUSATIVE, GENITIVE, DATIVE, LOCATIVE, ABLATIVE = "acc", "gen", "dat", "loc", "abl"
_BACK_VOWELS = "aıou"
_FRONT_VOWELS = "eiöü"
_VOICELESS = "fstkçşhp"  # "fıstıkçı şahap": after these d → t (Can'da, Ahmet'te)

# The word spoken for the last part of a number.
_NUMBER_WORDS = {
    0: "sıfır",
    1: "bir",
    2: "iki",
    3: "üç",
    4: "dört",
    5: "beş",
    6: "altı",
    7: "yedi",
    8: "sekiz",
    9: "dokuz",
    10: "on",
    20: "yirmi",
    30: "otuz",
    40: "kırk",
    50: "elli",
    60: "altmış",
    70: "yetmiş",
    80: "seksen",
    90: "doksan",
    100: "yüz",
    1000: "bin",
    10**6: "milyon",
    10**9: "milyar",
}
# How a letter is read out in an abbreviation ("Ali K." → "Ali ke"; TDK's letter names).
_LETTER_NAMES = {
    "a": "a",
    "b": "be",
    "c": "ce",
    "ç": "çe",
    "d": "de",
    "e": "e",
    "f": "fe",
    "g": "ge",
    "ğ": "yumuşak ge",
    "h": "he",
    "ı": "ı",
    "i": "i",
    "j": "je",
    "k": "ke",
    "l": "le",
    "m": "me",
    "n": "ne",
    "o": "o",
    "ö": "ö",
    "p": "pe",
    "q": "kü",
    "r": "re",
    "s": "se",
    "ş": "şe",
    "t": "te",
    "u": "u",
    "ü": "ü",
    "v": "ve",
    "w": "çift ve",
    "x": "iks",
    "y": "ye",
    "z": "ze",
}
_TRAILING_NUMBER = re.compile(r"(\d+)\W*$")


def suffixed(word: str | int, case: str) -> str:
    """The word (a name or a number) with a case suffix after an apostrophe, by vowel harmony:
    suffixed("Ayşe", GENITIVE) == "Ayşe'nin", suffixed(50, ACCUSATIVE) == "50'yi"."""
    return f"{word}'{suffix(reading(word), case)}"


def accusative(number: int) -> str:
    """The number with its accusative suffix as written: 100'ü, 50'yi, 80'i, 9'u, 40'ı."""
    return suffixed(number, ACCUSATIVE)


def genitive(word: str | int) -> str:
    """The genitive: 1'in, 2'nin, 3'ün, 6'nın, 9'un, 40'ın, 100'ün; Can'ın, Ayşe'nin."""
    return suffixed(word, GENITIVE)


def dative(word: str | int) -> str:
    return suffixed(word, DATIVE)


def suffix(spoken: str, case: str) -> str:
    """The suffix a spoken (lower-case Turkish) word takes in `case`, without the apostrophe."""
    vowels = [letter for letter in spoken if letter in _BACK_VOWELS + _FRONT_VOWELS]
    last = vowels[-1] if vowels else "e"  # no vowel to follow: the front, unrounded form
    ends_in_vowel = bool(spoken) and spoken[-1] in _BACK_VOWELS + _FRONT_VOWELS
    two = "a" if last in _BACK_VOWELS else "e"
    four = {"a": "ı", "ı": "ı", "o": "u", "u": "u", "e": "i", "i": "i", "ö": "ü", "ü": "ü"}[last]
    hard = bool(spoken) and spoken[-1] in _VOICELESS
    if case == ACCUSATIVE:
        return ("y" if ends_in_vowel else "") + four
    if case == GENITIVE:
        return ("n" if ends_in_vowel else "") + four + "n"
    if case == DATIVE:
        return ("y" if ends_in_vowel else "") + two
    if case == LOCATIVE:
        return ("t" if hard else "d") + two
    if case == ABLATIVE:
        return ("t" if hard else "d") + two + "n"
    raise ValueError(f"unknown case {case!r}")


def reading(word: str | int) -> str:
    """The last word as it is spoken, in lower case: 150 → "elli", "Ali K." → "ke",
    "Deniz" → "deniz", "Oyuncu 3" → "üç"; "" when there is nothing to read (an emoji)."""
    if isinstance(word, int):
        return _number_word(abs(word))
    text = str(word).strip()
    number = _TRAILING_NUMBER.search(text)
    if number and not re.search(r"[^\W\d_]\W*$", text):
        return _number_word(int(number[1]))
    last = re.findall(r"[^\W\d_]+", text)
    if not last:
        return ""
    letters = last[-1]
    plain = _plain(lower(letters))
    abbreviated = text.endswith(".") and len(letters) <= 2
    spelled = len(letters) > 1 and letters.isupper() and not _has_vowel(plain)
    if abbreviated or spelled or not _has_vowel(plain):
        return " ".join(_LETTER_NAMES.get(letter, "") for letter in plain).strip()
    return plain


def _number_word(number: int) -> str:
    """The last word spoken: 152 → "iki", 150 → "elli", 2000 → "bin", 0 → "sıfır"."""
    if number == 0 or number % 10:
        return _NUMBER_WORDS[number % 10]
    if number % 100:
        return _NUMBER_WORDS[number % 100]
    for scale, word in ((1000, 100), (10**6, 1000), (10**9, 10**6)):
        if number % scale:
            return _NUMBER_WORDS[word]
    return _NUMBER_WORDS[10**9]


def _has_vowel(text: str) -> bool:
    return any(letter in _BACK_VOWELS + _FRONT_VOWELS for letter in text)


def _plain(text: str) -> str:
    """Letters outside the Turkish alphabet as their nearest Turkish vowel or consonant:
    "â" → "a", "é" → "e", "ø" stays unread; ö, ü, ç, ş, ğ, ı are kept."""
    kept = set("çğıöşü")
    out = []
    for letter in text:
        if letter in kept:
            out.append(letter)
            continue
        base = unicodedata.normalize("NFD", letter)[0]
        out.append(base if base.isascii() else letter)
    return "".join(out)


# --- Capital letters --------------------------------------------------------------------------


def lower(text: str, lang: str = "tr") -> str:
    """Lower case by the language's rules: Turkish "I" → "ı", "İ" → "i"."""
    if lang == "tr":
        text = text.replace("I", "ı").replace("İ", "i")
    return text.lower()


def upper(text: str, lang: str = "tr") -> str:
    """Upper case by the language's rules: Turkish "i" → "İ", "ı" → "I"."""
    if lang == "tr":
        text = text.replace("i", "İ").replace("ı", "I")
    return text.upper()


def capitalize(text: str, lang: str = "tr") -> str:
    """The first letter a capital, the rest untouched: "işlek taş" → "İşlek taş",
    "ılık" → "Ilık"; English "indicator" → "Indicator"."""
    return upper(text[:1], lang) + text[1:]
