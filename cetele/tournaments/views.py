"""The café tournament's pages: creating one, the organiser's page (edit link: entrants, draws,
results by hand, the printed table sheets) and the café's live page (view link).

Every view reached through a tournament link wears `secret_link` (cetele.sharing.links): the
same 404 for every bad link, 429 for an address that keeps guessing, noindex and no caching.
The view link's pages are GET-only and never hold an edit link: their tables link to each
game's match view link. Every form works without JavaScript (a POST, then the page again); the
live part of both pages follows the tables with an htmx poll answered 204 while nothing
changed (one aggregate query: cetele.tournaments.state.live_version).
"""

import logging

from django.contrib import messages
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from cetele.live.kept import drawing_key, kept, state_stamp
from cetele.live.push import stream_url
from cetele.live.schedule import live_context
from cetele.matches.pages import NOT_WRITTEN
from cetele.sharing.links import EDIT, VIEW, BadLink, hand_over, house_keys_guarded, secret_link
from cetele.sharing.pages import qr_svg
from cetele.templatetags.cetele import score
from cetele.tournaments import play, state
from cetele.tournaments.forms import (
    DrawForm,
    EntrantsForm,
    ResultForm,
    TournamentForm,
    WithdrawForm,
)
from cetele.tournaments.models import Tournament

logger = logging.getLogger(__name__)
TOKEN_FIELDS = {EDIT: "edit_token", VIEW: "view_token"}
LIVE_INSIDE = "cetele/tournaments/_live_inside.html"
URL_NAMES = {
    EDIT: {"page": "tournaments:tournament_detail", "poll": "tournaments:tournament_poll"},
    VIEW: {"page": "tournaments:view_tournament", "poll": "tournaments:view_tournament_poll"},
}


def tournament_by_token(role: str, token: str) -> Tournament:
    """The tournament this edit or view link opens, or BadLink (counted like any link's miss)."""
    try:
        tournament = Tournament.objects.get(**{TOKEN_FIELDS[role]: token})
    except Tournament.DoesNotExist as error:
        raise BadLink() from error
    tournament.touch()
    return tournament


def stale_sentence() -> str:
    return _(
        "Turnuva bu sayfa açıldıktan sonra başka bir yerden değişti; hiçbir şey yapılmadı. "
        "Sayfaya yeniden bakıp tekrar deneyin."
    )


# --- Creating a tournament ------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@house_keys_guarded(query=("preset",), form=("preset",))  # house:<key> is a key like /ev/<key>/
def tournament_create(request: HttpRequest) -> HttpResponse:
    """A new tournament: its settings and frozen rules; the entrants come next, on its page."""
    initial = {"preset": request.GET.get("preset")} if request.GET.get("preset") else None
    form = TournamentForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            tournament = Tournament.objects.create(**form.settings())
        except DatabaseError as error:
            logger.error("Tournament not created, the database refused the write: %s", error)
            form.add_error(None, NOT_WRITTEN)
            status = 503
        else:
            response = redirect("tournaments:tournament_detail", tournament.edit_token)
            return hand_over(request, response, tournament.edit_token, tournament.view_token)
    elif request.method == "POST":
        status = 400
    context = {"form": form}
    return TemplateResponse(request, "cetele/tournaments/create.html", context, status=status)


# --- The organiser's page -------------------------------------------------------------------


def page_context(request, tournament: Tournament, role: str) -> dict:
    """What both pages show; the version is read first, so that a change made while the page
    is read is brought by the next poll."""
    version = state.live_version(Tournament.objects.filter(pk=tournament.pk))
    picture = state.picture(tournament)
    return {
        "t": tournament,
        "p": picture,
        **live_section(
            request, role, token_of(tournament, role), version, lambda: (tournament, picture)
        ),
    }


def token_of(tournament: Tournament, role: str) -> str:
    return getattr(tournament, TOKEN_FIELDS[role])


def live_key(version: state.LiveVersion) -> str:
    """What names one drawing of the view link's live part (cetele.live.kept.drawing_key): the
    tournament's state, stamped as a match's is (its id and creation time, its live version,
    which counts its matches', and its last change), and the language. No link: it holds no
    link of the tournament's, and a game's view link rotated bumps that match's version."""
    tournament_state = state_stamp(version.pk, version.created_at, version.key, version.touched_at)
    return drawing_key("tournament", tournament_state)


