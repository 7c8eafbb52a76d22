"""Every word the engine shows a player, in Turkish ("tr") and English ("en").

Plain dicts, no gettext: the scoring package must not import Django. The web app picks the
language and calls `describe_step` / `format_breakdown` / `finish_name`; `errors.invalid` uses
`error_message`. Seats are shown 1-based ("Oyuncu 3" is seat index 2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

LANGS = ("tr", "en")

# --- Finish kinds ---------------------------------------------------------------------------

FINISH_NAMES = {
    "tr": {
        "normal": "Normal bitiş",
        "kafa": "Kafa / Elden",
        "pairs": "Çiftten bitiş",
        "okey": "Okeyle bitiş",
        "okey_kafa": "Okey-Kafa / Elden + okey",
        "pairs_okey": "Çiftten okey",
        "pairs_kafa": "Çiftten kafa",
        "none": "Kimse bitmedi",
    },
    "en": {
        "normal": "Normal finish",
        "kafa": "Kafa (opened and finished at once)",
        "pairs": "Finish with pairs",
        "okey": "Okey finish",
        "okey_kafa": "Okey + kafa",
        "pairs_okey": "Pairs + okey",
        "pairs_kafa": "Pairs + kafa",
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
        "none": "kimse bitmedi",
    },
    "en": {
        "normal": "normal finish",
        "kafa": "kafa",
        "pairs": "pairs finish",
        "okey": "okey finish",
        "okey_kafa": "okey + kafa",
        "pairs_okey": "pairs + okey",
        "pairs_kafa": "pairs + kafa",
        "none": "nobody finished",
    },
}

# --- Penalty kinds --------------------------------------------------------------------------

PENALTY_NAMES = {
    "tr": {
        "okey_discard": "okey attı",
        "islek_discard": "işlek taş attı",
        "take_back": "taşı geri aldı",
        "failed_open": "açış tutmadı",
        "okey_taken": "okeyi alındı",
        "side_take_unused": "yandan alıp kullanmadı",
        "okey_from_per_unused": "perden okey alıp işlemedi",
        "discard_used": "attığı taş işlendi",
        "custom": "özel ceza",
    },
    "en": {
        "okey_discard": "discarded an okey",
        "islek_discard": "discarded a playable tile",
        "take_back": "took tiles back",
        "failed_open": "opening fell short",
        "okey_taken": "okey taken from their meld",
        "side_take_unused": "took the side tile, did not use it",
        "okey_from_per_unused": "took an okey from a meld, did not lay it",
        "discard_used": "discard was used",
        "custom": "custom penalty",
    },
}

# --- Breakdown steps ------------------------------------------------------------------------

_WORDS = {
    "tr": {
        "partner_zero": "eşi bitirdi",
        "not_opened": "açamadı",
        "cifte_devam": "çifte devam",
        "kafa_halving": "kafa, eşi açtı",
        "pair_opened": "çift açtı",
        "okey": "okey",
        "fake_okey": "sahte okey",
        "okey_left": "okey kaldı",
        "okeys_left": "okey / sahte okey kaldı",
        "over": "{threshold_acc} geçti",
        "bonus_series": "{opening} ile açtı",
        "bonus_pairs": "{opening} çift açtı",
        "islek_taken": "işlek taşı alındı",
        "partner_took_okey": "okeyi eşi aldı",
        "used_series": "attığı taş seriye işlendi",
        "used_pairs": "attığı taş çifte işlendi",
        "used_okey_series": "attığı okey seriye işlendi",
        "used_okey_pairs": "attığı okey çifte işlendi",
    },
    "en": {
        "partner_zero": "partner finished",
        "not_opened": "did not open",
        "cifte_devam": "çifte devam",
        "kafa_halving": "kafa, partner opened",
        "pair_opened": "opened pairs",
        "okey": "okey",
        "fake_okey": "fake okey",
        "okey_left": "okey left",
        "okeys_left": "okey / fake okey left",
        "over": "over {threshold}",
        "bonus_series": "opened with {opening}",
        "bonus_pairs": "opened {opening} pairs",
        "islek_taken": "playable tile taken",
        "partner_took_okey": "partner took the okey",
        "used_series": "discard used for a run",
        "used_pairs": "discard used for pairs",
        "used_okey_series": "okey discard used for a run",
        "used_okey_pairs": "okey discard used for pairs",
    },
}

MINUS = "\N{MINUS SIGN}"
TIMES = "\N{MULTIPLICATION SIGN}"
DIVIDE = "\N{DIVISION SIGN}"


def finish_name(kind: str, lang: str = "tr") -> str:
    """The finish kind's display name, e.g. "Okeyle bitiş"."""
    return FINISH_NAMES[lang][str(kind)]


