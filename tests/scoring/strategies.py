"""Hypothesis strategies: valid rulesets (presets with random overrides) and valid requests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from scoring import PRESETS, deep_merge, validate_ruleset
from scoring.model import PENALTY_AMOUNT_KEYS

KINDS = ("normal", "kafa", "pairs", "okey", "okey_kafa", "pairs_okey")
SIMPLE_EVENTS = (
    "okey_discard",
    "take_back",
    "failed_open",
    "side_take_unused",
    "okey_from_per_unused",
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def finish_rows(draw, with_winner: bool = True) -> dict[str, int]:
    row = {"opened_multiplier": draw(st.integers(1, 8)), "not_opened": draw(st.integers(0, 2000))}
    if with_winner:
        row["winner"] = draw(st.integers(-1000, 0))
    return row


@st.composite
def bonus_tiers(draw) -> list[dict[str, int]]:
    count = draw(st.integers(1, 3))
    series = sorted(draw(st.sets(st.integers(101, 250), min_size=count, max_size=count)))
    pairs = sorted(draw(st.sets(st.integers(5, 11), min_size=count, max_size=count)))
    return [
        {"series": s, "pairs": p, "points": draw(st.integers(-500, 0))}
        for s, p in zip(series, pairs, strict=True)
    ]


@st.composite
def penalty_tables(draw) -> dict[str, Any]:
    table: dict[str, Any] = {"okey_taken_partner_exempt": draw(st.booleans())}
    for key in PENALTY_AMOUNT_KEYS:
        amounts = st.integers(1, 20) if key == "islek_taken_factor" else st.integers(0, 300)
        table[key] = draw(st.none() | amounts)
    return table


@st.composite
def rulesets(draw, cezali: bool | None = None) -> dict[str, Any]:
    """A full, valid ruleset dict: a preset with some of its parameters changed."""
    rules = PRESETS[draw(st.sampled_from(list(PRESETS)))].rules
    override: dict[str, Any] = {}
    candidates = {
        "cezali": st.booleans(),
        "kafa_requires_nobody_opened": st.booleans(),
        "pair_opener_multiplier": st.integers(1, 4),
        "pair_opener_over": st.none()
        | st.fixed_dictionaries({"threshold": st.integers(0, 200), "penalty": st.integers(0, 300)}),
        "okey_left": st.fixed_dictionaries(
            {
                "counts": st.just("face") | st.integers(0, 202),
                "penalty": st.integers(0, 202),
                "fake_too": st.booleans(),
            }
        ),
        "teams": st.fixed_dictionaries(
            {"winner_partner_zero": st.booleans(), "kafa_halving": st.booleans()}
        ),
        "cifte_devam_factor": st.none() | st.integers(1, 4),
        "opening_bonus": st.none() | bonus_tiers(),
        "discard_used": st.none()
        | st.fixed_dictionaries(
            {key: st.integers(0, 50) for key in ("series", "pairs", "okey_series", "okey_pairs")}
        ),
        "penalties": penalty_tables(),
    }
    for key, strategy in candidates.items():
        if draw(st.booleans()):  # change about half of the parameters
            override[key] = draw(strategy)
    if draw(st.booleans()):
        override["finishes"] = {kind: draw(finish_rows()) for kind in KINDS}
        override["finishes"]["none"] = draw(finish_rows(with_winner=False))
    if draw(st.booleans()):
        override.setdefault("finishes", {})["pairs_kafa"] = draw(finish_rows())
    if cezali is not None:
        override["cezali"] = cezali
    return deep_merge(rules, override)


def _events(rules, seat: int, seats: int):
    options = [
        st.fixed_dictionaries(
            {"kind": st.just("custom"), "points": st.integers(-500, 500)},
            optional={"note": st.text(max_size=10)},
        )
    ]
    if rules.cezali:
        amounts = rules.penalties
        options += [
            st.just({"kind": kind}) for kind in SIMPLE_EVENTS if getattr(amounts, kind) is not None
        ]
        if amounts.islek_discard is not None:
            options.append(
                st.fixed_dictionaries(
                    {"kind": st.just("islek_discard")}, optional={"taken": st.just(False)}
                )
            )
        if amounts.islek_taken_factor is not None:
            options.append(
                st.fixed_dictionaries(
                    {
                        "kind": st.just("islek_discard"),
                        "taken": st.just(True),
                        "tile": st.integers(1, 13),
                    }
                )
            )
        others = [other for other in range(seats) if other != seat]
        if amounts.okey_taken is not None:
            options.append(
                st.fixed_dictionaries(
                    {"kind": st.just("okey_taken"), "by": st.sampled_from(others)}
                )
            )
        if rules.discard_used is not None:
            used_for = st.sampled_from(["series", "pairs"])
            kind = st.just("discard_used")
            options += [  # a plain tile names its number; an okey's defaults to okey_number
                st.fixed_dictionaries(
                    {"kind": kind, "used_for": used_for, "tile": st.integers(1, 13)},
                    optional={"okey": st.booleans()},
                ),
                st.fixed_dictionaries({"kind": kind, "used_for": used_for, "okey": st.just(True)}),
            ]
    return st.one_of(options)


@st.composite
def requests(draw, rules=None, teams=None, finished: bool = False) -> dict[str, Any]:
    """A valid score_json request (the okey number is always given); `finished`: someone did."""
    rules_dict = draw(rulesets() if rules is None else rules)
    ruleset = validate_ruleset(rules_dict)
    teams = draw(st.booleans() if teams is None else teams)
    seats = 4 if teams else draw(st.integers(2, 4))
    seat_numbers = st.integers(0, seats - 1)
    finisher = draw(seat_numbers if finished else st.none() | seat_numbers)
    opened = [draw(st.sampled_from(["no", "series", "pairs"])) for _ in range(seats)]
    hand: dict[str, Any] = {"finisher": finisher, "okey_number": draw(st.integers(1, 13))}
    if finisher is not None:
        if opened[finisher] == "no":
            opened[finisher] = draw(st.sampled_from(["series", "pairs"]))
        hand["okey_finish"] = draw(st.booleans())
        kafa_allowed = opened[finisher] == "series" or "pairs_kafa" in rules_dict["finishes"]
        if kafa_allowed and draw(st.booleans()):
            hand["kafa"] = True
            if ruleset.kafa_requires_nobody_opened:
                opened = [kind if seat == finisher else "no" for seat, kind in enumerate(opened)]
    okeys_left, fakes_left = 2, 2
    players = []
    for seat in range(seats):
        player: dict[str, Any] = {"opened": opened[seat]}
        if seat != finisher:
            player["remaining"] = draw(st.integers(0, ruleset.max_remaining))
            player["okeys"] = draw(st.integers(0, okeys_left))
            player["fake_okeys"] = draw(st.integers(0, fakes_left))
            okeys_left -= player["okeys"]
            fakes_left -= player["fake_okeys"]
        if opened[seat] != "no" and draw(st.booleans()):
            base = ruleset.opening.base(opened[seat])
            most = ruleset.tiles_dealt // 2 if opened[seat] == "pairs" else 300
            player["opening"] = draw(st.integers(base, max(base, most)))
        if ruleset.cifte_devam_factor and opened[seat] != "series" and draw(st.booleans()):
            player["cifte_devam"] = True
        player["penalties"] = draw(st.lists(_events(ruleset, seat, seats), max_size=3))
        players.append(player)
    hand["players"] = players
    return {"rules": rules_dict, "teams": teams, "hand": hand}
