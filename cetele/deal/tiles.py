"""The indicator (gösterge) and the okey it makes, in words every phone shows.

RULES.md: the okey is the indicator's colour, its number + 1, and a 13 makes a 1. The hand's
facts are `okey_number` (the okey's number), `colour` (the indicator's colour) and `riziko` (the
indicator was a fake okey). A fake okey has no number of its own: at a table whose rules have
riziko the hand is riziko, and the tile turned up in its place (kept as the indicator's colour
and number) still gives the okey, which the counts need as on any other hand. At a table without
riziko a fake okey turned up is put back and another tile turned, so "sahte okey" is not offered.
"""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

NUMBERS = range(1, 14)
# The colours as a sentence names them ("Okey: kırmızı 8"); the chips' labels are the hand form's.
COLOUR_WORDS = {
    "red": _("kırmızı"),
    "blue": _("mavi"),
    "black": _("siyah"),
    "yellow": _("sarı/yeşil"),
}


def okey_of(indicator: int) -> int:
    """The okey's number for an indicator of this number: the next one, 13 making 1."""
    return indicator % 13 + 1


def indicator_of(okey_number: int) -> int:
    """The indicator's number for an okey of this number (a stored hand's, to correct it)."""
    return (okey_number - 2) % 13 + 1


def okey_words(colour: str | None, okey_number: int | None, fake: bool = False) -> str:
    """ "Okey: kırmızı 8", "Okey: 8", "Gösterge: kırmızı", with "sahte okey (riziko)" in front
    when the indicator was a fake okey; "" when nothing is known."""
    parts = []
    if fake:
        parts.append(gettext("Gösterge: sahte okey (riziko)"))
    colour_word = str(COLOUR_WORDS[colour]) if colour in COLOUR_WORDS else ""
    if okey_number is not None:
        tile = f"{colour_word} {okey_number}".strip()
        parts.append(gettext("Okey: %(tile)s") % {"tile": tile})
    elif colour_word:
        parts.append(gettext("Gösterge: %(colour)s") % {"colour": colour_word})
    return " · ".join(parts)


def hand_okey_words(inputs: dict) -> str:
    """What a stored hand's facts say of its okey (a hand saved with none says nothing)."""
    return okey_words(inputs.get("colour"), inputs.get("okey_number"), bool(inputs.get("riziko")))