def penalty_name(kind: str, lang: str = "tr") -> str:
    return PENALTY_NAMES[lang][str(kind)]


def describe_step(step: Mapping[str, Any], lang: str = "tr") -> str:
    """One breakdown step as a player reads it, e.g. "101 (100'ü geçti)" or "× 2 (çifte devam)"."""
    operator, text = _render(step, lang)
    if operator == "-":
        return MINUS + text
    if operator in (TIMES, DIVIDE):
        return f"{operator} {text}"
    return text


def format_breakdown(steps: Iterable[Mapping[str, Any]], lang: str = "tr") -> str:
    """A seat's steps as one sentence, e.g.
    "107 × 2 (çift açtı) × 2 (okeyle bitiş) + 101 (100'ü geçti) = 529".

    Steps are applied in order; multiplying steps (çifte devam, kafa halving) only ever follow
    the fixed not-opened amount, so the usual precedence reads correctly.
    """
    parts: list[str] = []
    total = 0
    compound = False  # whether the sentence is more than one plain number with its reason
    for step in steps:
        total += step["points"]
        operator, text = _render(step, lang)
        compound = compound or bool(parts) or _is_expression(step)
        if not parts:
            parts.append(MINUS + text if operator == "-" else text)
        else:
            parts.append(f"{MINUS if operator == '-' else operator} {text}")
    sentence = " ".join(parts)
    return f"{sentence} = {_number(total)}" if compound else sentence


def _is_expression(step: Mapping[str, Any]) -> bool:
    """A tiles step with a multiplier or okeys reads as a calculation; others as one amount."""
    if step["rule"] != "tiles":
        return False
    return (
        step["pair_multiplier"] != 1 or step["multiplier"] != 1 or len(_tile_terms(step, "tr")) > 1
    )


