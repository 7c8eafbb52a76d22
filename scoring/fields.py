"""Where an error is and who it is about, in words: a request's field path ("hand.players[2].
penalties[0].tile") said as "Oyuncu 3, 1. ceza, taşın sayısı" for the JSON contract and the
command line, or "Can, 1. ceza, taşın sayısı" on a page, where players are named by name; a
ruleset path said by the declaration's own label (`scoring.parameters`).

Apart from the sentences (`scoring.messages`) because it is a job of its own: it knows the
request's shape and the declaration, the sentences know neither.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scoring import parameters
from scoring import vocabulary as v
from scoring.turkish import capitalize, genitive

# --- The JSON contract's words (command line, score_json) -------------------------------------

TYPE_NAMES = {
    "tr": {
        "integer": "bir tam sayı",
        "boolean": "true ya da false",
        "string": "bir metin",
        "list": "bir liste",
        "object": "bir nesne ({...})",
        "seat_or_null": "bir oyuncu numarası ya da null",
        "ruleset": "bir hazır kural adı ya da bir kural nesnesi",
    },
    "en": {
        "integer": "an integer",
        "boolean": "true or false",
        "string": "a string",
        "list": "a list",
        "object": "an object ({...})",
        "seat_or_null": "a player number or null",
        "ruleset": "a preset name or a ruleset object",
    },
}

# On a page a wrong type is something to do, not a JSON type.
PAGE_TYPE_NAMES = {
    "tr": {
        "integer": "bir tam sayı yazın",
        "boolean": "işaretleyin ya da boş bırakın",
        "string": "bir yazı yazın",
        "list": "listeden seçin",
        "object": "listeden seçin",
        "seat_or_null": "bir oyuncu seçin",
        "ruleset": "listeden bir kural seçin",
    },
    "en": {
        "integer": "enter a whole number",
        "boolean": "tick it or leave it empty",
        "string": "type some text",
        "list": "choose from the list",
        "object": "choose from the list",
        "seat_or_null": "choose a player",
        "ruleset": "choose rules from the list",
    },
}

FIELD_NAMES = {
    "tr": {
        "request": "İstek",
        "hand": "El",
        "rules": "Kurallar",
        "teams": "Eşli oyun",
        "preset": "Hazır kural",
        "override": "Kural değişiklikleri",
        "players": "oyuncular",
        "finisher": "bitiren",
        "okey_finish": "okeyle bitiş",
        "kafa": "kafa (elden)",
        "okey_number": "okey taşının sayısı",
        "riziko": "riziko",
        "colour": "göstergenin rengi",
        "last_hand": "son el",
        "opened": "açılış",
        "remaining": "kalan taş toplamı",
        "okeys": "eldeki okey sayısı",
        "fake_okeys": "eldeki sahte okey sayısı",
        "opening": "açılış değeri",
        "cifte_devam": "çifte devam",
        "penalties": "cezalar",
        "kind": "ceza türü",
        "tile": "taşın sayısı",
        "taken": "sonraki oyuncu aldı mı",
        "by": "okeyi kimin aldığı",
        "used_for": "nerede kullanıldığı",
        "okey": "okey mi",
        "points": "puan",
        "note": "not",
    },
    "en": {
        "request": "Request",
        "hand": "Hand",
        "rules": "Rules",
        "teams": "Teams",
        "preset": "Preset",
        "override": "Rule changes",
        "players": "players",
        "finisher": "finisher",
        "okey_finish": "okey finish",
        "kafa": "kafa",
        "okey_number": "okey number",
        "riziko": "riziko",
        "colour": "indicator's colour",
        "last_hand": "last hand",
        "opened": "opened",
        "remaining": "tiles left",
        "okeys": "okeys left",
        "fake_okeys": "fake okeys left",
        "opening": "opening value",
        "cifte_devam": "çifte devam",
        "penalties": "penalties",
        "kind": "penalty kind",
        "tile": "tile number",
        "taken": "taken by the next player",
        "by": "who took the okey",
        "used_for": "where it was used",
        "okey": "okey",
        "points": "points",
        "note": "note",
    },
}

# A seat in the contract's words: "oyuncu 3" (capitalised where it starts a sentence).
_SEAT = {"tr": "oyuncu {n}", "en": "player {n}"}
_PENALTY = {"tr": "{n}. ceza", "en": "penalty {n}"}
_RULE_WORDS = {"tr": "Kural “{path}”", "en": "Rule “{path}”"}
_THIS_RULE = {"tr": "Bu kural", "en": "This rule"}
_SEGMENT = re.compile(r"^(\w+)\[(\d+)\]$")


class Names:
    """Who a message speaks of: a player's name on a page, "oyuncu 3" in the contract."""

    def __init__(self, lang: str, names: Sequence[str] | None) -> None:
        self.lang = lang
        self.names = list(names) if names is not None else None

    @property
    def page(self) -> bool:
        return self.names is not None

    def who(self, seat: int) -> str:
        """Seat `seat` (1-based) as the message names it."""
        if self.names is not None and 1 <= seat <= len(self.names):
            return self.names[seat - 1]
        return _SEAT[self.lang].format(n=seat)

    def whose(self, seat: int) -> str:
        """The genitive: "Can'ın", "oyuncu 3'ün"; English "Can's", "player 3's"."""
        who = self.who(seat)
        return f"{who}'s" if self.lang == "en" else genitive(who)

    def everyone(self) -> str:
        """Every player, as a choice: "Ayşe, Burak ya da Can"."""
        names = self.names or []
        if len(names) < 2:
            return "".join(names)
        return f"{', '.join(names[:-1])} {v.OR[self.lang]} {names[-1]}"


