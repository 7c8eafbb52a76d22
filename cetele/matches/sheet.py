"""The sheet as every link shows it: drawn once per version and kept (cetele.live.kept).

Nearly every page a table asks for is the çetele: the scorer's page after each save, and each
watching phone when its poll hears of the change. Until the match changes again all of them show
the same sheet, and every change to what the sheet shows (a hand added, corrected, deleted or
undone, a renaming) bumps `Match.version` in the transaction that makes it. So the inside of the
sheet (<section id="sheet">: the rows, the totals, the chart and the summary) is rendered once per
(match, version, link, language) and kept in the "sheets" cache (this process's memory,
cetele.settings.CACHES); the next phone gets it for one cache lookup instead of reading the hands
and walking the template, most of a page's time (bench/profile.py --cold). Beside it only the
next hand's empty fields and its gösterge's chips are kept (`empty_hand_fields`,
`empty_indicator_chips`, with the figures that justify them); the page around them, the form's
head and every answer are drawn per request by their views.

What the sheet shows beside its version is in its key (`board_key`, by cetele.live.kept's
`drawing_key`, whose docstring says why memory is enough): the link (its token, as a digest:
rotating a link changes every URL in the sheet), whom it is drawn for (`audience`: the scorer
sees every total, the table's phones none while "gizli toplam" hides them) and the language. An
objection raised or ended, and "gizli toplam" turned on or off, bump the version like a hand.
Nothing inside varies with the request: no CSRF token (the sheet has no form; the scorer's
"Doğru, kapat" buttons are drawn around it), no clock (how long the match has been quiet is an
attribute of the <section> around it, written per request). A request that reads the version just
before another phone's save may draw the newer hands under the older version: its phones then ask
again at once (their poll names the older version), and never see older hands than the version
says.
"""

import hashlib
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from cetele.deal.dealer import dealer_of
from cetele.deal.indicator import Indicator, open_indicator
from cetele.live.kept import FORMS, drawing_key, kept, state_stamp
from cetele.matches.stats import drawn
from cetele.models import Change, Match, Player, place_among
from cetele.sharing.links import EDIT
from cetele.tables.season import played_hand
from cetele.tea.tally import bill_text, tally_of
from cetele.tournaments.naming import MatchHeading, match_heading
from scoring.sentences import signed
from scoring.sheet import tally


@dataclass(frozen=True)
class Board:
    """The sheet as drawn, with what the page around it needs from the same reading."""

    html: SafeString  # the inside of <section id="sheet">
    title: str  # the players in seat order, "Ali, Ayşe, Can, Deniz" (the page's title)
    played: int
    finished: bool
    last_change: str  # what "Geri al" would undo (the edit link only), "" when nothing
    last_change_id: int | None  # the change "Geri al" names (its form carries it)
    redo_id: int | None  # the undo "Yinele" would reverse, None when none
    redo_change: str  # what "Yinele" brings back ("2. el düzeltildi"), "" when nothing
    # The gösterge of the hand being entered (cetele.deal), read with the sheet, and the rows'
    # version (Match.draft_version) it was read at. A colour tapped before its number moves only
    # that version, not the sheet's: the scorer's form starts from this one only while the rows'
    # version is still that (form_indicator).
    indicator: Indicator | None = None
    indicator_at: int = -1
    # The open objections, oldest first: the scorer's page lists them with their buttons,
    # drawn per request (a form), from this reading.
    open_objections: tuple["OpenObjection", ...] = ()
    # A tournament's game: which one (its pages say it above the sheet). Read with the sheet
    # and kept with it, so that a phone served the kept drawing asks nothing more.
    heading: MatchHeading | None = None


@dataclass(frozen=True)
class OpenObjection:
    """An open objection as the scorer's page lists it, with what its buttons need."""

    pk: int
    number: int  # the hand's number (its page's URL)
    position: int  # the hand's place on the sheet ("3. el")
    text: str  # "Ayşe: Puan yanlış (“…”)"


@dataclass(frozen=True)
class Cell:
    href: str  # the hand's page, at this player's score ("#score-2")
    text: str  # the score as pages print it ("−101")


@dataclass(frozen=True)
class SheetLine:
    """One row of the sheet as _sheet.html draws it: text, not numbers, so that drawing it is
    only writing strings (localising 2,000 integers was most of a 200-hand sheet's drawing)."""

    number: str  # the hand's number (data-hand: the scorer's page marks the row it just saved)
    position: str  # its place on the sheet, which links to the hand
    href: str
    cells: list[Cell]  # one per player
    team_scores: list[str]  # one per team in team play
    objections: tuple[str, ...] = ()  # the hand's open objections, as sentences


def objection_text(objection, players: list[Player]) -> str:
    """ "Ayşe: Puan yanlış (“40 değil 20”)": who objects, why, and their sentence if any."""
    text = f"{players[objection.seat].name}: {objection.get_reason_display()}"
    return f"{text} (“{objection.note}”)" if objection.note else text


