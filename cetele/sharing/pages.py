"""What the pages of several links share: the QR code of a link, the refused rotation's page
(matches', tables' and house presets' links), and an export's parts and its attachment (the
view and the join link's). Here, apart from the views, because views of several concepts use
them and views never import one another."""

import segno
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.safestring import mark_safe

from cetele.live.board import players_of
from cetele.matches.forms import RotateLinkForm
from cetele.models import Match
from cetele.sharing.links import match_by_token
from scoring.sheet import tally


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


def export_parts(token: str, role: str) -> tuple[Match, list, list, object, bool]:
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