def live_section(request, role: str, token: str, version: state.LiveVersion, read) -> dict:
    """What _live.html draws: the live part's inside — on the view link kept once drawn per
    live version (cetele.live.kept) — the organiser's drawn each time (its forms) — and
    the section's own attributes, per request. `read` gives (tournament, picture) when the
    inside must be drawn."""

    def draw(with_request=None) -> SafeString:
        tournament, picture = read()
        context = {"t": tournament, "p": picture, "role": role}
        return render_to_string(LIVE_INSIDE, context, request=with_request)

    inside = kept(live_key(version), draw) if role == VIEW else draw(request)
    return {
        "role": role,
        "token": token,
        "stream": stream_url(token),  # cetele.live.push
        "urls": URL_NAMES[role],
        "live_version": version.key,
        "live_inside": inside,
        **live_context(version.touched_at),
    }


def organiser_context(request, tournament, entrants_form=None) -> dict:
    context = page_context(request, tournament, EDIT)
    picture = context["p"]
    open_for_entrants = play.may_change_entrants(picture)
    if open_for_entrants and entrants_form is None:
        entrants_form = EntrantsForm(esli=tournament.esli, taken=[])
    view_url = request.build_absolute_uri(
        reverse("tournaments:view_tournament", args=[tournament.view_token])
    )
    context.update(
        {
            "entrants_form": entrants_form if open_for_entrants else None,
            "open_for_entrants": open_for_entrants,
            "view_url": view_url,
            "edit_url": request.build_absolute_uri(request.path),
        }
    )
    return context


@require_safe
@secret_link(role=EDIT, finds=None)
def tournament_detail(request: HttpRequest, token: str) -> TemplateResponse:
    tournament = tournament_by_token(EDIT, token)
    context = organiser_context(request, tournament)
    return TemplateResponse(request, "cetele/tournaments/detail.html", context)


@require_POST
@secret_link(role=EDIT, finds=None)
def tournament_entrants(request: HttpRequest, token: str) -> HttpResponse:
    """Teams or players typed or pasted, one per line."""
    tournament = tournament_by_token(EDIT, token)
    picture = state.picture(tournament)
    form = EntrantsForm(request.POST, esli=tournament.esli, taken=play.taken_names(picture))
    if form.is_valid():
        try:
            count = play.add_entrants(tournament, form.cleaned_data["entries"])
        except play.Refused as refused:
            messages.warning(request, refused.message)
        else:
            messages.success(request, _("%(count)s katılımcı eklendi.") % {"count": count})
        return redirect("tournaments:tournament_detail", tournament.edit_token)
    context = organiser_context(request, tournament, entrants_form=form)
    return TemplateResponse(request, "cetele/tournaments/detail.html", context, status=400)


@require_POST
@secret_link(role=EDIT, finds=None)
def tournament_withdraw(request: HttpRequest, token: str) -> HttpResponse:
    """An entrant withdraws (before the draw; tek: between rounds)."""
    tournament = tournament_by_token(EDIT, token)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        messages.warning(request, _("Hangi katılımcının çekileceği anlaşılamadı."))
    else:
        try:
            entrant = play.withdraw(
                tournament, form.cleaned_data["entrant"], form.cleaned_data["version"]
            )
        except play.Stale:
            messages.warning(request, stale_sentence())
        except play.Refused as refused:
            messages.warning(request, refused.message)
        else:
            messages.success(request, _("%(name)s çekildi.") % {"name": entrant.name})
    return redirect("tournaments:tournament_detail", tournament.edit_token)


@require_POST
@secret_link(role=EDIT, finds=None)
def tournament_draw(request: HttpRequest, token: str) -> HttpResponse:
    """ "Kura çek": groups or the league, the next knock-out round, the next tek round."""
    tournament = tournament_by_token(EDIT, token)
    form = DrawForm(request.POST)
    if not form.is_valid():
        messages.warning(request, stale_sentence())
        return redirect("tournaments:tournament_detail", tournament.edit_token)
    try:
        play.draw(tournament, form.cleaned_data["version"])
    except play.Stale:
        messages.warning(request, stale_sentence())
    except play.Refused as refused:
        messages.warning(request, refused.message)
    except DatabaseError as error:
        logger.error("Draw not made, the database refused the write: %s", error)
        messages.warning(request, NOT_WRITTEN)
    else:
        messages.success(request, _("Kura çekildi; masalar hazır."))
    return redirect("tournaments:tournament_detail", tournament.edit_token)


def game_or_404(picture: state.Picture, number: int) -> state.GameLine:
    for line in picture.games:
        if line.game.number == number:
            return line
    raise Http404(_("Bu turnuvada böyle bir oyun yok."))


def result_form(line: state.GameLine, data=None) -> ResultForm:
    """The form for a game's result by hand, filled with the result that stands."""
    initial = {"entered": len(line.manual)}
    if line.totals is not None:
        initial |= {f"total_{i}": total for i, total in enumerate(line.totals)}
    return ResultForm(data, sides=[side.name for side in line.sides], initial=initial)


