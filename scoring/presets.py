"""The eight built-in presets, as data, with RULES.md's figures.

Each preset is written the way RULES.md describes it: a few shared defaults, the finish table
copied from RULES.md's table, and what differs ("as klasik; ..."). A test checks that the result
equals `../shared/presets.json` exactly.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from scoring.rules import deep_merge


@dataclass(frozen=True, slots=True)
class Preset:
    """A built-in ruleset with the names and descriptions players see."""

    slug: str
    name_tr: str
    description_tr: str
    name_en: str
    description_en: str
    _rules: dict[str, Any] = field(repr=False)

    @property
    def rules(self) -> dict[str, Any]:
        """The raw JSON ruleset, exactly as in presets.json (a fresh copy: edit it freely)."""
        return copy.deepcopy(self._rules)


def _finishes(**rows: tuple[int | None, int, int]) -> dict[str, dict[str, int]]:
    """RULES.md's finish table: kind=(winner, opened multiplier, not opened)."""
    table = {}
    for kind, (winner, multiplier, not_opened) in rows.items():
        table[kind] = {"opened_multiplier": multiplier, "not_opened": not_opened}
        if winner is not None:
            table[kind]["winner"] = winner
    return table


def _penalties(**amounts: int) -> dict[str, Any]:
    """Every penalty kind off (None) except those given; a partner taking the okey is exempt."""
    return {
        "okey_discard": None,
        "islek_discard": None,
        "islek_taken_factor": None,
        "take_back": None,
        "failed_open": None,
        "okey_taken": None,
        "side_take_unused": None,
        "okey_from_per_unused": None,
        "okey_taken_partner_exempt": True,
        **amounts,
    }


_CETELE_FINISHES = _finishes(
    normal=(-101, 1, 202),
    kafa=(-202, 1, 404),
    pairs=(-202, 2, 404),
    okey=(-202, 2, 404),
    okey_kafa=(-404, 2, 808),
    pairs_okey=(-404, 4, 808),
    none=(None, 1, 202),
)
_CETELE_SERT_FINISHES = _finishes(
    normal=(-101, 2, 404),
    kafa=(-202, 2, 808),
    pairs=(-202, 4, 808),
    okey=(-202, 4, 808),
    okey_kafa=(-404, 4, 1616),
    pairs_okey=(-404, 8, 1616),
    none=(None, 2, 404),
)
# Okey Masters, KafaDinle and the common written rules share one table.
_COMMON_FINISHES = _finishes(
    normal=(-101, 1, 202),
    kafa=(-202, 2, 404),
    pairs=(-202, 2, 404),
    okey=(-202, 2, 404),
    okey_kafa=(-404, 4, 808),
    pairs_okey=(-404, 4, 808),
    none=(None, 1, 202),
)

# "Every preset has pair_opener_multiplier 2, cezali true, teams winner_partner_zero true ...
# Unless the table says otherwise: 21 tiles, opening 101 points or 5 pairs with no raising,
# matches of 1, 3, 5, 7, 9, 11 or 13 hands."
_DEFAULTS: dict[str, Any] = {
    "pair_opener_multiplier": 2,
    "pair_opener_over": None,
    "teams": {"winner_partner_zero": True, "kafa_halving": False},
    "cezali": True,
    "discard_used": None,
    "cifte_devam_factor": None,
    "opening_bonus": None,
    "opening": {"series": 101, "pairs": 5, "raising": "none"},
    "tiles_dealt": 21,
    "hands": [1, 3, 5, 7, 9, 11, 13],
}

