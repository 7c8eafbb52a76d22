"""Sharing a match: the share page and link rotation (edit link), the read-only pages reached
through the view link, the live poll, and the exports.

Every view here wears `secret_link` (cetele.sharing.links): same 404 for every bad link, noindex
and no caching. Viewer views are GET-only and never put
the edit token in what they render.
"""

import segno
from csp.decorators import csp_exempt
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from cetele.live.board import players_of
from cetele.matches.exports import match_csv, match_json
from cetele.matches.forms import RotateLinkForm
from cetele.matches.views import get_hand, hand_context, sheet_context, sheet_page
from cetele.models import Match
from cetele.seats.views import share_context as join_share_context
from cetele.sharing.links import (
    EDIT,
    TOKEN_FIELDS,
    VIEW,
    BadLink,
    hand_over,
    link_context,
    match_by_token,
    secret_link,
    standings_message,
)
from cetele.tea.views import match_card
from scoring.sheet import tally

# --- The editor's share page ----------------------------------------------------------------


def qr_svg(url: str) -> str:
    """The link as a QR code, inline SVG without any style attribute (our CSP forbids them).

    Python-written HTML where a template cannot do the work: the modules of the code are
    computed by segno (error correction, masking), which gives them as SVG path data; drawing
    that path in a template would mean re-implementing segno's writer."""
    code = segno.make_qr(url, error="m")
    svg = code.svg_inline(
        scale=1, dark="#000", light="#fff", svgclass=None, lineclass=None, omitsize=True
    )
    return mark_safe(svg)  # made by segno from our own URL: nothing a user typed


@require_safe
@secret_link(role=EDIT)
def match_share(request: HttpRequest, token: str) -> TemplateResponse:
    """Both links with copy and share buttons, the QR code, the standings as a message."""
    match = match_by_token(EDIT, token)
    players = players_of(match)
    hands = list(match.hands.all())
    sheet = tally([hand.scores for hand in hands], len(players), match.teams)
    view_url = request.build_absolute_uri(reverse("view_match", args=[match.view_token]))
    edit_url = request.build_absolute_uri(reverse("match_detail", args=[match.edit_token]))
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
    return TemplateResponse(request, "cetele/share.html", context)


def rotation_refused(
    request: HttpRequest, form: RotateLinkForm, action: str, back_url: str, view_label: str
) -> TemplateResponse:
    """A rotation without its tick (or naming no link): nothing changed; its form again, with
    why, posting to `action`, and the way back to the page it came from."""
    context = {
        "rotate_form": form,
        "action": action,
        "back_url": back_url,
        "view_label": view_label,
    }
    return TemplateResponse(request, "cetele/rotate_refused.html", context)


@require_POST
@secret_link(role=EDIT)
def match_rotate(request: HttpRequest, token: str) -> HttpResponse:
    """Give the edit or the view link a new token; the old link stops working at once."""
    match = match_by_token(EDIT, token)
    form = RotateLinkForm(request.POST)
    if not form.is_valid():
        back = reverse("match_share", args=[match.edit_token])
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
    return hand_over(request, redirect("match_share", match.edit_token), new)


# --- Live updates ----------------------------------------------------------------------------


def poll(request: HttpRequest, role: str, token: str, rows_poll=None) -> HttpResponse:
    """204 with no body while the match is at the version the page shows (one indexed query),
    else the sheet at its new version. (htmx 2 swaps nothing on 204; a 304 would blank it.)
    `rows_poll(match)`: whether the page also asks for the open hand's rows (sheet_context)."""
    found = Match.objects.filter(**{TOKEN_FIELDS[role]: token}).values_list("pk", "version")
    if not found:
        raise BadLink()
    pk, version = found[0]
    if request.GET.get("v") == str(version):
        return HttpResponse(status=204)
    match = Match.objects.get(pk=pk)
    with_rows = role == EDIT or (rows_poll is not None and rows_poll(match))
    context = sheet_context(match, role=role, rows_poll=with_rows)
    if role == EDIT:
        # The scorer's tea card is drawn outside the sheet (its forms): another phone's tap
        # is news to it too, so it comes along, out of band, at the same version.
        context.update(match_card(match, context["finished"]), tea_oob=True)
    return TemplateResponse(request, "cetele/_sheet_answer.html", context)


# CSP is moot for a 204 or a fragment swapped into a page that already has it: skip its work.
@require_safe
@csp_exempt()
@secret_link(role=EDIT)
def match_poll(request: HttpRequest, token: str) -> HttpResponse:
    """An editor's page learns about another editor's save."""
    return poll(request, EDIT, token)


@require_safe
@csp_exempt()
@secret_link(role=VIEW)
def view_poll(request: HttpRequest, token: str) -> HttpResponse:
    """A viewer's page learns about new and corrected hands."""
    return poll(request, VIEW, token)


# --- Read-only pages (view link) -------------------------------------------------------------


@require_safe
@secret_link(role=VIEW)
def view_match(request: HttpRequest, token: str) -> HttpResponse:
    """The çetele, read-only, updating itself while the page is visible."""
    return sheet_page(request, match_by_token(VIEW, token), "cetele/match_view.html", role=VIEW)


@require_safe
@secret_link(role=VIEW)
def view_hand(request: HttpRequest, token: str, number: int) -> TemplateResponse:
    """One hand's scores with how each was computed, read-only."""
    match = match_by_token(VIEW, token)
    hand = get_hand(match, number)
    players = players_of(match)
    context = {**hand_context(match, hand, players, entry=None), **link_context(match, VIEW)}
    return TemplateResponse(request, "cetele/hand_view.html", context)


@require_safe
@secret_link(role=VIEW)
def view_rules(request: HttpRequest, token: str) -> TemplateResponse:
    """The rules the match plays by."""
    match = match_by_token(VIEW, token)
    context = {"match": match, **link_context(match, VIEW)}
    return TemplateResponse(request, "cetele/match_rules.html", context)


def export_parts(token: str, role: str = VIEW) -> tuple[Match, list, list, object, bool]:
    """What an export of the view or the join link holds, and whether its totals are hidden
    ("gizli toplam", as that link's sheet: Match.totals_hidden)."""
    match = match_by_token(role, token)
    players = players_of(match)
    hands = list(match.hands.all())
    sheet = tally([hand.scores for hand in hands], len(players), match.teams)
    return match, players, hands, sheet, match.totals_hidden(len(hands))


def attachment(content: str, content_type: str, match: Match, extension: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    name = f"cetele-{match.created_at:%Y-%m-%d}.{extension}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_safe
@secret_link(role=VIEW)
def view_export_csv(request: HttpRequest, token: str) -> HttpResponse:
    """Every hand, every score and the running totals, for a spreadsheet."""
    match, players, hands, sheet, hidden = export_parts(token)
    names = [player.name for player in players]
    content = match_csv(names, match.teams, hands, sheet, hide_totals=hidden)
    return attachment(content, "text/csv; charset=utf-8", match, "csv")


@require_safe
@secret_link(role=VIEW)
def view_export_json(request: HttpRequest, token: str) -> HttpResponse:
    """The whole match with its ruleset and each hand's inputs, to keep or check elsewhere."""
    match, players, hands, sheet, hidden = export_parts(token)
    content = match_json(match, players, hands, sheet, hide_totals=hidden)
    return attachment(content, "application/json; charset=utf-8", match, "json")
