"""What every phone of a match sees the same, drawn once and kept: the live sheet, the players,
the next hand's empty form, and the sheet's whole pages (with each request's own values written
in: `kept_page`).

Nearly every page a table asks for is the çetele: the scorer's page after each save, and each
watching phone when its poll hears of the change. Until the match changes again all of them show
the same thing, and every change to what the sheet shows (a hand added, corrected, deleted or
undone, a renaming) bumps `Match.version` in the transaction that makes it. So the inside of the
sheet is rendered once per (match, version, link, language) and kept in this process's memory
(the "sheets" cache, cetele.settings.CACHES); the next phone gets it for one cache lookup instead
of three queries and the template engine, which were most of a page's time (bench/profile.py).

Why memory is enough, and correct behind a load balancer: a key is never written twice with
different contents (its version is read from the database by the request that uses it), so
there is nothing to invalidate and nothing to share; each app server draws a version at most
once. What the sheet shows beside its version is in the key: the link (its token, as a digest:
rotating a link changes every URL in the sheet) and the language; the row a save marks as just
saved is drawn for that save's answer only. Nothing inside varies with the request: no CSRF
token (the sheet has no form; "Rövanş" is with the hand form, match.html#hand_form), no clock
(how long the match has been quiet is an attribute of the <section> around it, written per
request). A request that reads the version just before another phone's save may draw the newer
hands under the older version: its phones then ask again at once (their poll names the older
version), and never see older hands than the version says. A database restored from a backup
while the app runs may reach a version number again with other contents: keys name the moment of
the change too (`stamp`). A deletion is the one thing that empties it, in every process: no page
of a deleted match may stay in memory (cetele.your_data.forgetting).
"""

import hashlib
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.messages import get_messages
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from cetele.hand_form.entry import new_request_token
from cetele.models import Match, Player
from cetele.sharing.links import EDIT
from cetele.tables.season import played_hand
from scoring.sentences import signed
from scoring.sheet import tally

SHEETS = "sheets"  # the cache alias: this process's memory (see settings)


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


def sheet_lines(numbers: list[int], rows: list, hand_url: str) -> list[SheetLine]:
    """The sheet's rows for the hands of these `numbers`, in order. `hand_url` is the first
    hand's link, of which each row's differs only by its number: reversed once, not 200 times
    (tests/web/test_page_speed.py checks every link against reverse())."""
    prefix = hand_url.removesuffix("1/")
    lines = []
    for position, (number, row) in enumerate(zip(numbers, rows, strict=True), start=1):
        href = f"{prefix}{number}/"
        cells = [
            Cell(f"{href}#score-{seat}", signed(score)) for seat, score in enumerate(row.scores)
        ]
        teams = [signed(score) for score in row.team_scores or ()]
        lines.append(SheetLine(str(number), str(position), href, cells, teams))
    return lines


def stamp(match: Match) -> str:
    """What names one state of one match in a key: its id and creation time (an id alone may
    name another match in a database restored from a backup, and in every test, whose
    transaction is rolled back), its version, and the moment of the change that made it (a
    restored database reaches a version number again with other contents, never at the same
    moment; `touched_at` is also moved by a day's first visit, which costs one drawing)."""
    created, changed = match.created_at.timestamp(), match.touched_at.timestamp()
    return f"{match.pk}:{created}:{match.version}:{changed}"


def board_key(match: Match, links: dict) -> str:
    """What names one drawing of the sheet: the match's state, the link (a digest of its token)
    and its role, the language."""
    token_digest = hashlib.sha256(links["token"].encode()).hexdigest()[:32]
    return f"{stamp(match)}:{links['role']}:{token_digest}:{get_language()}"


def board_for(match: Match, links: dict) -> Board:
    """The sheet of `match` at the version it was read at, as the link in `links` shows it
    (cetele.sharing.links.link_context), drawn now or taken from memory."""
    key = board_key(match, links)
    cache = caches[SHEETS]
    board = cache.get(key)
    if board is None:
        board = draw(match, links)
        cache.set(key, board)
    return board


def players_of(match: Match) -> list[Player]:
    """The match's players in seat order."""
    return list(match.players.all())


def draw(match: Match, links: dict) -> Board:
    """Read the hands (and, if not kept, the players) and render the sheet: what a miss costs."""
    players = players_of(match)
    hands = match.sheet_hands()
    sheet = tally([scores for _, scores, _, _ in hands], len(players), match.teams)
    hand_url = reverse(links["urls"]["hand"], args=[links["token"], 1])
    finished = len(hands) >= match.planned_hands
    context = {
        "match": match,
        "players": players,
        # As the chart and the summary read them (cetele/templatetags/pictures.py).
        "hands": [played_hand(scores, finisher, finish) for _, scores, finisher, finish in hands],
        "rows": sheet_lines([number for number, *_ in hands], sheet.rows, hand_url),
        "sheet": sheet,
        "played": len(hands),
        "finished": finished,
        **links,
    }
    return Board(
        html=mark_safe(render_to_string("cetele/_sheet.html", context)),
        title=", ".join(player.name for player in players),
        played=len(hands),
        finished=finished,
        **undo_buttons(match, links["role"]),
    )


