"""The hand form's values as the scoring engine's HAND object (RULES.md's JSON contract), and a
stored HAND object back as the form's initial values: the one place the two meet."""

from collections.abc import Iterable, Mapping

from cetele.deal.tiles import indicator_of, okey_of
from cetele.hand_form.forms import HOUSE_FACTS, NOBODY

# Which fields a penalty event of each kind carries (RULES.md, "Penalties").
PENALTY_FIELDS = {
    "islek_discard": ("taken", "tile"),
    "okey_taken": ("by",),
    "discard_used": ("okey", "used_for", "tile"),
    "custom": ("points", "note"),
}


def okey_number_of(hand: Mapping) -> int | None:
    """The okey's number: the one after the gösterge's, or (a hand kept on a phone before the
    gösterge was asked) as posted."""
    if hand.get("indicator") is not None:
        return okey_of(hand["indicator"])
    return hand.get("okey_number")


def hand_inputs(hand: Mapping, players: list[dict], *, last_hand: bool | None) -> dict:
    """The HAND object from the hand form's cleaned values and the players' entries
    (`seat_inputs`); `last_hand` only where the rules count the last hand apart (else None)."""
    inputs: dict = {
        "finisher": hand["finisher"],
        "okey_finish": hand["okey_finish"],
        "kafa": hand["kafa"],
    }
    okey_number = okey_number_of(hand)
    if okey_number is not None:
        inputs["okey_number"] = okey_number
    if hand["colour"]:  # a fact, always accepted; it counts where the rules have colours
        inputs["colour"] = hand["colour"]
    # A house fact is in the cleaned values only where the rules ask for it (HandLevelForm).
    inputs.update({name: hand[name] for name in HOUSE_FACTS if name in hand})
    if last_hand is not None:
        inputs["last_hand"] = last_hand
    inputs["players"] = players
    return inputs


def seat_inputs(seat: Mapping, *, finished: bool, penalties: Iterable[Mapping]) -> dict:
    """One player's entry of the HAND object from their row's cleaned values and the cleaned
    values of the penalty rows that count."""
    opened = seat["opened"]
    # The finisher opened by definition: a tap on "bitirdi" is enough for a series finish;
    # a pairs finish is "Çift" as usual.
    if finished and opened == "no":
        opened = "series"
    entry: dict = {"opened": opened, "okeys": seat["okeys"], "fake_okeys": seat["fake_okeys"]}
    if seat["remaining"] is not None:
        entry["remaining"] = seat["remaining"]
    if seat.get("opening") is not None:
        entry["opening"] = seat["opening"]
    if seat.get("cifte_devam"):
        entry["cifte_devam"] = True
    entry["penalties"] = [penalty_event(values) for values in penalties]
    return entry


def penalty_event(values: Mapping) -> dict:
    """A penalty row's cleaned values as the engine's event: its kind and the fields it carries."""
    kind = values["kind"]
    event: dict = {"kind": kind}
    for name in PENALTY_FIELDS.get(kind, ()):
        value = values.get(name)
        if value is None or value == "":
            continue
        event[name] = value
    return event


def initial_from_inputs(inputs: dict) -> dict:
    """Initial form values from a stored HAND object (to correct a past hand)."""
    finisher = inputs.get("finisher")
    hand = {
        "finisher": NOBODY if finisher is None else finisher,
        "okey_finish": inputs.get("okey_finish", False),
        "kafa": inputs.get("kafa", False),
        # The gösterge as the stored facts give it back: the okey's number less one (1 from 13),
        # the indicator's colour; a hand saved without them shows none.
        "indicator": indicator_of(okey) if (okey := inputs.get("okey_number")) else None,
        "colour": inputs.get("colour"),
        **{name: inputs.get(name, fact.absent) for name, fact in HOUSE_FACTS.items()},
    }
    seats = {}
    for seat, entry in enumerate(inputs.get("players", [])):
        remaining = entry.get("remaining")
        if remaining == 0 and (seat == finisher or entry.get("opened", "no") == "no"):
            remaining = None  # a 0 the engine never used: the form would refuse it as typed
        seats[seat] = {
            "opened": entry.get("opened", "no"),
            "remaining": remaining,
            "okeys": entry.get("okeys", 0),
            "fake_okeys": entry.get("fake_okeys", 0),
            "opening": entry.get("opening"),
            "cifte_devam": entry.get("cifte_devam", False),
            "penalties": [dict(event) for event in entry.get("penalties", [])],
        }
    return {"hand": hand, "seats": seats}
