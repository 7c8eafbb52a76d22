"""The gösterge a joined phone sets (/k/<token>/gosterge/), the scorer's choice of the first
dealer (/m/<token>/dagitan/), and what the pages around them show of the deal.

The scorer sets the gösterge in the hand form itself (cetele.matches.views.enter_hand, action
"indicator"); both end in cetele.deal.indicator.set_indicator.
"""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget, trigger_client_event

from cetele.deal.forms import DealerForm, IndicatorForm
from cetele.deal.indicator import ScorersIndicator, set_indicator
from cetele.deal.pages import indicator_context
from cetele.models import Match
from cetele.seats.claims import SeatFreed, claim_of, seat_held
from cetele.seats.drafts import HandClosed, open_position
from cetele.seats.pages import no_seat
from cetele.sharing.links import EDIT, JOIN, secret_link


@require_POST
@secret_link(role=JOIN)
def join_indicator(request: HttpRequest, match: Match) -> HttpResponse:
    """A joined phone sets the open hand's gösterge. Bad input is told and changes nothing; a
    gösterge for a hand already saved, or where the scorer has set another, is told and
    dropped (it may have waited on the phone without signal: seats.js)."""
    claim = claim_of(request, match)
    if claim is None:
        return no_seat(request, match)
    players = list(match.players.all())
    form = IndicatorForm(request.POST, ruleset=match.ruleset())
    if not form.is_valid():
        if request.htmx:  # said on the status line; the chips stay as tapped
            context = indicator_context(match, players, open_position(match), form)
            return TemplateResponse(request, "cetele/deal/_indicator_form.html#status", context)
        for line in form.error_lines():
            messages.error(request, line)
        return redirect("seats:join_match", match.join_token)
    position = form.cleaned_data["position"]
    try:
        with seat_held(match, claim):
            set_indicator(match, position, form.indicator_for(claim.seat))
    except SeatFreed:
        return no_seat(request, match)
    except HandClosed as closed:
        notice = _("%(number)s. el kaydedildi; gösterge kullanılmadı.") % {"number": position}
        if not request.htmx:
            messages.error(request, notice)
            return redirect("seats:join_match", match.join_token)
        # The whole section again, for the hand open now; the match over, the sentence alone.
        context = indicator_context(match, players, closed.position)
        context["indicator_errors"] = [notice]
        template = "cetele/deal/_indicator_form.html" + ("" if closed.position else "#status")
        response = TemplateResponse(request, template, context)
        if closed.position:
            retarget(response, "#indicator")
            reswap(response, "outerHTML")
        trigger_client_event(response, "cetele:poll-now")  # the sheet has the saved hand
        return response
    except ScorersIndicator as scorers:
        notice = _(
            "Göstergeyi çeteleyi tutan gösterdi (%(okey)s); sizinki kullanılmadı. Yanlışsa ona "
            "söyleyin."
        ) % {"okey": scorers.kept.words}
        if not request.htmx:
            messages.error(request, notice)
            return redirect("seats:join_match", match.join_token)
        # The whole section again: its chips show the scorer's gösterge, not the phone's taps.
        context = indicator_context(match, players, position)
        context["indicator_errors"] = [notice]
        response = TemplateResponse(request, "cetele/deal/_indicator_form.html", context)
        retarget(response, "#indicator")
        return reswap(response, "outerHTML")
    if request.htmx:
        context = indicator_context(match, players, position)
        response = TemplateResponse(request, "cetele/deal/_indicator_form.html#status", context)
        # The sheet shows the okey: ask for it now.
        trigger_client_event(response, "cetele:poll-now")
        return response
    messages.success(request, _("Gösterge gösterildi: bütün telefonlar görüyor."))
    return redirect("seats:join_match", match.join_token)


@require_POST
@secret_link(role=EDIT)
def match_dealer(request: HttpRequest, match: Match) -> HttpResponse:
    """ "Dağıtan": who deals the first hand, while it is being entered; every later hand's
    dealer follows from it."""
    players = list(match.players.all())
    form = DealerForm(request.POST, players=players)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, _("%(error)s Hiçbir şey değişmedi.") % {"error": error})
        return redirect("matches:match_detail", match.edit_token)
    seat = form.cleaned_data["first_dealer"]
    if not match.set_first_dealer(seat):
        messages.error(
            request,
            _("İlk el kaydedildi: dağıtan artık sırayla geçer. Hiçbir şey değişmedi."),
        )
        return redirect("matches:match_detail", match.edit_token)
    messages.success(request, _("İlk eli %(name)s dağıtıyor.") % {"name": players[seat].name})
    return redirect("matches:match_detail", match.edit_token)
