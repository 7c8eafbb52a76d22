"""Text people type (names of players, tables, tea items, presets, tournaments and teams; notes,
reasons, descriptions): one normal form, nothing invisible.

Typed text is shown on every phone at the table, in the history, on the café's screen and in the
exports. Without this, a zero-width space made an invisible player, and a right-to-left override
turned the rest of a line around. Every form field a person types into is one of the fields
below (tests/web/shell/test_free_text.py walks every form to check it).
"""

import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Zero-width joiners join visible characters (emoji sequences, Persian and Indic scripts): kept
# between two of them, dropped elsewhere. Every other format character (bidi overrides and
# isolates, zero-width spaces, the byte-order mark, soft hyphens) goes.
JOINERS = {"\u200c", "\u200d"}
# Letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern).
BLANK_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
DROPPED = {"Cc", "Cf", "Cs"}
SPACES = {"Zs", "Zl", "Zp"}
# What cannot stand alone as something to see: marks, spaces, joiners.
NOT_VISIBLE = {"Mn", "Me", "Cc", "Cf", "Cs", *SPACES}

NOTHING_VISIBLE = _("Bu adda görünen bir harf yok.")


def clean_name(value: str) -> str:
    """`value` in Unicode NFC, without control and format characters (joiners only between two
    visible characters), every kind of space as one plain space, trimmed."""
    kept = []
    for char in unicodedata.normalize("NFC", value):
        category = unicodedata.category(char)
        if category in SPACES or char in "\t\n\r":
            kept.append(" ")
        elif char in BLANK_LETTERS or (category in DROPPED and char not in JOINERS):
            continue
        else:
            kept.append(char)
    kept = [
        char
        for index, char in enumerate(kept)
        if char not in JOINERS
        or (0 < index < len(kept) - 1 and joinable(kept[index - 1]) and joinable(kept[index + 1]))
    ]
    return " ".join("".join(kept).split())


def name_key(name: str) -> str:
    """What two names must not share to tell two players apart: letter case aside, the Turkish
    way (I/ı, İ/i)."""
    return name.strip().replace("I", "ı").replace("İ", "i").casefold()


def joinable(char: str) -> bool:
    """A character a joiner may stand beside: anything but a space or another joiner (a
    variation selector after an emoji included)."""
    return char != " " and char not in JOINERS


def visible(char: str) -> bool:
    return unicodedata.category(char) not in NOT_VISIBLE and char not in BLANK_LETTERS


def shows_something(text: str) -> bool:
    return any(visible(char) for char in text)


def clean_lines(value: str) -> str:
    """Text of several lines (a description, a list of entrants): each line as clean_name
    cleans one, the line breaks kept (one kind: "\n"), the empty lines at either end dropped."""
    return "\n".join(clean_name(line) for line in value.splitlines()).strip("\n")


class TextField(forms.CharField):
    """A CharField for one line of free text (a note, a reason): cleaned as a name is; what
    shows nothing is nothing typed (empty: "required" when it must be given)."""

    def to_python(self, value):
        text = clean_name(super().to_python(value))
        return text if shows_something(text) else ""


class LinesField(forms.CharField):
    """A CharField for text of several lines (a Textarea): each line cleaned as a name is."""

    def to_python(self, value):
        text = clean_lines(super().to_python(value))
        return text if shows_something(text) else ""


class NameField(TextField):
    """A TextField for a name: refused when something was typed but nothing visible is left (an
    invisible player)."""

    def to_python(self, value):
        typed = forms.CharField.to_python(self, value)
        name = clean_name(typed)
        if typed and not shows_something(name):
            raise ValidationError(NOTHING_VISIBLE, code="invisible")
        return name
