"""Sharing a match: the share page and link rotation (edit link), the read-only pages reached
through the view link, and the pages every link shares, one view each whose URL names the role
(the sheet's live poll; a hand and the exports, for the view and the join link).

Every view here wears `secret_link` (cetele.sharing.links): same 404 for every bad link, noindex
and no caching. Viewer views are GET-only and never put the edit token in what they render.
"""

from csp.decorators import csp_exempt
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from cetele.matches.exports import match_csv, match_json
from cetele.matches.forms import RotateLinkForm
from cetele.matches.pages import get_hand, read_only_hand_page, sheet_context, sheet_page
from cetele.models import Match
from cetele.seats.claims import claim_of
from cetele.seats.pages import share_context as join_share_context
from cetele.sharing.links import (
    EDIT,
    JOIN,
    VIEW,
    PolledMatch,
    hand_over,
    polled_match,
    secret_link,
)
from cetele.sharing.pages import (
    attachment,
    export_parts,
    qr_svg,
    rotation_refused,
    standings_message,
)
from cetele.tea.card import match_card
from scoring.sheet import tally

# --- The editor's share page ----------------------------------------------------------------


@require_safe
@secret_link(role=EDIT)
def match_share(request: HttpRequest, match: Match) -> TemplateResponse:
    """Both links with copy and share buttons, the QR code, the standings as a message."""
    players = list(match.players.all())
    hands = list(match.hands.all())
    sheet = tally([hand.scores for hand in hands], len(players), match.teams)
    view_url = request.build_absolute_uri(reverse("sharing:view_match", args=[match.view_token]))
    edit_url = request.build_absolute_uri(reverse("matches:match_detail", args=[match.edit_token]))
    names = [player.name for player in players]
    context = {
        "match": match,
        "players": players,
        "view_url": view_url,
        "edit_url": edit_url,
        "qr": qr_svg(view_url),
        "message": standings_message(
            names,
            teams=match.teams,
            planned_hands=match.planned_hands,
            sheet=sheet,
            link=view_url,
        ),
        "rotate_form": RotateLinkForm(),
        **join_share_context(request, match),  # "Masaya katıl" (cetele.seats)
    }
    return TemplateResponse(request, "cetele/sharing/share.html", context)


@require_POST
@secret_link(role=EDIT)
def match_rotate(request: HttpRequest, match: Match) -> HttpResponse:
    """Give the edit or the view link a new token; the old link stops working at once."""
    form = RotateLinkForm(request.POST)
    if not form.is_valid():
        back = reverse("sharing:match_share", args=[match.edit_token])
        return rotation_refused(request, form, request.path, back, _("Yeni izleme bağlantısı"))
    kind = form.cleaned_data["kind"]
    new = match.rotate_token(kind)
    if kind == EDIT:
        messages.success(
            request,
            _(
                "Yeni düzenleme bağlantısı hazır; eskisi artık açılmıyor. Çeteleyi tutan öteki "
                "telefonlara yenisini gönderin."
            ),
        )
    else:
        messages.success(
            request,
            _(
                "Yeni izleme bağlantısı hazır; eskisi artık açılmıyor. İzleyenlere yenisini "
                "gönderin."
            ),
        )
    return hand_over(request, redirect("sharing:match_share", match.edit_token), new)


# --- Live updates ----------------------------------------------------------------------------


# --- Read-only pages (view link) -------------------------------------------------------------


@require_safe
@secret_link(role=VIEW)
def view_match(request: HttpRequest, match: Match) -> HttpResponse:
    """The çetele, read-only, updating itself while the page is visible."""
    return sheet_page(request, match, "cetele/sharing/match_view.html", role=VIEW)


# --- Pages of the view and the join link: one view each, the role from the URL -----------------


# CSP is moot for a 204 or a fragment swapped into a page that already has it: skip its work.
@require_safe
@csp_exempt()
@secret_link(finds=polled_match)  # a poll, not a visit
def sheet_poll(request: HttpRequest, match: PolledMatch, role: str) -> HttpResponse:
    """A sheet's page learns of another phone's change: 204 with no body while the match is at
    the version the page shows (one indexed query), else the sheet at its new version. (htmx 2
    swaps nothing on 204; a 304 would blank it.)"""
    if request.GET.get("v") == str(match.version):
        return HttpResponse(status=204)
    match = Match.objects.get(pk=match.pk)  # it changed: now the whole match
    # The scorer's page, and a joined phone that has its seat, also ask for the open hand's
    # rows, which say when to ask for the sheet (sheet_context).
    with_rows = role == EDIT or (role == JOIN and claim_of(request, match) is not None)
    context = sheet_context(match, role=role, rows_poll=with_rows)
    if role == EDIT:
        # The scorer's tea card is drawn outside the sheet (its forms): another phone's tap
        # is news to it too, so it comes along, out of band, at the same version.
        context.update(match_card(match, context["finished"]), tea_oob=True)
    return TemplateResponse(request, "cetele/sharing/_sheet_answer.html", context)


@require_safe
@secret_link()
def view_hand(request: HttpRequest, match: Match, number: int, role: str) -> TemplateResponse:
    """One hand's scores with how each was computed, read-only; under the join link, "İtiraz"
    for a phone that has joined."""
    hand = get_hand(match, number)
    claim = claim_of(request, match) if role == JOIN else None
    return read_only_hand_page(request, match, hand, role, claim)


@require_safe
@secret_link()
def export_csv(request: HttpRequest, match: Match, role: str) -> HttpResponse:
    """Every hand, every score and the running totals, for a spreadsheet."""
    players, hands, sheet, hidden = export_parts(match)
    names = [player.name for player in players]
    content = match_csv(names, match.teams, hands, sheet, hide_totals=hidden)
    return attachment(content, "text/csv; charset=utf-8", match, "csv")


@require_safe
@secret_link()
def export_json(request: HttpRequest, match: Match, role: str) -> HttpResponse:
    """The whole match with its ruleset and each hand's inputs, to keep or check elsewhere."""
    players, hands, sheet, hidden = export_parts(match)
    content = match_json(match, players, hands, sheet, hide_totals=hidden)
    return attachment(content, "application/json; charset=utf-8", match, "json")
