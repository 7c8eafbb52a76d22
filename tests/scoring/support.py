"""Paths and small builders shared by the scoring tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED = REPO_ROOT.parent / "shared"


# What a ruleset stored before the house-rule extensions holds once validated: every extension
# filled in as off (RULES.md: a missing key means the rule is off).
EXTENSIONS_OFF = {"riziko": None, "colours": None, "last_hand_multiplier": None}


def filled(rules: dict[str, Any]) -> dict[str, Any]:
    """`rules` with the extensions it lacks filled in as off."""
    return {**EXTENSIONS_OFF, **rules}


def load_shared(name: str) -> Any:
    """A JSON file of ../shared, read at test time (never copied into the repository)."""
    return json.loads((SHARED / name).read_text(encoding="utf-8"))


def hand_request(
    players: list[dict[str, Any]],
    rules: Any = "cetele-standart",
    teams: bool | None = None,
    **hand: Any,
) -> dict[str, Any]:
    """A request; the hand's finisher defaults to seat 0."""
    request: dict[str, Any] = {"rules": rules, "hand": {"finisher": 0, **hand, "players": players}}
    if teams is not None:
        request["teams"] = teams
    return request


def four(*players: dict[str, Any]) -> list[dict[str, Any]]:
    """Four seats: seat 0 opened series (the usual finisher), then `players`, then non-openers."""
    seats = [{"opened": "series"}, *players]
    return seats + [{"opened": "no"}] * (4 - len(seats))