def open_objections(
    match: Match, players: list[Player], numbers: list[int], number: int | None = None
) -> list[OpenObjection]:
    """The match's open objections (on hand `number` only, when given), oldest first; `numbers`
    are the hands' numbers in order (their places)."""
    found = match.objections.filter(outcome="")
    if number is not None:
        found = found.filter(hand_number=number)
    places = {hand: place for place, hand in enumerate(numbers, start=1)}
    return [
        OpenObjection(o.pk, o.hand_number, places.get(o.hand_number, 0), objection_text(o, players))
        for o in found
    ]


def by_hand(objections: list[OpenObjection]) -> dict[int, tuple[str, ...]]:
    """The objections' sentences by hand number, as the sheet's rows show them."""
    found: dict[int, list[str]] = {}
    for objection in objections:
        found.setdefault(objection.number, []).append(objection.text)
    return {number: tuple(texts) for number, texts in found.items()}


def sheet_lines(
    numbers: list[int], rows: list, hand_url: str, objections: dict | None = None
) -> list[SheetLine]:
    """The sheet's rows for the hands of these `numbers`, in order. `hand_url` is the first
    hand's link, of which each row's differs only by its number: reversed once, not 200 times
    (tests/web/matches/test_sheet_rows.py checks every link against reverse())."""
    prefix = hand_url.removesuffix("1/")
    lines = []
    for position, (number, row) in enumerate(zip(numbers, rows, strict=True), start=1):
        href = f"{prefix}{number}/"
        cells = [
            Cell(f"{href}#score-{seat}", signed(score)) for seat, score in enumerate(row.scores)
        ]
        teams = [signed(score) for score in row.team_scores or ()]
        marks = (objections or {}).get(number, ())
        lines.append(SheetLine(str(number), str(position), href, cells, teams, marks))
    return lines


def stamp(match: Match) -> str:
    """What names one state of one match in a key (cetele.live.kept.state_stamp)."""
    return state_stamp(match.pk, match.created_at, str(match.version), match.touched_at)


def audience(match: Match, role: str) -> str:
    """Who a drawing is for, as far as what it shows: the scorer (every total), or the table's
    phones (joined and view links) with "gizli toplam" on or off. Which hands were played is the
    version's (in `stamp`), so with it this names whether the totals are drawn."""
    if role == EDIT:
        return "scorer"
    return "hidden" if match.hidden_totals else "table"


def board_key(match: Match, links: dict) -> str:
    """What names one drawing of the sheet: the match's state, the link's role, whom the totals
    are drawn for, the link, the language."""
    seen_by = audience(match, links["role"])
    return drawing_key("sheet", stamp(match), links["role"], seen_by, token=links["token"])


def board_for(match: Match, links: dict) -> Board:
    """The sheet of `match` at the version it was read at, as the link in `links` shows it
    (cetele.sharing.links.link_context), drawn now or taken from memory."""
    return kept(board_key(match, links), lambda: draw(match, links))


def draw(match: Match, links: dict) -> Board:
    """Read the players and the hands and render the sheet: what a miss costs."""
    players = list(match.players.all())
    hands = match.sheet_hands()
    sheet = tally([scores for _, scores, _, _ in hands], len(players), match.teams)
    hand_url = reverse(links["urls"]["hand"], args=[links["token"], 1])
    finished = len(hands) >= match.planned_hands
    numbers = [number for number, *_ in hands]
    objections = open_objections(match, players, numbers)
    rows = sheet_lines(numbers, sheet.rows, hand_url, by_hand(objections))
    position = None if finished else len(hands) + 1
    indicator = open_indicator(match, position)
    # The tea tally: counts on the table's phones, the bill in the summary (cetele.tea). Every
    # drink bumps the version, so it is drawn with the sheet.
    tea = tally_of(match, players, sheet, finished)
    context = {
        "match": match,
        "players": players,
        # As the chart and the summary read them (cetele/templatetags/pictures.py).
        "hands": [played_hand(scores, finisher, finish) for _, scores, finisher, finish in hands],
        "rows": rows,
        # The open objections under the sheet, for the phones that cannot answer them.
        "objection_lines": [(line.position, text) for line in rows for text in line.objections],
        "sheet": sheet,
        "drawn": drawn(sheet, match.teams),
        "played": len(hands),
        "finished": finished,
        "totals_hidden": audience(match, links["role"]) == "hidden"
        and match.totals_hidden(len(hands)),
        # The hand being entered: who deals it and its okey, on every phone (cetele.deal).
        "open_position": position,
        "dealer": dealer_of(match, players, position) if position else None,
        "indicator": indicator,
        "tea": tea,
        "tea_text": bill_text(tea, ", ".join(p.name for p in players)) if finished else "",
        **links,
    }
    return Board(
        html=mark_safe(render_to_string("cetele/matches/_sheet.html", context)),
        title=", ".join(player.name for player in players),
        played=len(hands),
        finished=finished,
        indicator=indicator,
        indicator_at=match.draft_version,
        **undo_buttons(match, links["role"], numbers),
        open_objections=tuple(objections),
        heading=match_heading(match),
    )


