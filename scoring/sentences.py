"""Breakdown sentences: a seat's steps as a player reads them, in Turkish or English, e.g.
"107 × 2 (çift açtı) × 2 (okeyle bitiş) + 101 (100'ü geçti) = 529".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring import vocabulary as v
from scoring.names import COLOUR_REASONS, FINISH_REASONS, PENALTY_NAMES
from scoring.turkish import accusative

_WORDS = {
    "tr": {
        "partner_zero": "eşi bitirdi",
        "not_opened": "açamadı",
        "opened_flat": "açtı, sabit",
        "cifte_devam": "çifte devam",
        "kafa_halving": "kafa, eşi açtı",
        "pair_opened": "çift açtı",
        "okey": "okey",
        "fake_okey": "sahte okey",
        "okey_left": "okey kaldı",
        "fake_okey_left": "sahte okey kaldı",
        "okeys_left": "okey ve sahte okey kaldı",
        "over": "{threshold_acc} geçti",
        "bonus_series": "{opening} ile açtı",
        "bonus_pairs": "{opening} çift açtı",
        "islek_taken": "işlek taşı alındı",
        "partner_took_okey": v.PARTNER_TOOK_OKEY.tr,
        "used_series": "attığı taş seride kullanıldı",
        "used_pairs": "attığı taş çiftte kullanıldı",
        "used_okey_series": "attığı okey seride kullanıldı",
        "used_okey_pairs": "attığı okey çiftte kullanıldı",
        "riziko": "riziko",
        "last_hand": "son el",
    },
    "en": {
        "partner_zero": "partner finished",
        "not_opened": "did not open",
        "opened_flat": "opened, flat",
        "cifte_devam": "çifte devam",
        "kafa_halving": "kafa, partner opened",
        "pair_opened": "opened pairs",
        "okey": "okey",
        "fake_okey": "fake okey",
        "okey_left": "okey left",
        "fake_okey_left": "fake okey left",
        "okeys_left": "okey and fake okey left",
        "over": "over {threshold}",
        "bonus_series": "opened with {opening}",
        "bonus_pairs": "opened {opening} pairs",
        "islek_taken": "playable tile taken",
        "partner_took_okey": v.PARTNER_TOOK_OKEY.en,
        "used_series": "discard used for a run",
        "used_pairs": "discard used for pairs",
        "used_okey_series": "okey discard used for a run",
        "used_okey_pairs": "okey discard used for pairs",
        "riziko": "riziko",
        "last_hand": "last hand",
    },
}

MINUS = "\N{MINUS SIGN}"
TIMES = "\N{MULTIPLICATION SIGN}"
DIVIDE = "\N{DIVISION SIGN}"


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

    Steps are applied in order; çifte devam and kafa halving only ever follow the fixed
    not-opened amount, so the usual precedence reads correctly. The house rules that multiply
    the whole score (colour on everything, last hand) put what comes before them in brackets:
    "(20 + 101 (işlek taş attı)) × 5 (kırmızı) = 605".
    """
    parts: list[str] = []
    total = 0
    terms = 0  # terms added since the last bracket
    compound = False  # whether the sentence is more than one plain number with its reason
    for step in steps:
        total += step["points"]
        operator, text = _render(step, lang)
        compound = compound or bool(parts) or _is_expression(step)
        if step["rule"] in WHOLE_SCORE_RULES and terms > 1:
            parts, terms = [f"({' '.join(parts)})"], 1
        if operator in ("+", "-"):
            terms += 1
        if not parts:
            parts.append(MINUS + text if operator == "-" else text)
        else:
            parts.append(f"{MINUS if operator == '-' else operator} {text}")
    sentence = " ".join(parts)
    return f"{sentence} = {_number(total)}" if compound else sentence


# Steps that multiply everything before them in the seat's breakdown.
WHOLE_SCORE_RULES = ("colour", "last_hand")


def _is_expression(step: Mapping[str, Any]) -> bool:
    """A tiles step with a multiplier or okeys reads as a calculation, as does any amount a
    house rule multiplied; others read as one amount."""
    if step.get("factors"):
        return True
    if step["rule"] != "tiles":
        return False
    if step["pair_multiplier"] != 1 or step["multiplier"] != 1:
        return True
    terms = _tile_terms(step, "tr")
    return len(terms) > 1 or TIMES in terms[0]  # "2 × 1 (sahte okey)" is a calculation too


def signed(value: int | float) -> str:
    """A number as every page prints it: "−303" with the minus sign (U+2212), never a hyphen."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


_number = signed


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
    if rule in WHOLE_SCORE_RULES:
        return TIMES, _factor_text(step, lang)
    if step.get("factors"):  # a finish figure × k: "101 (normal bitiş) × 2 (riziko)"
        base = abs(points) // _k(step)
        return _sign(points), f"{base} ({_reason(step, lang)}) {_factors_text(step, lang)}"
    return _sign(points), f"{abs(points)} ({_reason(step, lang)})"


def _k(step: Mapping[str, Any]) -> int:
    k = 1
    for factor in step["factors"]:
        k *= factor["factor"]
    return k


def _factor_text(factor: Mapping[str, Any], lang: str) -> str:
    """ "2 (riziko)", "4 (mavi)", "10 (son el)"."""
    if "colour" in factor:
        reason = COLOUR_REASONS[lang][factor["colour"]]
    else:
        reason = _WORDS[lang][factor.get("reason") or factor["rule"]]
    return f"{factor['factor']} ({reason})"


def _factors_text(step: Mapping[str, Any], lang: str) -> str:
    return " ".join(f"{TIMES} {_factor_text(f, lang)}" for f in step.get("factors", ()))


def _reason(step: Mapping[str, Any], lang: str) -> str:
    words = _WORDS[lang]
    rule = step["rule"]
    if rule in ("winner", "not_opened", "opened_flat") and "finish" in step:
        base = FINISH_REASONS[lang][step["finish"]]
        return base if rule == "winner" else f"{words[rule]}, {base}"
    if rule == "pair_opener_over":
        threshold = step["threshold"]
        return words["over"].format(threshold=threshold, threshold_acc=accusative(threshold))
    if rule == "okey_left_penalty":
        # Name what was left: an okey, a fake okey, or both.
        okeys, fakes = step.get("okeys"), step.get("fake_okeys")
        key = "okeys_left" if okeys and fakes else "fake_okey_left" if fakes else "okey_left"
        return words[key]
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
    if step.get("factors"):
        factors.append(_factors_text(step, lang))
    if not factors:
        return text
    if len(terms) > 1:
        text = f"({text})"
    return " ".join([text, *factors])
