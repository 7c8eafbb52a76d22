"""A whole match as CSV (for a spreadsheet) and JSON (to keep it or check it elsewhere).

Numbers come from what the engine stored with each hand and from `scoring.sheet.tally`; nothing
is added up here.
"""

import csv
import io
import json

from django.utils.translation import gettext as _

import scoring
from cetele.shell.language import engine_lang
from scoring import labels
from scoring.sheet import TEAM_SEATS, Sheet

EXPORT_FORMAT = "cetele.match/1"
# A spreadsheet runs a cell starting with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Valid JSON that stays inert even if some client sniffs it as HTML.
JSON_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}


def _text_cell(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def team_names(names: list[str]) -> list[str]:
    return [f"{names[a]} & {names[b]}" for a, b in TEAM_SEATS]


def match_csv(
    names: list[str], teams: bool, hands: list, sheet: Sheet, *, hide_totals: bool = False
) -> str:
    """One row per hand (number, finish, each seat's score, the running totals), then the totals.
    `hide_totals` ("gizli toplam", Match.totals_hidden): the hands' scores only, as the sheet
    shows them then."""
    sides = team_names(names) if teams else []
    header = [_("El"), _("Bitiş"), *names, *sides]
    if not hide_totals:
        header += [_("%(name)s (toplam)") % {"name": name} for name in [*names, *sides]]
    lines = [[_text_cell(cell) for cell in header]]
    for position, (hand, row) in enumerate(zip(hands, sheet.rows, strict=True), start=1):
        line = [
            position,
            labels.finish_name(hand.result["finish"], engine_lang()),
            *row.scores,
            *(row.team_scores or ()),
        ]
        if not hide_totals:
            line += [*row.running, *(row.team_running or ())]
        lines.append(line)
    if not hide_totals:
        lines.append([_("Toplam"), "", *sheet.totals, *(sheet.team_totals or ())])
    out = io.StringIO()
    out.write("\ufeff")  # a byte-order mark, so that spreadsheet programs read UTF-8 (ç, ğ, ş)
    csv.writer(out, lineterminator="\r\n").writerows(lines)
    return out.getvalue()


def match_data(match, players: list, hands: list, sheet: Sheet, *, hide_totals=False) -> dict:
    """The match as plain data: enough to recompute every score with the same engine.
    `hide_totals` ("gizli toplam"): no running totals, totals or leaders (null), as the sheet."""
    data = {
        "format": EXPORT_FORMAT,
        "created_at": match.created_at.isoformat(),
        "players": [{"seat": player.seat, "name": player.name} for player in players],
        "teams": match.teams,
        "planned_hands": match.planned_hands,
        # A built-in preset by its slug; a house preset only by its name: its slug would be
        # its view key ("house:<token>"), and the rules themselves are exported below.
        "preset": match.preset_slug if match.preset_slug in scoring.PRESETS else "house",
        "preset_name": match.rules_name,
        "rules": match.rules,
        "hands": [
            {
                "number": position,
                "inputs": hand.inputs,
                "result": hand.result,
                "running": list(row.running),
            }
            for position, (hand, row) in enumerate(zip(hands, sheet.rows, strict=True), start=1)
        ],
        "totals": list(sheet.totals),
        "team_totals": list(sheet.team_totals) if match.teams else None,
        "leaders": sorted(sheet.leaders) if hands else [],
        "totals_hidden": hide_totals,
    }
    if hide_totals:
        for hand in data["hands"]:
            hand["running"] = None
        data.update(totals=None, team_totals=None, leaders=None)
    return data


def match_json(match, players: list, hands: list, sheet: Sheet, *, hide_totals=False) -> str:
    data = match_data(match, players, hands, sheet, hide_totals=hide_totals)
    text = json.dumps(data, ensure_ascii=False, indent=2)
    return text.translate(JSON_ESCAPES)
