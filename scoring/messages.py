"""Error messages: the player-facing sentence for each InvalidHand code, in Turkish or
English, rendered when it is shown (`InvalidHand.message_in`), never on every raise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from scoring.names import PENALTY_NAMES
from scoring.turkish import genitive

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
        "seat_or_null": "a seat number or null",
        "ruleset": "a preset name or a ruleset object",
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
        "opened": "açma durumu",
        "remaining": "kalan taş toplamı",
        "okeys": "eldeki okey sayısı",
        "fake_okeys": "eldeki sahte okey sayısı",
        "opening": "açılış değeri",
        "cifte_devam": "çifte devam",
        "penalties": "cezalar",
        "kind": "ceza türü",
        "tile": "taşın sayısı",
        "taken": "alındı mı",
        "by": "okeyi alan",
        "used_for": "nereye işlendi",
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
        "taken": "taken",
        "by": "taken by",
        "used_for": "used for",
        "okey": "okey",
        "points": "points",
        "note": "note",
    },
}

_SEAT_WORDS = {"tr": ("Oyuncu {n}", "ceza {n}"), "en": ("Player {n}", "penalty {n}")}
_RULE_WORDS = {"tr": "Kural “{path}”", "en": "Rule “{path}”"}
_SEGMENT = re.compile(r"^(\w+)\[(\d+)\]$")


def human_field(field: str, lang: str = "tr") -> str:
    """ "hand.players[2].penalties[0].tile" → "Oyuncu 3, ceza 1, taşın sayısı"."""
    names = FIELD_NAMES[lang]
    if field == "rules" or field.startswith("rules."):
        path = field.removeprefix("rules").removeprefix(".")
        if path in ("", "preset", "override") or path.startswith("override."):
            return names["override" if path.startswith("override") else "rules"] + (
                "" if path in ("", "override") else f" “{path}”"
            )
        return _rule_label(path, lang) or _RULE_WORDS[lang].format(path=path)
    parts: list[str] = []
    for segment in field.split(".") if field else ["request"]:
        indexed = _SEGMENT.match(segment)
        if indexed and indexed[1] in ("players", "penalties"):
            words = _SEAT_WORDS[lang][0 if indexed[1] == "players" else 1]
            parts.append(words.format(n=int(indexed[2]) + 1))
        elif segment != "hand" or field == "hand":
            parts.append(names.get(segment, f"“{segment}”"))
    text = ", ".join(parts)
    return text[:1].upper() + text[1:]


_TIER = re.compile(r"^opening_bonus\[(\d+)\](?:\.(\w+))?$")


def _rule_label(path: str, lang: str) -> str | None:
    """A ruleset path's declared label: "finishes.okey.winner" → "Okeyle bitiş — Bitiren"."""
    from scoring import parameters  # the declaration imports the errors: import it late

    tier = _TIER.match(path)
    if tier:
        label = f"{parameters.PARAMS['opening_bonus'].text('label', lang)} {int(tier[1]) + 1}"
        column = parameters.TIER_COLUMNS.get(tier[2] or "")
        return f"{label} — {column[lang == 'en']}" if column else label
    path = re.sub(r"\[\d+\]$", "", path)  # "hands[2]" is the match lengths
    item = parameters.PARAMS.get(path) or parameters.GROUPS.get(path)
    return item.text("label", lang) if item else None


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
            "{where}: açılış bonusu kademeleri artan sırada olmalı; her kademe bir öncekinden "
            "daha çok puan ve daha çok çift istemeli."
        ),
        "seat_count": "Bir elde 2, 3 ya da 4 oyuncu olmalı; {n} oyuncu girildi.",
        "teams_need_four": "Eşli oyun tam 4 oyuncuyla oynanır; {n} oyuncu girildi.",
        "finisher_not_a_seat": (
            "Bitiren, 1 ile {n} arasında bir oyuncu olmalı (kimse bitmediyse boş bırakılır)."
        ),
        "finisher_not_opened": (
            "Oyuncu {seat} bitiren olarak seçildi ama açmamış: bitiren, seri ya da çift "
            "açmış olmalı."
        ),
        "finisher_holds_tiles": (
            "Oyuncu {seat} bitirdi: elinde taş, okey ya da sahte okey kalmış olamaz."
        ),
        "needs_finisher": "{what} için bitiren bir oyuncu seçilmeli; kimse bitmediyse olamaz.",
        "pairs_kafa_not_allowed": (
            "Bu kurallarda çiftten kafa yoktur: çift açan oyuncu kafa (elden) bitemez."
        ),
        "kafa_others_opened": (
            "Bu kurallarda kafa (elden) bitiş için başka kimse açmamış olmalı; "
            "oyuncu {other} açmış."
        ),
        "remaining_out_of_range": (
            "Oyuncu {seat}: kalan taş toplamı 0 ile {max} arasında bir tam sayı olmalı "
            "({tiles} taşla en fazla {max} olur)."
        ),
        "okeys_out_of_range": "Oyuncu {seat}: elde kalan {what} sayısı 0, 1 ya da 2 olabilir.",
        "too_many_okeys": (
            "Oyunda yalnızca 2 {what} var: oyuncuların elindeki {what} sayılarının toplamı "
            "2'yi geçemez."
        ),
        "okey_number_out_of_range": "Okey taşının sayısı 1 ile 13 arasında olmalı.",
        "okey_number_required": "Okey taşının sayısı girilmeli: {reason}.",
        "cifte_devam_not_in_ruleset": "Oyuncu {seat}: bu kurallarda çifte devam yok.",
        "cifte_devam_with_series": (
            "Oyuncu {seat}: seri açan oyuncu çifte devam diyemez; çifte devam yalnızca "
            "çift içindir."
        ),
        "opening_below_base": "Oyuncu {seat}: açılış en az {base} {unit} olmalı.",
        "opening_above_max": (
            "Oyuncu {seat}: {tiles} taşla en fazla {max} çift açılabilir (elde bir taş kalmalı)."
        ),
        "colour_required": (
            "Bu kurallarda renk sayılıyor: göstergenin rengi (kırmızı, mavi, siyah ya da sarı) "
            "seçilmeli."
        ),
        "pairs_okey_kafa_without_pairs_kafa": (
            "{where}: elden + çift + okey satırı yalnızca çiftten kafa satırının yanında olabilir."
        ),
        "opening_not_opened": "Oyuncu {seat} açmadı; açılış değeri girilemez.",
        "unknown_penalty_kind": "Oyuncu {seat}: “{kind}” diye bir ceza yok.",
        "penalty_disabled": "Oyuncu {seat}: bu kurallarda “{label}” cezası yok.",
        "penalty_not_on_cezasiz": (
            "Oyuncu {seat}: cezasız masada yalnızca özel ceza yazılır; “{label}” yazılamaz."
        ),
        "tile_out_of_range": "Oyuncu {seat}: taşın sayısı 1 ile 13 arasında olmalı.",
        "tile_required": "Oyuncu {seat}: bu ceza için taşın sayısı girilmeli.",
        "by_not_a_seat": "Oyuncu {seat}: okeyi alan, 1 ile {n} arasında bir oyuncu olmalı.",
        "by_self": "Oyuncu {seat}: okeyi alan başka bir oyuncu olmalı.",
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
        "seat_count": "A hand has 2, 3 or 4 players; {n} were entered.",
        "teams_need_four": "Teams are played by exactly 4 players; {n} were entered.",
        "finisher_not_a_seat": (
            "The finisher must be a player from 1 to {n} (left empty when nobody finished)."
        ),
        "finisher_not_opened": (
            "Player {seat} is marked as the finisher but did not open: the finisher must have "
            "opened with runs/sets or pairs."
        ),
        "finisher_holds_tiles": (
            "Player {seat} finished: no tiles, okeys or fake okeys can be left in their hand."
        ),
        "needs_finisher": "{what} needs a finisher; it cannot happen when nobody finished.",
        "pairs_kafa_not_allowed": (
            "These rules have no pairs kafa: a player who opened pairs cannot finish on opening."
        ),
        "kafa_others_opened": (
            "These rules allow kafa only when nobody else opened; player {other} opened."
        ),
        "remaining_out_of_range": (
            "Player {seat}: tiles left must be an integer from 0 to {max} "
            "({tiles} tiles make at most {max})."
        ),
        "okeys_out_of_range": "Player {seat}: {what} left in hand can be 0, 1 or 2.",
        "too_many_okeys": (
            "There are only 2 {what} in the game: the players' {what} together cannot exceed 2."
        ),
        "okey_number_out_of_range": "The okey number must be from 1 to 13.",
        "okey_number_required": "Enter the okey number: {reason}.",
        "cifte_devam_not_in_ruleset": "Player {seat}: these rules have no çifte devam.",
        "cifte_devam_with_series": (
            "Player {seat}: a player who opened runs/sets cannot declare çifte devam (pairs only)."
        ),
        "opening_below_base": "Player {seat}: the opening must be at least {base} {unit}.",
        "opening_above_max": (
            "Player {seat}: {tiles} tiles open at most {max} pairs (a tile must stay in hand)."
        ),
        "colour_required": (
            "These rules count colours: choose the indicator's colour (red, blue, black or yellow)."
        ),
        "pairs_okey_kafa_without_pairs_kafa": (
            "{where}: the pairs + kafa + okey row is allowed only beside the pairs kafa row."
        ),
        "opening_not_opened": "Player {seat} did not open; an opening value cannot be entered.",
        "unknown_penalty_kind": "Player {seat}: there is no penalty called “{kind}”.",
        "penalty_disabled": "Player {seat}: these rules have no “{label}” penalty.",
        "penalty_not_on_cezasiz": (
            "Player {seat}: a table without penalties takes only custom penalties, not “{label}”."
        ),
        "tile_out_of_range": "Player {seat}: the tile number must be from 1 to 13.",
        "tile_required": "Player {seat}: this penalty needs the tile number.",
        "by_not_a_seat": "Player {seat}: the okey was taken by a player from 1 to {n}.",
        "by_self": "Player {seat}: the okey must have been taken by another player.",
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
        "fake_counted": "oyuncu {n_gen} elinde sahte okey kaldı",
        "okey_counted": "oyuncu {n_gen} elinde okey kaldı ve okey yüzü kadar sayılıyor",
        "okey_discard_used": "oyuncu {n_gen} attığı okey işlendi",
        "at_least": "en az {lo} olmalı",
        "at_most": "en fazla {hi} olmalı",
        "between": "{lo} ile {hi} arasında olmalı",
    },
    "en": {
        "okey": "okeys",
        "fake_okey": "fake okeys",
        "okey_finish": "An okey finish",
        "kafa": "A kafa finish",
        "points": "points",
        "pairs": "pairs",
        "fake_counted": "player {n} has a fake okey left",
        "okey_counted": "player {n} has an okey left, which counts its face value",
        "okey_discard_used": "player {n}'s okey discard was used",
        "at_least": "must be at least {lo}",
        "at_most": "must be at most {hi}",
        "between": "must be from {lo} to {hi}",
    },
}

