"""`python -m scoring bench`: the median time of one `score_json` call.

Times each call over the public vectors (`../shared/vectors/public.json`, beside the repository),
twice: with the rules given as a preset slug, and as a match's frozen copy of the full ruleset.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

from scoring.contract import resolve_rules, score_json

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors" / "public.json"

# Used only when the shared vectors are not there (e.g. a copy of the package on its own).
_FALLBACK = [
    {
        "rules": "cetele-standart",
        "hand": {
            "finisher": 0,
            "okey_finish": True,
            "players": [
                {"opened": "series"},
                {"opened": "pairs", "remaining": 107},
                {"opened": "series", "remaining": 10},
                {"opened": "no"},
            ],
        },
    }
]


def load_requests() -> list[dict[str, Any]]:
    if VECTORS.exists():
        return [vector["request"] for vector in json.loads(VECTORS.read_text(encoding="utf-8"))]
    return _FALLBACK


def median_us(requests: list[dict[str, Any]], rounds: int) -> tuple[float, int]:
    """Median µs of one score_json call, and how many calls were timed."""
    clock = time.perf_counter_ns
    samples = []
    for request in requests:  # warm the ruleset caches
        score_json(request)
    for _ in range(rounds):
        for request in requests:
            start = clock()
            score_json(request)
            samples.append(clock() - start)
    return statistics.median(samples) / 1000, len(samples)


def run(rounds: int = 2000) -> str:
    requests = load_requests()
    by_slug, runs = median_us(requests, rounds)
    frozen = [{**request, "rules": resolve_rules(request["rules"])} for request in requests]
    by_object, _ = median_us(frozen, max(1, rounds // 4))
    return (
        f"score_json: median {by_slug:.1f} µs per hand over {runs} runs "
        f"({len(requests)} hands, rules by preset slug)\n"
        f"score_json: median {by_object:.1f} µs per hand with the full ruleset object"
    )