def result_words(line: state.GameLine, totals) -> str:
    """A result as the pages write it: "T1 −101 · T2 212"."""
    return " · ".join(
        f"{side.name} {score(total)}" for side, total in zip(line.sides, totals, strict=True)
    )


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT, finds=None)
def tournament_result(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """A game's result by hand, or a correction of it, with a reason kept and shown."""
    tournament = tournament_by_token(EDIT, token)
    line = game_or_404(state.picture(tournament), number)
    form = result_form(line, request.POST or None)
    status, notice = 200, None
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                play.enter_result(
                    tournament, number, form.totals(), data["reason"].strip(), data["entered"]
                )
            except play.Refused as refused:
                form.add_error(None, refused.message)
            except play.Stale:
                form.add_error(None, stale_sentence())
            except play.AlreadyEntered as entered:
                # The page again as it is now, the organiser's typing set aside: the result
                # that stands is what they decide on.
                line = game_or_404(state.picture(tournament), number)
                form, status = result_form(line), 409
                if entered.totals is None:
                    # No result by hand stands: the form counted ones never entered (no page
                    # of ours draws that), so there is none to name.
                    notice = stale_sentence()
                else:
                    notice = _(
                        "Bu oyunun sonucu siz bu sayfayı açtıktan sonra elle girildi: "
                        "%(result)s. Sizinki kaydedilmedi; değiştirmek isterseniz yeniden girin."
                    ) % {"result": result_words(line, entered.totals)}
            else:
                messages.success(request, _("Sonuç kaydedildi."))
                return redirect("tournaments:tournament_detail", tournament.edit_token)
    context = {"t": tournament, "line": line, "form": form, "notice": notice}
    return TemplateResponse(request, "cetele/tournaments/result.html", context, status=status)


@require_safe
@secret_link(role=EDIT, finds=None)
def tournament_print(request: HttpRequest, token: str) -> TemplateResponse:
    """One sheet of paper per table of the current round: who plays, and each game's QR code
    of its match's edit link (the table scores it)."""
    tournament = tournament_by_token(EDIT, token)
    picture = state.picture(tournament)
    sheets = []
    for table, games in tables_of(picture):
        codes = []
        for line in games:
            if line.match is None:
                continue
            url = request.build_absolute_uri(
                reverse("matches:match_detail", args=[line.match.edit_token])
            )
            codes.append({"line": line, "url": url, "qr": qr_svg(url)})
        sheets.append({"table": table, "games": games, "codes": codes})
    context = {"t": tournament, "p": picture, "sheets": sheets}
    return TemplateResponse(request, "cetele/tournaments/print.html", context)


def tables_of(picture: state.Picture) -> list[tuple[int, list[state.GameLine]]]:
    """The current round's games grouped by table (a best of three's games at one table), in
    table order; a later wave's games at a table come after the first wave's."""
    by_table: dict[int, list[state.GameLine]] = {}
    for line in picture.current_games:
        by_table.setdefault(line.game.table or 0, []).append(line)
    return sorted(by_table.items())


# --- Live: the café's page and both pages' poll ---------------------------------------------


@require_safe
@secret_link(role=VIEW, finds=None)
def view_tournament(request: HttpRequest, token: str) -> TemplateResponse:
    """Standings, the bracket and every table's live score, read-only."""
    tournament = tournament_by_token(VIEW, token)
    context = page_context(request, tournament, VIEW)
    return TemplateResponse(request, "cetele/tournaments/view.html", context)


def poll(request: HttpRequest, role: str, token: str) -> HttpResponse:
    """204 while the tournament and its matches are at the version the page shows (one
    aggregate query), else the live part at its new version (on the view link, kept once
    drawn: another phone's answer is the same lookup and one cache read)."""
    found = Tournament.objects.filter(**{TOKEN_FIELDS[role]: token})
    version = state.live_version(found)
    if version is None:
        raise BadLink()
    if request.GET.get("v") == version.key:
        return HttpResponse(status=204)

    def read():
        tournament = found.get()
        return tournament, state.picture(tournament)

    context = live_section(request, role, token, version, read)
    return TemplateResponse(request, "cetele/tournaments/_live.html", context)


@require_safe
@secret_link(role=EDIT, finds=None)
def tournament_poll(request: HttpRequest, token: str) -> HttpResponse:
    return poll(request, EDIT, token)


@require_safe
@secret_link(role=VIEW, finds=None)
def view_tournament_poll(request: HttpRequest, token: str) -> HttpResponse:
    return poll(request, VIEW, token)