def undo_buttons(match: Match, role: str) -> dict:
    """What "Geri al" and "Yinele" beside the sheet name, on the edit link only."""
    last = match.last_undoable_change() if role == EDIT else None
    redo = match.redoable_change() if role == EDIT else None
    return {
        "last_change": str(last.get_action_display()) if last else "",
        "last_change_id": last.pk if last else None,
        "redo_id": redo.pk if redo else None,
    }


def blank_hand_fields(match: Match, entry) -> SafeString:
    """The next hand's empty form (cetele/_hand_fields.html: every player's row, the preview's
    placeholder, the buttons), drawn once per match, language and players' names, and kept.

    It is what a save answers with and what the match page shows, and drawing it was the larger
    part of both (some sixty inputs); until a player is renamed it is the same for the next hand
    and every one after (the hand's place and its one-time token are outside it, in
    _hand_form.html). Only for an `entry` with nothing typed (HandEntry, not bound, not a
    correction): anything else is drawn as it is."""
    form_url = reverse("hand_create", args=[match.edit_token])
    key = players_form_key("fields", match.pk, form_url, entry.players)
    cache = caches[SHEETS]
    html = cache.get(key)
    if html is None:
        html = render_to_string("cetele/_hand_fields.html", {"entry": entry, "form_url": form_url})
        cache.set(key, html)
    return mark_safe(html)


def answer_key(match: Match, players: list[Player]) -> str:
    """What names a save's kept answer (cetele/matches/views.py saved_answer), but for the hand's
    place: the match (not its version), its edit link, the language and the players' names."""
    created = match.created_at.timestamp()
    return players_form_key("answer", f"{match.pk}:{created}", match.edit_token, players)


def players_form_key(kind: str, match_id, link: str, players: list[Player]) -> str:
    """The key of a kept form of `kind` for a match, a link of it, the language and the
    players' names (hashed: it holds the edit link)."""
    names = "\x1f".join(player.name for player in players)
    identity = f"{match_id}\x1e{link}\x1e{get_language()}\x1e{names}"
    return f"{kind}:" + hashlib.sha256(identity.encode()).hexdigest()


# --- Whole pages --------------------------------------------------------------------------------
# The sheet's page (the scorer's, with the next hand's form, and the view link's) is the same for
# every phone at a version but for a few values of each request: the CSRF token, the form's
# one-time token, the page's own address (where the language buttons lead back), how long the
# match has been quiet. So it is drawn once per version with a mark in place of each of them, kept,
# and each request gets a copy with its values written over the marks: the template engine's
# walk of base.html and the page, most of what was left of a page's time, is done once. A save's
# answer is kept the same way (cetele/matches/views.py saved_answer).
# The marks are random for each process, so no name or note a player types can hold one.
HOLE = f"cetele-{secrets.token_hex(16)}-"


def hole(name: str) -> str:
    """The mark a kept drawing holds where this request's value of `name` goes."""
    return f"{HOLE}{name}"


def kept_drawing(
    request: HttpRequest,
    template_name: str,
    key: str,
    context: Callable[[dict], dict],
    values: dict[str, str],
) -> bytes:
    """`template_name` drawn with `context(marks)`, where `marks` holds a mark for each of
    `values`' names, once per `key` (which names everything else it shows) and kept; returned
    with `values` (the CSRF token under "csrf") written, escaped, over the marks, as the bytes
    a response sends (UTF-8).

    It is kept cut at the marks, as [text, name, text, name, ..., text], and filled in one
    pass: writing each value over its marks went through the whole page once per value (a
    200-hand page is 140 KB)."""
    cache = caches[SHEETS]
    key = f"kept:{template_name}:{key}"
    parts = cache.get(key)
    if parts is None:
        marks = {name: hole(name) for name in values}
        drawn = {**context(marks), "csrf_token": marks["csrf"]}
        html = render_to_string(template_name, drawn, request)
        names = sorted(values, key=len, reverse=True)  # a longer name before its prefix
        parts = re.split(f"{re.escape(HOLE)}({'|'.join(map(re.escape, names))})", html)
        parts[0::2] = [text.encode() for text in parts[0::2]]  # encoded once, not per request
        cache.set(key, parts)
    pieces = list(parts)
    pieces[1::2] = [escape(values[name]).encode() for name in parts[1::2]]
    return b"".join(pieces)


def kept_page(
    request: HttpRequest,
    template_name: str,
    key: str,
    context: Callable[[dict], dict],
    *,
    quiet: int,
) -> HttpResponse:
    """`template_name` drawn with `context(values)`, once per `key` (which names everything the
    page shows but this request's values, given to `context` as their marks) and kept; each
    request gets it with its own values. A request with flash messages to show is drawn as it is:
    they are its own (and showing them uses them up)."""
    values = {
        "csrf": get_token(request),  # as {% csrf_token %} asks for it: the cookie is sent too
        "next": request.get_full_path(),
        "quiet": str(quiet),
        "request_token": new_request_token(),
    }
    if get_messages(request):
        return TemplateResponse(request, template_name, context(values))

    def page(marks: dict) -> dict:
        return {**context(marks), "language_next": marks["next"]}

    return HttpResponse(kept_drawing(request, template_name, key, page, values))