_CETELE_STANDART = deep_merge(
    _DEFAULTS,
    {
        "name": "Okey 101 Çetele — Standart",
        "finishes": _CETELE_FINISHES,
        "kafa_requires_nobody_opened": False,
        "pair_opener_over": {"threshold": 100, "penalty": 101},
        "okey_left": {"counts": "face", "penalty": 101, "fake_too": True},
        "teams": {"kafa_halving": True},
        "penalties": _penalties(
            okey_discard=101,
            islek_discard=101,
            islek_taken_factor=10,
            okey_taken=101,
            side_take_unused=101,
        ),
    },
)
_CETELE_SERT = deep_merge(
    _CETELE_STANDART,
    {"name": "Okey 101 Çetele — Sert Sevenler", "finishes": _CETELE_SERT_FINISHES},
)
_OM_KLASIK = deep_merge(
    _DEFAULTS,
    {
        "name": "Okey Masters 101 — Klasik",
        "finishes": _COMMON_FINISHES,
        "kafa_requires_nobody_opened": True,
        "okey_left": {"counts": 0, "penalty": 101, "fake_too": False},
        "penalties": _penalties(okey_discard=101, islek_discard=101, take_back=101, okey_taken=101),
    },
)
_OM_KADEMELI = deep_merge(
    _OM_KLASIK,
    {
        "name": "Okey Masters 101 — Kademeli",
        "opening": {"raising": "both"},
        "opening_bonus": [
            {"series": 150, "pairs": 7, "points": -101},
            {"series": 180, "pairs": 9, "points": -202},
        ],
    },
)
_OM_ZORLU = deep_merge(
    _OM_KADEMELI,
    {
        "name": "Okey Masters 101 — Zorlu",
        "discard_used": {"series": 10, "pairs": 20, "okey_series": 20, "okey_pairs": 40},
        "cifte_devam_factor": 2,
    },
)
_OM_51 = deep_merge(
    _OM_KLASIK,
    {
        "name": "Okey Masters 101 — 51",
        "tiles_dealt": 14,
        "opening": {"series": 51, "pairs": 4, "raising": "series"},
    },
)
_KAFADINLE = deep_merge(
    _DEFAULTS,
    {
        "name": "KafaDinle 101",
        "finishes": _COMMON_FINISHES,
        "kafa_requires_nobody_opened": False,
        "okey_left": {"counts": 101, "penalty": 0, "fake_too": False},
        "penalties": _penalties(islek_discard=101, side_take_unused=101, okey_from_per_unused=101),
        "hands": [1, 5, 7, 9, 11],
    },
)
_GELENEKSEL = deep_merge(
    _DEFAULTS,
    {
        "name": "Geleneksel 101",
        "finishes": _COMMON_FINISHES,
        "kafa_requires_nobody_opened": True,
        "okey_left": {"counts": "face", "penalty": 101, "fake_too": False},
        "penalties": _penalties(
            okey_discard=101, islek_discard=101, failed_open=101, take_back=101
        ),
        "hands": [3, 5, 7, 9, 11],
    },
)