def _number(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


def _sign(points: int) -> str:
    return "-" if points < 0 else "+"


def _render(step: Mapping[str, Any], lang: str) -> tuple[str, str]:
    """(operator, text): operator is "+", "-", "×" or "÷"; text carries no sign."""
    words = _WORDS[lang]
    rule = step["rule"]
    points = step["points"]
    if rule == "tiles":
        return "+", _tiles_text(step, lang)
    if rule == "cifte_devam":
        return TIMES, f"{step['factor']} ({words['cifte_devam']})"
    if rule == "kafa_halving":
        return DIVIDE, f"2 ({words['kafa_halving']})"
    return _sign(points), f"{abs(points)} ({_reason(step, lang)})"


def _reason(step: Mapping[str, Any], lang: str) -> str:
    words = _WORDS[lang]
    rule = step["rule"]
    if rule in ("winner", "not_opened") and "finish" in step:
        base = FINISH_REASONS[lang][step["finish"]]
        return base if rule == "winner" else f"{words['not_opened']}, {base}"
    if rule == "pair_opener_over":
        threshold = step["threshold"]
        return words["over"].format(
            threshold=threshold, threshold_acc=turkish_accusative(threshold)
        )
    if rule == "okey_left_penalty":
        return words["okeys_left" if step.get("fake_okeys") else "okey_left"]
    if rule == "opening_bonus":
        key = "bonus_pairs" if step["opened"] == "pairs" else "bonus_series"
        return words[key].format(opening=step["opening"])
    if rule == "penalty":
        return _penalty_reason(step, lang)
    return words.get(rule, rule)


def _penalty_reason(step: Mapping[str, Any], lang: str) -> str:
    words = _WORDS[lang]
    kind = step["kind"]
    if kind == "custom":
        return step.get("note") or PENALTY_NAMES[lang]["custom"]
    if kind == "islek_discard" and "factor" in step:
        return f"{step['tile']} {TIMES} {step['factor']}, {words['islek_taken']}"
    if kind == "discard_used":
        used = f"used_okey_{step['used_for']}" if step["okey"] else f"used_{step['used_for']}"
        return f"{step['tile']} {TIMES} {step['factor']}, {words[used]}"
    if kind == "okey_taken" and step.get("exempt"):
        return words["partner_took_okey"]
    return PENALTY_NAMES[lang][kind]


def _tile_terms(step: Mapping[str, Any], lang: str) -> list[str]:
    """The sum inside the tiles: "41", "9 (okey)", "2 × 9 (sahte okey)"; okeys worth 0 left out."""
    words = _WORDS[lang]
    terms = []
    for count, value, word in (
        (step["okeys"], step.get("okey_value"), words["okey"]),
        (step["fake_okeys"], step.get("okey_number"), words["fake_okey"]),
    ):
        if count and value:
            each = f"{value} ({word})"
            terms.append(each if count == 1 else f"{count} {TIMES} {each}")
    if step["remaining"] or not terms:
        terms.insert(0, str(step["remaining"]))
    return terms


def _tiles_text(step: Mapping[str, Any], lang: str) -> str:
    """ "107 × 2 (çift açtı) × 2 (okeyle bitiş)", with okeys shown inside the sum."""
    terms = _tile_terms(step, lang)
    text = " + ".join(terms)
    factors = []
    if step["pair_multiplier"] != 1:
        factors.append(f"{TIMES} {step['pair_multiplier']} ({_WORDS[lang]['pair_opened']})")
    if step["multiplier"] != 1:
        factors.append(f"{TIMES} {step['multiplier']} ({FINISH_REASONS[lang][step['finish']]})")
    if not factors:
        return text
    if len(terms) > 1:
        text = f"({text})"
    return " ".join([text, *factors])


def turkish_accusative(number: int) -> str:
    """The number with its accusative suffix as written: 100'ü, 50'yi, 80'i, 9'u, 40'ı."""
    return f"{number}'{_ACCUSATIVE[_last_word(abs(number))]}"


# Suffix after the last spoken word of a number, by vowel harmony (and a buffer "y" after a vowel).
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


# --- Errors ---------------------------------------------------------------------------------

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
        return _RULE_WORDS[lang].format(path=path)
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
        "opening_above_max": "Oyuncu {seat}: {tiles} taşla en fazla {max} çift açılabilir.",
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
        "opening_above_max": "Player {seat}: {tiles} tiles open at most {max} pairs.",
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
        "fake_counted": "oyuncu {n}'{suffix} elinde sahte okey kaldı",
        "okey_counted": "oyuncu {n}'{suffix} elinde okey kaldı ve okey yüzü kadar sayılıyor",
        "okey_discard_used": "oyuncu {n}'{suffix} attığı okey işlendi",
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
        values["reason"] = words[reason].format(n=n, suffix=_genitive_suffix(n))
    if "lo" in values or "hi" in values:
        lo, hi = values.get("lo"), values.get("hi")
        key = "between" if None not in (lo, hi) else "at_most" if lo is None else "at_least"
        values["bounds"] = words[key].format(lo=lo, hi=hi)
    if "choices" in values and not isinstance(values["choices"], str):
        values["choices"] = ", ".join(str(choice) for choice in values["choices"])
    return ERRORS[lang][code].format(**values)


def _genitive_suffix(n: int) -> str:
    # "oyuncu 1'in, 2'nin, 3'ün, 4'ün" — only seats 1..4 occur.
    return {1: "in", 2: "nin", 3: "ün", 4: "ün"}.get(n, "in")
