"""What the pages of several links share: the QR code of a link, the refused rotation's page
(matches', tables' and house presets' links), an export's parts and its attachment (the view
and the join link's), and the standings as a message. Here, apart from the views, because
views of several concepts use them and views never import one another."""

import segno
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from cetele.matches.forms import RotateLinkForm
from cetele.matches.stats import drawn
from cetele.models import Match
from scoring.sentences import signed
from scoring.sheet import Sheet, tally


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
    return TemplateResponse(request, "cetele/sharing/rotate_refused.html", context)


def export_parts(match: Match) -> tuple[list, list, object, bool]:
    """What an export of the view or the join link holds, and whether its totals are hidden
    ("gizli toplam", as that link's sheet: Match.totals_hidden)."""
    players = list(match.players.all())
    hands = list(match.hands.all())
    sheet = tally([hand.scores for hand in hands], len(players), match.teams)
    return players, hands, sheet, match.totals_hidden(len(hands))


def attachment(content: str, content_type: str, match: Match, extension: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    name = f"cetele-{match.created_at:%Y-%m-%d}.{extension}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# --- The standings as a message --------------------------------------------------------------


def standings_message(
    names: list[str], *, teams: bool, planned_hands: int, sheet: Sheet, link: str = ""
) -> str:
    """A few lines to send to a messaging app: hands played, totals by place, the leader."""
    played = len(sheet.rows)
    finished = played >= planned_hands
    if finished:
        head = _("Çetele: maç bitti (%(planned)s el)") % {"planned": planned_hands}
    else:
        head = _("Çetele: %(played)s / %(planned)s el oynandı") % {
            "played": played,
            "planned": planned_hands,
        }
    lines = [head]
    if teams:
        sides = [f"{names[a]} & {names[b]}" for a, b in ((0, 2), (1, 3))]
        totals, places, leaders = sheet.team_totals, sheet.team_places, sheet.team_leaders
    else:
        sides, totals, places, leaders = names, sheet.totals, sheet.places, sheet.leaders
    if played:
        for index in sorted(range(len(sides)), key=lambda i: (places[i], i)):
            lines.append(f"{places[index]}. {sides[index]}: {signed(totals[index])}")
        best = ", ".join(sides[index] for index in sorted(leaders))
        if finished and drawn(sheet, teams):
            lines.append(_("Berabere"))
        elif finished:
            lines.append(_("Kazanan: %(names)s") % {"names": best})
        else:
            lines.append(_("Önde: %(names)s") % {"names": best})
    else:
        lines.append(_("Henüz el oynanmadı."))
    if link:
        lines.append(_("Canlı izleyin: %(link)s") % {"link": link})
    return "\n".join(lines)
