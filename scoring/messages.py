"""Error messages: the sentence for each InvalidHand code, in Turkish or English, rendered when
it is shown, never on every raise.

Two audiences:
- the JSON contract and the command line (`InvalidHand.message_in(lang)`): players are named by
  seat ("Oyuncu 3", 1-based) and types by their JSON names ("true ya da false", "null");
- a page (`InvalidHand.page_message(lang, names)`): every player is named by name, with the
  right suffix ("Can'ın elinde sahte okey kaldı"), and a message says what to do ("Okeyi kimin
  aldığını seçin") instead of speaking of types, paths or seat numbers.

The game's words come from `scoring.vocabulary`; where a message is and who it is about, in
words, from `scoring.fields`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from scoring import parameters
from scoring import vocabulary as v
from scoring.fields import (
    FIELD_NAMES,
    PAGE_TYPE_NAMES,
    TYPE_NAMES,
    Names,
    human_field,
    where_in_words,
)
from scoring.names import PENALTY_NAMES
from scoring.turkish import capitalize

# The field words live in scoring.fields; callers import them from here, as they always have.
__all__ = [
    "ERRORS",
    "FIELD_NAMES",
    "PAGE_ERRORS",
    "PAGE_MISSING",
    "PAGE_TYPE_NAMES",
    "TYPE_NAMES",
    "error_message",
    "human_field",
]


# --- The sentences ----------------------------------------------------------------------------
# {where}: the field in words; {who}: the player the field or the message is about.

ERRORS = {
    "tr": {
        "invalid_json": "İstek okunamadı: geçerli bir JSON değil ({detail}).",
        "wrong_type": "{where}: {expected} olmalı.",
        "missing_field": "{where} eksik: bu alan zorunlu.",
        "unknown_field": "{where} tanınmayan bir alan (yazım hatası olabilir).",
        "invalid_choice": "{where}: şunlardan biri olmalı: {choices}.",
        "out_of_range": "{where}: {bounds}.",
        "empty_value": "{where} boş olamaz.",
        "duplicate_value": "{where}: {value} iki kez yazılmış.",
        "unknown_preset": "“{slug}” adında bir hazır kural yok. Seçenekler: {choices}.",
        "tiers_not_increasing": (
            "{where}: açılış primi kademeleri artan sırada olmalı; her kademe bir öncekinden "
            "daha çok puan ve daha çok çift istemeli."
        ),
        "seat_count": "Bir elde 2, 3 ya da 4 oyuncu olmalı; {n} oyuncu girildi.",
        "teams_need_four": "Eşli oyun tam 4 oyuncuyla oynanır; {n} oyuncu girildi.",
        "finisher_not_a_seat": (
            "Bitiren, 1 ile {n} arasında bir oyuncu olmalı (kimse bitmediyse boş bırakılır)."
        ),
        "finisher_not_opened": (
            "{who} bitiren olarak seçildi ama açmamış: bitiren, seri ya da çift açmış olmalı."
        ),
        "finisher_holds_tiles": ("{who} bitirdi: elinde taş, okey ya da sahte okey kalmış olamaz."),
        "needs_finisher": "{what} için bitiren bir oyuncu seçilmeli; kimse bitmediyse olamaz.",
        "pairs_kafa_not_allowed": (
            "{who} çift açtı: bu kurallarda çiftten kafa yok, çift açan elden bitemez."
        ),
        "kafa_others_opened": (
            "Bu kurallarda kafa (elden) bitiş için başka kimse açmamış olmalı; {other} açmış."
        ),
        "remaining_out_of_range": (
            "{who}: kalan taş toplamı 0 ile {max} arasında bir tam sayı olmalı "
            "({tiles} taşla en fazla {max} olur)."
        ),
        "okeys_out_of_range": "{who}: elde kalan {what} sayısı 0, 1 ya da 2 olabilir.",
        "too_many_okeys": (
            "{who}: oyunda yalnızca 2 {what} var; oyuncuların elindeki {what} sayılarının "
            "toplamı 2'yi geçemez."
        ),
        "okey_number_out_of_range": "Okey taşının sayısı 1 ile 13 arasında olmalı.",
        "okey_number_required": "Okey kaç? {reason}; okey taşının sayısı girilmeli.",
        "cifte_devam_not_in_ruleset": "{who}: bu kurallarda çifte devam yok.",
        "cifte_devam_with_series": (
            "{who}: seri açan çifte devam diyemez; çifte devam yalnızca çift içindir."
        ),
        "opening_below_base": "{who}: açılış en az {base} {unit} olmalı.",
        "opening_above_max": (
            "{who}: {tiles} taşla en fazla {max} çift açılabilir (elde bir taş kalmalı)."
        ),
        "colour_required": (
            "Bu kurallarda renk sayılıyor: göstergenin rengi (kırmızı, mavi, siyah ya da sarı) "
            "seçilmeli."
        ),
        "pairs_okey_kafa_without_pairs_kafa": (
            "{where}: çiftten okey-kafa satırı yalnızca çiftten kafa satırının yanında olabilir."
        ),
        "opening_not_opened": "{who} açmadı; açılış değeri girilemez.",
        "unknown_penalty_kind": "{who}: “{kind}” diye bir ceza yok.",
        "penalty_disabled": "{who}: bu kurallarda “{label}” cezası yok.",
        "penalty_not_on_cezasiz": (
            f"{{who}}: cezasız masada yalnızca {v.CUSTOM_PENALTY.tr} yazılır; "
            "“{label}” yazılamaz."
        ),
        "tile_out_of_range": "{who}: taşın sayısı 1 ile 13 arasında olmalı.",
        "tile_required": "{who}: bu ceza için taşın sayısı girilmeli.",
        "by_not_a_seat": "{who}: okeyi alan, 1 ile {n} arasında bir oyuncu olmalı.",
        "by_self": "{who}: okeyi alan başka bir oyuncu olmalı.",
    },
    "en": {
        "invalid_json": "The request could not be read: it is not valid JSON ({detail}).",
        "wrong_type": "{where}: must be {expected}.",
        "missing_field": "{where} is missing: this field is required.",
        "unknown_field": "{where} is not a known field (a typo?).",
        "invalid_choice": "{where}: must be one of {choices}.",
        "out_of_range": "{where}: {bounds}.",
        "empty_value": "{where} may not be empty.",
        "duplicate_value": "{where}: {value} is listed twice.",
        "unknown_preset": "There is no preset called “{slug}”. Choices: {choices}.",
        "tiers_not_increasing": (
            "{where}: opening bonus tiers must increase; each tier needs more points and more "
            "pairs than the one before."
        ),
        "seat_count": "A hand has 2, 3 or 4 players; {entered}.",
        "teams_need_four": "Teams are played by exactly 4 players; {entered}.",
        "finisher_not_a_seat": (
            "The finisher must be a player from 1 to {n} (left empty when nobody finished)."
        ),
        "finisher_not_opened": (
            "{who} is marked as the finisher but did not open: the finisher must have "
            "opened with runs/sets or pairs."
        ),
        "finisher_holds_tiles": (
            "{who} finished: no tiles, okeys or fake okeys can be left in their hand."
        ),
        "needs_finisher": "{what} needs a finisher; it cannot happen when nobody finished.",
        "pairs_kafa_not_allowed": (
            "{who} opened pairs: these rules have no pairs kafa, so a pair opener cannot "
            "finish in the same turn."
        ),
        "kafa_others_opened": (
            "These rules allow kafa only when nobody else opened; {other} opened."
        ),
        "remaining_out_of_range": (
            "{who}: tiles left must be an integer from 0 to {max} "
            "({tiles} tiles make at most {max})."
        ),
        "okeys_out_of_range": "{who}: {what} left in hand can be 0, 1 or 2.",
        "too_many_okeys": (
            "{who}: there are only 2 {what} in the game; the players' {what} together cannot "
            "exceed 2."
        ),
        "okey_number_out_of_range": "The okey number must be from 1 to 13.",
        "okey_number_required": "What is the okey? {reason}; enter the okey number.",
        "cifte_devam_not_in_ruleset": "{who}: these rules have no çifte devam.",
        "cifte_devam_with_series": (
            "{who}: a player who opened runs/sets cannot declare çifte devam (pairs only)."
        ),
        "opening_below_base": "{who}: the opening must be at least {base} {unit}.",
        "opening_above_max": (
            "{who}: with {tiles} tiles you can open at most {max} pairs (a tile must stay in hand)."
        ),
        "colour_required": (
            "These rules count colours: choose the indicator's colour (red, blue, black or yellow)."
        ),
        "pairs_okey_kafa_without_pairs_kafa": (
            "{where}: the pairs okey-kafa row is allowed only beside the pairs kafa row."
        ),
        "opening_not_opened": "{who} did not open; an opening value cannot be entered.",
        "unknown_penalty_kind": "{who}: there is no penalty called “{kind}”.",
        "penalty_disabled": "{who}: these rules have no “{label}” penalty.",
        "penalty_not_on_cezasiz": (
            "{who}: a table without penalties takes only custom penalties, not “{label}”."
        ),
        "tile_out_of_range": "{who}: the tile number must be from 1 to 13.",
        "tile_required": "{who}: this penalty needs the tile number.",
        "by_not_a_seat": "{who}: the okey was taken by a player from 1 to {n}.",
        "by_self": "{who}: the okey must have been taken by another player.",
    },
}

# The same on a page, where a contract sentence would speak of types, seat ranges or choices
# the player never typed: say what to do, naming the players.
PAGE_ERRORS = {
    "tr": {
        "invalid_json": "Gönderilen bilgiler okunamadı. Sayfayı yenileyip yeniden deneyin.",
        "wrong_type": "{where}: {expected}.",
        "missing_field": "{where}: boş bırakılamaz.",
        "unknown_field": "{where}: bu kurallarda böyle bir değer yok.",
        "invalid_choice": "{where}: listeden birini seçin.",
        "unknown_preset": "Böyle bir hazır kural yok; listeden birini seçin.",
        "seat_count": "Bir maçta 2, 3 ya da 4 oyuncu oynar.",
        "teams_need_four": "Eşli oyun tam 4 oyuncuyla oynanır.",
        "finisher_not_a_seat": "Kimin bitirdiğini seçin: {everyone} (ya da “Kimse bitmedi”).",
        "needs_finisher": "{what} için kimin bitirdiğini seçin: {everyone}.",
        "okey_number_required": "Okey kaç? {reason}; göstergeyi seçin (okey onun bir üstüdür).",
        "colour_required": "Göstergenin rengini seçin: kırmızı, mavi, siyah ya da sarı.",
        "tile_required": "{who}: bu ceza için taşın sayısını seçin.",
        "by_not_a_seat": "{who}: okeyi kimin aldığını seçin.",
        "by_self": "{who}: okeyini kendisi alamaz; okeyi kimin aldığını seçin.",
    },
    "en": {
        "invalid_json": "What was sent could not be read. Reload the page and try again.",
        "wrong_type": "{where}: {expected}.",
        "missing_field": "{where}: may not be left empty.",
        "unknown_field": "{where}: these rules have no such value.",
        "invalid_choice": "{where}: choose one from the list.",
        "unknown_preset": "There are no such preset rules; choose from the list.",
        "seat_count": "A match is played by 2, 3 or 4 players.",
        "teams_need_four": "Team play needs exactly 4 players.",
        "finisher_not_a_seat": "Choose who finished: {everyone} (or “Nobody finished”).",
        "needs_finisher": "{what} needs a finisher: choose {everyone}.",
        "okey_number_required": (
            "What is the okey? {reason}; choose the indicator (the okey is the next number)."
        ),
        "colour_required": "Choose the indicator's colour: red, blue, black or yellow.",
        "tile_required": "{who}: choose the tile number for this penalty.",
        "by_not_a_seat": "{who}: choose who took the okey.",
        "by_self": "{who}: cannot take their own okey; choose who took it.",
    },
}
# A missing field a form leaves empty, said as what to do ("Ayşe: okeyi kimin aldığını seçin").
PAGE_MISSING = {
    "tr": {
        "by": "{who}: okeyi kimin aldığını seçin.",
        "used_for": "{who}: attığı taşın nerede kullanıldığını seçin (seride ya da çiftte).",
        "points": "{who}: cezanın puanını yazın.",
        "kind": "{who}: cezanın türünü seçin.",
        "opened": "{who}: açıp açmadığını seçin.",
        "finisher": "Kimin bitirdiğini seçin: {everyone} (ya da “Kimse bitmedi”).",
    },
    "en": {
        "by": "{who}: choose who took the okey.",
        "used_for": "{who}: choose where the discard was used (in a run/set or in pairs).",
        "points": "{who}: enter the penalty's points.",
        "kind": "{who}: choose the kind of penalty.",
        "opened": "{who}: choose whether they opened.",
        "finisher": "Choose who finished: {everyone} (or “Nobody finished”).",
    },
}

_PARAM_WORDS = {
    "tr": {
        "okey": "okey",
        "fake_okey": "sahte okey",
        "okey_finish": "Okeyle bitiş",
        "kafa": "Kafa (elden) bitiş",
        "points": "puan",
        "pairs": "çift",
        "fake_counted": "{whose} elinde sahte okey kaldı",
        "okey_counted": "{whose} elinde okey kaldı ve okey üstündeki sayı kadar sayılıyor",
        "okey_discard_used": "{whose} attığı okey kullanıldı",
        "at_least": "en az {lo} olmalı",
        "at_most": "en fazla {hi} olmalı",
        "between": "{lo} ile {hi} arasında olmalı",
        "not_positive": "0 ya da eksi olmalı",
    },
    "en": {
        "okey": "okeys",
        "fake_okey": "fake okeys",
        "okey_finish": "An okey finish",
        "kafa": "A kafa finish",
        "points": "points",
        "pairs": "pairs",
        "fake_counted": "{whose} fake okey is left in hand",
        "okey_counted": "{whose} okey is left in hand and counts its face value",
        "okey_discard_used": "{whose} okey discard was used",
        "at_least": "must be at least {lo}",
        "at_most": "must be at most {hi}",
        "between": "must be from {lo} to {hi}",
        "not_positive": "must be 0 or less",
    },
}

_SEAT_IN_FIELD = re.compile(r"players\[(\d+)\]")
_LEAF = re.compile(r"(\w+)$")


def error_message(
    code: str,
    field: str,
    lang: str,
    params: Mapping[str, Any],
    names: Sequence[str] | None = None,
) -> str:
    """The sentence for an error code; `params` fill it. With `names` (the players' names by
    seat, or () where there are none) it is a page's sentence, else the contract's."""
    who = Names(lang, names)
    words = _PARAM_WORDS[lang]
    values: dict[str, Any] = dict(params)
    values["where"] = where_in_words(field, lang, who)
    values["everyone"] = who.everyone()
    seat = _SEAT_IN_FIELD.search(field)
    if seat:
        values.setdefault("seat", int(seat[1]) + 1)
    if "seat" in values:
        values["who"] = who.who(values["seat"])
    if "other" in values:
        values["other"] = who.who(values["other"])
    if "expected" in values:
        values["expected"] = (PAGE_TYPE_NAMES if who.page else TYPE_NAMES)[lang][values["expected"]]
    if "what" in values:
        values["what"] = words[values["what"]]
    if "unit" in values:
        one = lang == "en" and values.get("base") == 1  # "at least 1 pair", "at least 2 pairs"
        values["unit"] = words[values["unit"]].removesuffix("s" if one else "")
    if "kind_label" in values:
        values["label"] = PENALTY_NAMES[lang][values["kind_label"]]
    if "reason" in values:
        reason, n = values["reason"]
        values["reason"] = capitalize(words[reason].format(whose=who.whose(n)), lang)
    if "lo" in values or "hi" in values:
        lo, hi = values.get("lo"), values.get("hi")
        key = "between" if None not in (lo, hi) else "at_most" if lo is None else "at_least"
        if who.page and hi == 0 and lo == -parameters.MAX_AMOUNT:
            key = "not_positive"  # a winner's points: the lower limit is the engine's, not a rule
        values["bounds"] = words[key].format(lo=lo, hi=hi)
    if "choices" in values and not isinstance(values["choices"], str):
        values["choices"] = ", ".join(str(choice) for choice in values["choices"])
    if "n" in values:
        values["entered"] = _entered(values["n"], lang)
    template = _template(code, field, lang, who)
    where = values["where"]
    if where.endswith("?") and template.startswith("{where}: "):
        # A field named by a question ("Maç kaç el olabilir?") keeps its mark, without a colon,
        # and what follows starts a sentence of its own.
        rest = template.removeprefix("{where}: ").format(**values)
        return f"{where} {capitalize(rest, lang)}"
    return capitalize(template.format(**values), lang)


def _template(code: str, field: str, lang: str, who: Names) -> str:
    if not who.page:
        return ERRORS[lang][code]
    if code == "missing_field":
        leaf = _LEAF.search(field)
        if (
            leaf
            and leaf[1] in PAGE_MISSING[lang]
            and (leaf[1] == "finisher" or "players[" in field)
        ):
            return PAGE_MISSING[lang][leaf[1]]
    return PAGE_ERRORS[lang].get(code) or ERRORS[lang][code]


def _entered(n: int, lang: str) -> str:
    """ "3 oyuncu girildi"; English agrees in number: "1 was entered", "5 were entered"."""
    if lang == "en":
        return f"{n} was entered" if n == 1 else f"{n} were entered"
    return f"{n} oyuncu girildi"