_SEAT_IN_FIELD = re.compile(r"players\[(\d+)\]")


def error_message(code: str, field: str, lang: str, params: Mapping[str, Any]) -> str:
    """The player-facing sentence for an error code; `params` fill the template."""
    words = _PARAM_WORDS[lang]
    values: dict[str, Any] = dict(params)
    values["where"] = human_field(field, lang)
    seat = _SEAT_IN_FIELD.search(field)
    if seat:
        values.setdefault("seat", int(seat[1]) + 1)
    if "expected" in values:
        values["expected"] = TYPE_NAMES[lang][values["expected"]]
    if "what" in values:
        values["what"] = words[values["what"]]
    if "unit" in values:
        values["unit"] = words[values["unit"]]
    if "kind_label" in values:
        values["label"] = PENALTY_NAMES[lang][values["kind_label"]]
    if "reason" in values:
        reason, n = values["reason"]
        values["reason"] = words[reason].format(n=n, n_gen=genitive(n))
    if "lo" in values or "hi" in values:
        lo, hi = values.get("lo"), values.get("hi")
        key = "between" if None not in (lo, hi) else "at_most" if lo is None else "at_least"
        values["bounds"] = words[key].format(lo=lo, hi=hi)
    if "choices" in values and not isinstance(values["choices"], str):
        values["choices"] = ", ".join(str(choice) for choice in values["choices"])
    return ERRORS[lang][code].format(**values)
