"""Small helpers that build matches, hands and the hand form's POST data for tests."""

import itertools

import scoring
from cetele.models import Match

_tokens = itertools.count(1)

NAMES = ["Ali", "Ayşe", "Can", "Deniz"]


def make_match(
    players: int = 4,
    *,
    teams: bool = False,
    preset: str = "cetele-standart",
    planned_hands: int = 13,
    hands: int = 0,
) -> Match:
    match = Match.start(
        NAMES[:players],
        teams=teams,
        planned_hands=planned_hands,
        rules=scoring.resolve_rules(preset),
        preset_slug=preset,
        base_rules=scoring.resolve_rules(preset),
    )
    for index in range(hands):
        add_hand(match, sample_inputs(players, finisher=index % players, remaining=index % 50))
    return match


def sample_inputs(players: int = 4, *, finisher: int | None = 0, remaining: int = 20) -> dict:
    """A plain hand: `finisher` goes out, the next seat opened with `remaining` left."""
    seats = []
    for seat in range(players):
        if seat == finisher:
            seats.append({"opened": "series"})
        elif seat == ((finisher or 0) + 1) % players:
            seats.append({"opened": "series", "remaining": remaining})
        else:
            seats.append({"opened": "no"})
    return {"finisher": finisher, "okey_finish": False, "kafa": False, "players": seats}


def add_hand(match: Match, inputs: dict):
    return match.add_hand(inputs, request_token=f"t{next(_tokens)}")


def form_data(
    inputs: dict, *, action: str = "save", token: str | None = None, version=None, position=None
) -> dict:
    """The hand form's POST data for a HAND object, as a browser would send it."""
    finisher = inputs.get("finisher")
    data = {
        "finisher": "none" if finisher is None else str(finisher),
        "action": action,
        "request_token": token if token is not None else f"form-{next(_tokens)}",
    }
    if version is not None:
        data["version"] = str(version)
    if position is not None:
        data["position"] = str(position)
    for key in ("riziko", "last_hand"):
        if inputs.get(key):
            data[key] = "on"
    if inputs.get("colour"):
        data["colour"] = inputs["colour"]
    if inputs.get("okey_finish"):
        data["okey_finish"] = "on"
    if inputs.get("kafa"):
        data["kafa"] = "on"
    if inputs.get("okey_number") is not None:
        # The form asks for the gösterge, whose next number is the okey's (13 gives 1).
        data["indicator"] = str((inputs["okey_number"] - 2) % 13 + 1)
    for seat, entry in enumerate(inputs["players"]):
        prefix = f"p{seat}-"
        data[prefix + "opened"] = entry.get("opened", "no")
        data[prefix + "okeys"] = str(entry.get("okeys", 0))
        data[prefix + "fake_okeys"] = str(entry.get("fake_okeys", 0))
        if entry.get("remaining") is not None:
            data[prefix + "remaining"] = str(entry["remaining"])
        if entry.get("opening") is not None:
            data[prefix + "opening"] = str(entry["opening"])
        if entry.get("cifte_devam"):
            data[prefix + "cifte_devam"] = "on"
        penalties = entry.get("penalties", [])
        data[prefix + "pen-TOTAL_FORMS"] = str(len(penalties))
        data[prefix + "pen-INITIAL_FORMS"] = "0"
        for index, event in enumerate(penalties):
            for key, value in event.items():
                name = f"{prefix}pen-{index}-{key}"
                if value is True:
                    data[name] = "on"
                elif value is not False:
                    data[name] = str(value)
    return data


def new_match_data(**overrides) -> dict:
    """The new-match form's POST data for four players on the standard table."""
    data = {
        "name_1": "Ali",
        "name_2": "Ayşe",
        "name_3": "Can",
        "name_4": "Deniz",
        "preset": "cetele-standart",
        "cezali": "1",
        "planned_hands": "5",
    }
    data.update(overrides)
    return data


def undo_form(match: Match) -> dict:
    """What the "Geri al" button beside the sheet posts: the change it was drawn for."""
    latest = match.last_undoable_change()
    return {"change": latest.pk if latest else ""}


def undo(match: Match):
    """Tap "Geri al" on a page drawn now."""
    return match.undo(match.last_undoable_change().pk)


def make_tournament(
    kind: str = "esli",
    *,
    layout: str | None = None,
    entrants: int = 4,
    games_per_pairing: int = 1,
    hands_per_game: int = 1,
    group_size: int = 4,
    advance: int = 2,
    rounds: int = 3,
    tables: int | None = None,
    drawn: bool = False,
    preset: str = "cetele-standart",
):
    """A tournament with `entrants` teams ("T1: A1, B1", …) or players ("P1", …), drawn if
    asked, through the organiser's own code (cetele.tournaments.play)."""
    from cetele.tournaments import play
    from cetele.tournaments.models import Tournament

    rules = scoring.resolve_rules(preset)
    tournament = Tournament.objects.create(
        name="Kupa",
        kind=kind,
        layout=layout or ("groups" if kind == "esli" else "tek_rounds"),
        rules=rules,
        preset_slug=preset,
        base_rules=rules,
        hands_per_game=hands_per_game,
        games_per_pairing=games_per_pairing,
        group_size=group_size,
        advance=advance,
        rounds=rounds,
        tables=tables,
        place_points=[3, 2, 1, 0],
    )
    if kind == "esli":
        entries = [(f"T{n}", (f"A{n}", f"B{n}")) for n in range(1, entrants + 1)]
    else:
        entries = [(f"P{n}", (f"P{n}",)) for n in range(1, entrants + 1)]
    play.add_entrants(tournament, entries)
    tournament.refresh_from_db()
    if drawn:
        play.draw(tournament, tournament.version)
        tournament.refresh_from_db()
    return tournament