PRESETS: dict[str, Preset] = {
    preset.slug: preset
    for preset in (
        Preset(
            "cetele-standart",
            "Çetele Standart",
            "Okey 101 Çetele'nin standart masası. Çift açan ×2 yazar, kalanı 100'ü geçerse "
            "üstüne 101. Elde kalan okey ya da sahte okey üstündeki sayı kadar sayılır, üstüne "
            "101 ceza. Kafa (elden) bitişte başkalarının açmış olması sorun değil. Eşlide "
            "bitirenin eşi 0 yazar; kafada eşi açmış olan açamayanın cezası yarıya iner.",
            "Çetele Standard",
            "Okey 101 Çetele's standard table. A pair opener scores ×2, plus 101 when over 100. "
            "An okey or fake okey left counts its face plus a 101 penalty. Others may have opened "
            "on a kafa finish. In teams the finisher's partner scores 0, and on a kafa a "
            "non-opener whose partner opened pays half.",
            _CETELE_STANDART,
        ),
        Preset(
            "cetele-sert",
            "Çetele Sert Sevenler",
            "Standart masanın sert hali: açanların katsayısı ve açamayanların cezası iki katı "
            "(açamayan 404, okey-kafada 1616). Bitirenin yazdığı değişmez.",
            "Çetele Hard Mode",
            "The standard table, harder: every loser's multiplier and not-opened penalty is "
            "doubled (404 for not opening, 1616 on okey-kafa). Winners score the same.",
            _CETELE_SERT,
        ),
        Preset(
            "om-klasik",
            "Okey Masters Klasik",
            "Kafa (elden) bitiş ancak başka kimse açmamışken olur. Çift açan ×2 yazar. Elde kalan "
            "gerçek okey sayılmaz, yerine 101 ceza yazılır; sahte okey üstündeki sayı kadar "
            "sayılır. Okey atmak, işlek taş atmak, taş geri almak ve okey aldırmak 101 ceza.",
            "Okey Masters Classic",
            "Kafa only when nobody else opened. A pair opener scores ×2. A real okey left is not "
            "counted but costs 101; a fake okey counts its face. Discarding an okey or a "
            "playable tile, taking tiles back and having your okey taken cost 101 each.",
            _OM_KLASIK,
        ),
        Preset(
            "om-kademeli",
            "Okey Masters Kademeli",
            "Klasik kurallar; her açılış bir öncekini geçmeli. 150 puan ya da 7 çiftle açan −101, "
            "180 puan ya da 9 çiftle açan −202 yazar.",
            "Okey Masters Tiered",
            "Classic rules; each opening must beat the one before. Opening with 150 points or "
            "7 pairs earns −101, with 180 points or 9 pairs −202.",
            _OM_KADEMELI,
        ),
        Preset(
            "om-zorlu",
            "Okey Masters Zorlu",
            "Kademeli kurallar, üstüne: attığı taşı sonraki oyuncu kullanan taş × 10 (seri) ya "
            "da × 20 (çift), okeyse × 20 ya da × 40 ceza yazar. Çifte devam deyip açamayan "
            "cezasının iki katını yazar.",
            "Okey Masters Hard",
            "Tiered rules, plus: a discard the next player uses costs tile × 10 (run) or × 20 "
            "(pairs), an okey × 20 or × 40. Declaring çifte devam and failing to open pays double.",
            _OM_ZORLU,
        ),
        Preset(
            "om-51",
            "Okey Masters 51",
            "Klasik kurallar, 14 taşla: 51 puan ya da 4 çiftle açılır; yalnızca seri açılışlar "
            "yükselir.",
            "Okey Masters 51",
            "Classic rules with 14 tiles: open with 51 points or 4 pairs; only run/set openings "
            "must rise.",
            _OM_51,
        ),
        Preset(
            "kafadinle",
            "KafaDinle 101",
            "Çiftten, okeyle ve kafa bitişin her biri iki katı, ikisi birden dört katı. Elde "
            "kalan okey 101 sayılır ve katlanır. Yandan alıp kullanmamak, işlek taş atmak ve "
            "perden okey alıp kullanmamak 101 ceza. Maç 1, 5, 7, 9 ya da 11 el.",
            "KafaDinle 101",
            "Pairs, okey and kafa finishes each double; any two of them ×4. An okey left counts "
            "101 in the tiles and is multiplied. Taking the side tile without using it, "
            "discarding a playable tile and taking an okey from a meld without laying it cost "
            "101. Matches of 1, 5, 7, 9 or 11 hands.",
            _KAFADINLE,
        ),
        Preset(
            "geleneksel",
            "Geleneksel 101",
            "101'in yaygın yazılı kuralları: kafa ancak başka kimse açmamışken olur ve iki "
            "katıdır; okey-kafa ve çiftten okey dört katı. Elde kalan okey üstündeki sayı kadar "
            "sayılır, üstüne 101. Okey atmak, işlek taş atmak, açılışın tutmaması ve taş geri "
            "almak 101 ceza. Maç 3, 5, 7, 9 ya da 11 el.",
            "Traditional 101",
            "The common written rules of 101: kafa only when nobody else opened, and it doubles; "
            "okey-kafa and pairs okey ×4. An okey left counts its face plus 101. Discarding an "
            "okey or a playable tile, a failed opening and taking tiles back cost 101 each. "
            "Matches of 3, 5, 7, 9 or 11 hands.",
            _GELENEKSEL,
        ),
    )
}
