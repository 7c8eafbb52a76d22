"""Names people type (players, tables, house presets): one normal form, nothing invisible.

A name is shown on every phone at the table and in the exports. Without this, a zero-width space
made an invisible player, and a right-to-left override turned the rest of a line around.
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


def joinable(char: str) -> bool:
    """A character a joiner may stand beside: anything but a space or another joiner (a
    variation selector after an emoji included)."""
    return char != " " and char not in JOINERS


def visible(char: str) -> bool:
    return unicodedata.category(char) not in NOT_VISIBLE and char not in BLANK_LETTERS


class NameField(forms.CharField):
    """A CharField for a name: cleaned as above; refused when something was typed but nothing
    visible is left (an invisible player)."""

    def to_python(self, value):
        typed = super().to_python(value)
        name = clean_name(typed)
        if typed and not any(visible(char) for char in name):
            raise ValidationError(NOTHING_VISIBLE, code="invisible")
        return name
