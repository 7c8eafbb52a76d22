"""What a scorer types into the hand form, tap by tap: each tap is a preview htmx sends, the
last one is the hand as saved."""

from __future__ import annotations

import random

from bench.harness import sample_hand
from bench.loadtest.phones import Table


def table_hand(table: Table, rng: random.Random) -> dict:
    """A hand as this table's scorer enters it: with teams, the finisher's partner's row is left
    empty (the form says "eşi bitirdi, 0 yazar" and refuses a sum there)."""
    inputs = sample_hand(rng)
    if table.teams:
        partner = (inputs["finisher"] + 2) % 4
        inputs["players"][partner] = {"opened": "no", "okeys": 0, "fake_okeys": 0, "penalties": []}
    return inputs


def hand_taps(inputs: dict) -> list[dict[str, str]]:
    """The hand form's fields after each preview a scorer entering this hand asks for, in order:
    who finished (app.js clears that row: no sum, no okey), then each other player's row. A sum
    is one preview (the form asks 600 ms after the last key; a thumb types a sum's digits
    faster than that) and marks its player "Seri" (app.js); a "Çift" is a tap of its own, and
    "Açmadı" is what the row shows until then. Every row is set whole, so that a past hand's
    form (a correction) ends as this hand whatever it showed before."""
    finisher = inputs["finisher"]
    chosen = {"finisher": "none" if finisher is None else str(finisher)}
    if finisher is not None:
        chosen.update(
            {
                f"p{finisher}-remaining": "",
                f"p{finisher}-okeys": "0",
                f"p{finisher}-fake_okeys": "0",
            }
        )
    taps = [dict(chosen)]
    for seat, player in enumerate(inputs["players"]):
        if seat == finisher:
            continue
        chosen[f"p{seat}-opened"] = player["opened"]
        chosen[f"p{seat}-remaining"] = ""
        if player["opened"] == "pairs":
            taps.append(dict(chosen))
        if player.get("remaining") is not None:
            chosen[f"p{seat}-remaining"] = str(player["remaining"])
            taps.append(dict(chosen))
    taps[-1] = dict(chosen)  # a player who did not open: set, with no tap of its own
    return taps


def spread(taps: list[dict], count: int | None = None) -> list[dict]:
    """`count` previews of these taps (None: one a tap): fewer where taps coalesce, more where
    the scorer fixes a sum and types it again; the last is always the hand as saved."""
    if count is None:
        return list(taps)
    if count <= 0:
        return []
    return [taps[min(len(taps) - 1, round((n + 1) * len(taps) / count) - 1)] for n in range(count)]