def form_indicator(match: Match, board: Board) -> Indicator | None:
    """The gösterge the next hand's form starts from: the one drawn with the kept sheet while
    the match's rows' version is the one it was read at, else read now (a colour tapped alone
    bumps only that version: cetele.deal.indicator.set_indicator)."""
    if board.indicator_at == match.draft_version:
        return board.indicator
    return open_indicator(match, board.played + 1)


def undo_buttons(match: Match, role: str, numbers: list[int]) -> dict:
    """What "Geri al" and "Yinele" beside the sheet name, on the edit link only; `numbers` are
    the match's hands' (in order), by which "Geri al" names a hand by its place."""
    last = match.last_undoable_change() if role == EDIT else None
    redo = match.redoable_change() if role == EDIT else None
    place = place_among(numbers, last.hand_number) if last and last.hand_number else None
    actions = buttons(last, redo, place)
    if redo is not None:  # "↷ Yinele: 2. el düzeltildi": the change it brings back
        undone = redo.undoes
        at = place_among(numbers, undone.hand_number) if undone.hand_number else None
        actions["redo_change"] = undone.named(at)
    return actions


def buttons_after(change: Change, position: int) -> dict:
    """What undo_buttons gives right after a person's change `change` (a hand added at
    `position`): "Geri al" names it, and nothing is left for "Yinele" (a change after an undo
    ends what it could redo). Known without asking the database: a save's answer draws the bar
    from it."""
    return buttons(change, None, position)


def buttons(last: Change | None, redo: Change | None, place: int | None) -> dict:
    return {
        "last_change": last.named(place) if last else "",
        "last_change_id": last.pk if last else None,
        "redo_id": redo.pk if redo else None,
        "redo_change": "",
    }


# --- The next hand's empty fields -------------------------------------------------------------


def empty_hand_fields(match: Match, entry) -> SafeString:
    """The next hand's empty fields (cetele/hand_form/_hand_fields.html: every player's row, the
    preview's placeholder, the buttons), drawn once per match, language and players' names, and
    kept in the "forms" cache (the sheets' churn does not drop it). Only for an `entry` with
    nothing typed (a HandEntry not bound, not a correction): anything else is drawn as it is.

    Why it is kept: it is what a save answers with and what the scorer's page shows, and its some
    sixty inputs are most of drawing either. Drawn at every request, a save took 23 ms of CPU
    in-process (bench/profile.py all), 10 ms with them kept, and `make bench` saw it at 26-64 ms
    through gunicorn, 13-22 times the minimal view, far over the 10-ms budget
    (docs/performance.md). Nothing in it varies with the request or the hand's place: the CSRF
    token, the form's one-time token and the place are in _hand_form.html around it
    (tests/web/live/test_pages_never_stale.py checks that no phone's token is in another's page)."""
    form_url = reverse("matches:hand_create", args=[match.edit_token])
    names = "\x1f".join(player.name for player in entry.players)
    names_digest = hashlib.sha256(names.encode()).hexdigest()
    # The match whatever its version: no hand saved changes the empty fields.
    state = state_stamp(match.pk, match.created_at)
    key = drawing_key("fields", state, names_digest, token=match.edit_token)
    context = {"entry": entry, "form_url": form_url}
    return mark_safe(
        kept(
            key,
            lambda: render_to_string("cetele/hand_form/_hand_fields.html", context),
            FORMS,
        )
    )


def empty_indicator_chips(entry) -> SafeString:
    """The gösterge's chips with none chosen, and their errors' empty containers
    (cetele/hand_form/_hand_form.html#indicator_fields), as the next hand's form shows them until
    a phone sets the gösterge: drawn once per language and whether the rules have "sahte okey", and
    kept beside the empty fields. Only for an `entry` not bound whose gösterge nobody set: any
    chip checked, any error, is drawn as it is.

    Why it is kept: its 17 chips and the hand's own form made to draw the containers were most
    of drawing the next hand's form around the kept fields: with them kept, a save took 8.72
    times the minimal view through gunicorn instead of 10.00 (make bench, the two alternated
    three times, 2026-12-04; docs/performance.md).
    Nothing in it varies with the match, the request or the hand: no name, no link, no token."""
    key = drawing_key("chips", "", str(entry.has_riziko))
    template = "cetele/hand_form/_hand_form.html#indicator_fields"
    return mark_safe(kept(key, lambda: render_to_string(template, {"entry": entry}), FORMS))