def human_field(
    field: str, lang: str = "tr", names: Sequence[str] | None = None, *, page: bool = False
) -> str:
    """ "hand.players[2].penalties[0].tile" → "Oyuncu 3, 1. ceza, taşın sayısı" (contract) or
    "Can, 1. ceza, taşın sayısı" (a page, with the players' names)."""
    return where_in_words(field, lang, Names(lang, names if names is not None or not page else ()))


def where_in_words(field: str, lang: str, who: Names) -> str:
    """A field path said for `who`'s audience: the sentences pass the `Names` they hold."""
    words = FIELD_NAMES[lang]
    if field == "rules" or field.startswith("rules."):
        path = field.removeprefix("rules").removeprefix(".")
        if path in ("", "preset", "override") or path.startswith("override."):
            name = words["override" if path.startswith("override") else "rules"]
            if path in ("", "override") or who.page:
                return name
            return f"{name} “{path}”"
        label = _rule_label(path, lang)
        if label:
            return label
        return _THIS_RULE[lang] if who.page else _RULE_WORDS[lang].format(path=path)
    parts: list[str] = []
    for segment in field.split(".") if field else ["request"]:
        indexed = _SEGMENT.match(segment)
        if indexed and indexed[1] == "players":
            parts.append(who.who(int(indexed[2]) + 1))
        elif indexed and indexed[1] == "penalties":
            parts.append(_PENALTY[lang].format(n=int(indexed[2]) + 1))
        elif segment != "hand" or field == "hand":
            if segment in words:
                parts.append(words[segment])
            elif not who.page:
                parts.append(f"“{segment}”")
    return capitalize(", ".join(parts), lang)


_TIER = re.compile(r"^opening_bonus\[(\d+)\](?:\.(\w+))?$")


def _rule_label(path: str, lang: str) -> str | None:
    """A ruleset path's declared label: "finishes.okey.winner" → "Okeyle bitiş — Bitiren"."""
    tier = _TIER.match(path)
    if tier:
        label = f"{parameters.PARAMS['opening_bonus'].text('label', lang)} {int(tier[1]) + 1}"
        # The points column is the tier's bonus itself: "Açılış primi 2", not "… — Açılış primi".
        column = parameters.TIER_COLUMNS.get(tier[2] or "") if tier[2] != "points" else None
        return f"{label} — {column[lang == 'en']}" if column else label
    path = re.sub(r"\[\d+\]$", "", path)  # "hands[2]" is the match lengths
    item = parameters.PARAMS.get(path) or parameters.GROUPS.get(path)
    return item.text("label", lang) if item else None
