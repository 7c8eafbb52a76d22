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

from cetele.deal.forms import DealerForm, IndicatorForm, chips
from cetele.deal.indicator import Indicator, ScorersIndicator, open_indicator, set_indicator
from cetele.live.board import players_of
from cetele.models import Match
from cetele.seats.claims import SeatFreed, claim_of, seat_held
from cetele.seats.drafts import HandClosed, open_position
from cetele.sharing.links import EDIT, JOIN, match_by_token, secret_link


def set_by(indicator: Indicator | None, players: list) -> str:
    """Who showed the gösterge, as the joined phones say it ("Ayşe gösterdi")."""
    if indicator is None:
        return ""
    if indicator.seat is None or indicator.seat >= len(players):
        return _("çeteleyi tutan gösterdi")
    return _("%(name)s gösterdi") % {"name": players[indicator.seat].name}


def indicator_context(match: Match, players: list, position: int | None, form=None) -> dict:
    """A joined phone's gösterge section (cetele/deal/_indicator_form.html): the one kept for
    the open hand, or the posted one with its errors."""
    indicator = open_indicator(match, position)
    riziko = match.ruleset().riziko is not None
    if form is not None and form.is_bound and not form.is_valid():
        values = (form["colour"].value(), form["indicator"].value())
        fake = "riziko" in form.fields and form["riziko"].value()
        errors = form.error_lines()
    else:
        values = (indicator.colour, indicator.number) if indicator else (None, None)
        fake, errors = bool(indicator and indicator.fake), []
    return {
        "position": position,
        "indicator": indicator,
        "indicator_by": set_by(indicator, players),
        "indicator_chips": chips(*values, fake, riziko=riziko, id_prefix="gosterge"),
        "indicator_errors": errors,
        "token": match.join_token,
    }


@require_POST
@secret_link(role=EDIT)
def join_indicator(request: HttpRequest, token: str) -> HttpResponse:
    """A joined phone sets the open hand's gösterge. Bad input is told and changes nothing; a
    gösterge for a hand already saved, or where the scorer has set another, is told and
    dropped (it may have waited on the phone without signal: seats.js)."""
    from cetele.seats.views import no_seat  # the seats' views import the matches' views

    match = match_by_token(JOIN, token)
    claim = claim_of(request, match)
    if claim is None:
        return no_seat(request, match)
    players = players_of(match)
    form = IndicatorForm(request.POST, ruleset=match.ruleset())
    if not form.is_valid():
        if request.htmx:  # said on the status line; the chips stay as tapped
            context = indicator_context(match, players, open_position(match), form)
            return TemplateResponse(request, "cetele/deal/_indicator_form.html#status", context)
        for line in form.error_lines():
            messages.error(request, line)
        return redirect("join_match", match.join_token)
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
            return redirect("join_match", match.join_token)
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
            return redirect("join_match", match.join_token)
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
    return redirect("join_match", match.join_token)


@require_POST
@secret_link(role=EDIT)
def match_dealer(request: HttpRequest, token: str) -> HttpResponse:
    """ "Dağıtan": who deals the first hand, while it is being entered; every later hand's
    dealer follows from it."""
    match = match_by_token(EDIT, token)
    players = players_of(match)
    form = DealerForm(request.POST, players=players)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, _("%(error)s Hiçbir şey değişmedi.") % {"error": error})
        return redirect("match_detail", match.edit_token)
    seat = form.cleaned_data["first_dealer"]
    if not match.set_first_dealer(seat):
        messages.error(
            request,
            _("İlk el kaydedildi: dağıtan artık sırayla geçer. Hiçbir şey değişmedi."),
        )
        return redirect("match_detail", match.edit_token)
    messages.success(request, _("İlk eli %(name)s dağıtıyor.") % {"name": players[seat].name})
    return redirect("match_detail", match.edit_token)
