"""The join link's pages as they are drawn for a joined phone (its row, the others' rows, its
gösterge, the sheet) and the join link on the scorer's share page: built here, once, for the
views that answer them (cetele.seats.views, cetele.deal.views, cetele.sharing.views), which
import this module and never each other."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from cetele.deal.indicator import indicator_json, open_indicator
from cetele.deal.pages import indicator_context
from cetele.live.schedule import rows_every
from cetele.matches.pages import sheet_context
from cetele.models import Match
from cetele.seats.claims import claim_of, taken_seats
from cetele.seats.drafts import open_position, rows_seen, table_rows
from cetele.seats.forms import PlayerRow, RotateJoinForm
from cetele.seats.rows import Rows
from cetele.sharing.links import JOIN, TOKEN_FIELDS, PolledMatch
from cetele.sharing.pages import qr_svg


def row_status(request, match, lines, *, error=False) -> TemplateResponse:
    """The answer to a row sent by htmx: what became of it, where the phone shows it."""
    context = {"lines": lines, "error": error}
    return TemplateResponse(request, "cetele/seats/_row_status.html", context)


def no_seat(request: HttpRequest, match: Match) -> HttpResponse:
    """A row from a phone that holds no seat here (never joined, freed, or the link rotated):
    nothing is written."""
    message = _("Bu maçta henüz adınızı seçmediniz: önce adınızı seçin.")
    if request.htmx:
        return row_status(request, match, [message], error=True)
    messages.error(request, message)
    return redirect("seats:join_match", match.join_token)


def rows_url(match: Match, role: str, position: int | None) -> str:
    """The rows' poll, naming what the page shows: the sheet's version, the rows' version and
    the hand's place (a phone's own row moves on when the hand is saved)."""
    name = "seats:join_rows" if role == JOIN else "seats:seat_rows"
    token = getattr(match, TOKEN_FIELDS[role])
    return (
        f"{reverse(name, args=[token])}?v={match.version}&d={match.draft_version}&p={position or 0}"
    )


def joined_page(
    request, match: Match, seat: int, row: PlayerRow | None = None, status: int = 200
) -> TemplateResponse:
    """A joined phone's page: its own row of the open hand, large; what the others wrote; the
    sheet as the view link shows it."""
    players = list(match.players.all())
    position = open_position(match)
    table = table_rows(match, players, position)
    if row is None and position is not None:
        written = next((state.row for state in table if state.seat == seat), None)
        row = PlayerRow(match, players[seat], position=position, row=written)
    context = {
        **sheet_context(match, role=JOIN, rows_poll=True),
        "player": players[seat],
        "position": position,
        "row": row,
        "table": table,
        "any_joined": True,  # this phone has
        "rows_url": rows_url(match, JOIN, position),
        "rows_every": rows_every(),
        "own_seat": seat,
        **indicator_context(match, players, position),
    }
    return TemplateResponse(request, "cetele/seats/joined.html", context, status=status)


def draw_rows(pk: int, role: str) -> Rows:
    """Read the open hand's rows and draw their section: what a rows' answer costs once."""
    match = Match.objects.get(pk=pk)
    position = open_position(match)
    if position is None:
        return Rows(None, mark_safe(""))
    table = table_rows(match, list(match.players.all()), position)
    context = {
        "match": match,
        "position": position,
        "table": table,
        "any_joined": any(state.joined or state.row for state in table),
        "rows_url": rows_url(match, role, position),
        "rows_every": rows_every(),
        "role": role,
        # The rows as the scorer's form takes them (seats.js): a save names those it has shown.
        "rows_seen": rows_seen(table),
        # The gösterge kept for this hand: the scorer's page takes it into the hand form
        # (seats.js); a joined phone's gösterge section is drawn again when the sheet changed.
        "indicator_json": indicator_json(open_indicator(match, position)),
    }
    return Rows(position, mark_safe(render_to_string("cetele/seats/_rows.html", context)))


def joined_extras(request, state: PolledMatch, position: int, sheet_changed: bool) -> dict:
    """What a joined phone's rows' answer draws beside the kept section, for this phone: its
    gösterge section when the sheet changed, and its row again once the hand it was writing
    for was saved (each a form: never kept)."""
    claim_moved = request.GET.get("p") != str(position)
    if not sheet_changed and not claim_moved:
        return {}
    match = Match.objects.get(pk=state.pk)
    players = list(match.players.all())
    extras: dict = {"position": position}
    if sheet_changed:
        extras["indicator_section"] = indicator_context(match, players, position)
    claim = claim_of(request, match) if claim_moved else None
    if claim is not None:
        # The hand this phone was writing for was saved: its row starts again, for this one.
        extras.update(
            fresh_row=PlayerRow(match, players[claim.seat], position=position),
            player=players[claim.seat],
            token=match.join_token,
            notice=_("El kaydedildi: şimdi %(number)s. el için satırınızı yazın.")
            % {"number": position},
        )
    return extras


def share_context(request: HttpRequest, match: Match) -> dict:
    """The join link on the share page: the link, its QR code, who has joined, "Telefonu çıkar"
    and the rotation."""

    join_url = request.build_absolute_uri(reverse("seats:join_match", args=[match.join_token]))
    taken = taken_seats(match)
    return {
        "join_url": join_url,
        "join_qr": qr_svg(join_url),
        "join_seats": [(player, player.seat in taken) for player in match.players.all()],
        "join_rotate_form": RotateJoinForm(),
    }
