"""Views: translate requests into model calls and render templates. No scoring arithmetic here:
scores come from `scoring`, totals from `scoring.sheet`."""

import logging

from django.contrib import messages
from django.db import DatabaseError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
)
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from cetele.forms import HandEntry, MatchForm, PlayerNamesForm, rewrite_penalties
from cetele.models import (
    AlreadySaved,
    Change,
    Hand,
    HandConflict,
    Match,
    MatchFinished,
    NothingToUndo,
)
from cetele.sharing import EDIT, house_keys_guarded, link_context, match_by_token, secret_link
from scoring.sheet import tally

logger = logging.getLogger(__name__)


@require_safe
def home(request: HttpRequest) -> TemplateResponse:
    """The front page: what Çetele is, and the way into a new match."""
    return TemplateResponse(request, "cetele/home.html")


@require_safe
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page says; send them to the hashed SVG."""
    return HttpResponsePermanentRedirect(static("cetele/favicon.svg"))


# --- Helpers --------------------------------------------------------------------------------


def editable_match(token: str) -> Match:
    """The match whose edit link this is, or 404 (the same for unknown and malformed tokens)."""
    return match_by_token(EDIT, token)


def sheet_context(match: Match, players: list | None = None, *, role: str = EDIT) -> dict:
    """Everything the çetele shows: players, hands with their totals, leaders, the winner;
    `role` (edit or view) decides where its links lead."""
    if players is None:
        players = list(match.players.all())
    hands = list(match.hands.all())
    sheet = tally([hand.scores for hand in hands], len(players), match.teams)
    finished = len(hands) >= match.planned_hands
    return {
        "match": match,
        "players": players,
        "rows": list(zip(hands, sheet.rows, strict=True)),
        "sheet": sheet,
        "played": len(hands),
        "finished": finished,
        "last_change": match.last_undoable_change() if role == EDIT else None,
        **link_context(match, role),
    }


def match_url(match: Match) -> str:
    return reverse("match_detail", args=[match.edit_token])


def hand_action(request: HttpRequest) -> str:
    return request.POST.get("action", "preview")


def database_refused(request: HttpRequest, entry: HandEntry, error: DatabaseError) -> int:
    """The database would not take the write (locked past the timeout, disk full): say so on
    the form, which is re-rendered as typed with the same request token, so that tapping
    "Eli kaydet" again later is safe. Returns the status to answer with: 200 for HTMX, which
    swaps nothing on a 5xx by default (the message would never show), 503 otherwise."""
    logger.error("Hand not saved, the database refused the write: %s", error)
    entry.notices.append(
        _(
            "El kaydedilemedi: sunucu şu an veritabanına yazamıyor. Girdikleriniz duruyor; "
            "biraz sonra “Eli kaydet”e yeniden dokunun."
        )
    )
    return 200 if request.htmx else 503


# --- Starting a match -----------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@house_keys_guarded(query=("preset",), form=("preset",))  # house:<key> is a key like /ev/<key>/
def match_create(request: HttpRequest) -> TemplateResponse | HttpResponseRedirect:
    """Start a match: players in seat order, singles or teams, number of hands, house rules."""
    form = MatchForm(request.POST or None, initial=MatchForm.initial_for(request.GET.get("preset")))
    if request.method == "POST" and form.is_valid():
        slug, base_rules, rules = form.rules()
        match = Match.start(
            form.names(),
            teams=form.cleaned_data["teams"],
            planned_hands=form.cleaned_data["planned_hands"],
            rules=rules,
            preset_slug=slug,
            base_rules=base_rules,
        )
        return redirect(match_url(match), permanent=False)
    return TemplateResponse(request, "cetele/match_create.html", {"form": form})


# --- The match sheet ------------------------------------------------------------------------


@require_safe
@secret_link(role=EDIT)
def match_detail(request: HttpRequest, token: str) -> TemplateResponse:
    """The çetele with the form for the next hand."""
    match = editable_match(token)
    context = sheet_context(match)
    context["entry"] = HandEntry(match, context["players"])
    return TemplateResponse(request, "cetele/match.html", context)


@require_POST
@secret_link(role=EDIT)
def hand_create(request: HttpRequest, token: str) -> HttpResponse:
    """Preview, add or remove a penalty row, or save the next hand.

    A plain POST that saves redirects to the sheet; an HTMX POST answers with a fresh form and
    the updated çetele (out of band). Anything else re-renders the form with its preview.
    """
    match = editable_match(token)
    players = list(match.players.all())
    action = hand_action(request)
    data = rewrite_penalties(request.POST, len(players), action)
    entry = HandEntry(match, players, data)
    valid = entry.is_valid()  # fills the preview, or the errors to show
    if action == "save" and valid:
        try:
            match.add_hand(entry.inputs, entry.result, entry.request_token)
        except AlreadySaved:
            messages.info(request, _("Bu el zaten kaydedildi."))
        except MatchFinished:
            entry.notices.append(_("Maçın bütün elleri oynandı."))
            return render_entry(request, match, entry)
        except DatabaseError as error:
            status = database_refused(request, entry, error)
            response = render_entry(request, match, entry)
            response.status_code = status
            return response
        if not request.htmx:
            return redirect(match_url(match))
        match.refresh_from_db(fields=["version"])
        context = sheet_context(match, players)
        context.update(entry=HandEntry(match, context["players"]), saved=True)
        return TemplateResponse(request, "cetele/match.html#hand_saved", context)
    return render_entry(request, match, entry)


def preview_only(request: HttpRequest, entry: HandEntry) -> TemplateResponse | None:
    """Typing in the form asks for the preview region alone (its hx-target)."""
    if request.htmx and request.htmx.target == "hand-preview":
        context = {"entry": entry, "oob_errors": True}
        return TemplateResponse(request, "cetele/_hand_form.html#hand_preview", context)
    return None


def render_entry(request: HttpRequest, match: Match, entry: HandEntry) -> TemplateResponse:
    if preview := preview_only(request, entry):
        return preview
    if request.htmx:
        context = {
            "match": match,
            "entry": entry,
            "players": entry.players,
            "played": match.hands.count(),
        }
        return TemplateResponse(request, "cetele/match.html#hand_form", context)
    context = sheet_context(match)
    context["entry"] = entry
    return TemplateResponse(request, "cetele/match.html", context)


def get_hand(match: Match, number: int) -> Hand:
    try:
        return match.hands.get(number=number)
    except Hand.DoesNotExist as error:
        raise Http404(_("Bu el yok.")) from error


@require_safe
@secret_link(role=EDIT)
def hand_detail(request: HttpRequest, token: str, number: int) -> TemplateResponse:
    """One hand: every score with how it was computed, and the form to correct it."""
    match = editable_match(token)
    hand = get_hand(match, number)
    players = list(match.players.all())
    entry = HandEntry(match, players, inputs=hand.inputs, version=hand.version)
    return TemplateResponse(request, "cetele/hand.html", hand_context(match, hand, players, entry))


def hand_context(match: Match, hand: Hand, players: list, entry: HandEntry) -> dict:
    return {
        "match": match,
        "hand": hand,
        "players": players,
        "position": match.hands.filter(number__lte=hand.number).count(),
        "seat_results": list(
            zip(players, hand.result["scores"], hand.result["breakdown"], strict=True)
        ),
        "entry": entry,
    }


@require_POST
@secret_link(role=EDIT)
def hand_edit(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """Correct a past hand; a stale form (another phone saved first) shows the newer data."""
    match = editable_match(token)
    hand = get_hand(match, number)
    players = list(match.players.all())
    action = hand_action(request)
    entry = HandEntry(match, players, rewrite_penalties(request.POST, len(players), action))
    valid = entry.is_valid()
    if action == "save" and valid:
        try:
            match.edit_hand(
                number,
                entry.inputs,
                entry.result,
                entry.hand_form.cleaned_data["version"],
                entry.request_token,
            )
        except AlreadySaved:
            messages.info(request, _("Bu düzeltme zaten kaydedildi."))
        except HandConflict as conflict:
            fresh = HandEntry(
                match, players, inputs=conflict.hand.inputs, version=conflict.hand.version
            )
            fresh.notices.append(
                _(
                    "Bu el siz düzeltirken başka bir telefondan değiştirildi. Aşağıda en son hali "
                    "var; düzeltmenizi bunun üzerine yeniden yapın."
                ),
            )
            return render_hand_entry(request, match, conflict.hand, players, fresh)
        except DatabaseError as error:
            status = database_refused(request, entry, error)
            response = render_hand_entry(request, match, hand, players, entry)
            response.status_code = status
            return response
        messages.success(request, _("El düzeltildi."))
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = match_url(match)
            return response
        return redirect(match_url(match))
    return render_hand_entry(request, match, hand, players, entry)


def render_hand_entry(request, match, hand, players, entry) -> TemplateResponse:
    if preview := preview_only(request, entry):
        return preview
    context = hand_context(match, hand, players, entry)
    template = "cetele/hand.html#hand_form" if request.htmx else "cetele/hand.html"
    return TemplateResponse(request, template, context)


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT)
def hand_delete(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """Delete a hand after a confirmation (the GET page is the confirmation)."""
    match = editable_match(token)
    hand = get_hand(match, number)
    if request.method == "POST":
        match.delete_hand(number)
        messages.success(request, _("El silindi. Yanlışlıkla sildiyseniz “Geri al”a dokunun."))
        return redirect(match_url(match))
    players = list(match.players.all())
    context = {
        "match": match,
        "hand": hand,
        "players": players,
        "position": match.hands.filter(number__lte=number).count(),
    }
    return TemplateResponse(request, "cetele/hand_delete.html", context)


@require_POST
@secret_link(role=EDIT)
def match_undo(request: HttpRequest, token: str) -> HttpResponseRedirect:
    """Undo the last change (add, correction, deletion or renaming) in one tap."""
    match = editable_match(token)
    try:
        change = match.undo()
    except NothingToUndo:
        messages.info(request, _("Geri alınacak bir değişiklik yok."))
    else:
        messages.success(
            request, _("Geri alındı: %(what)s.") % {"what": change.undoes.get_action_display()}
        )
    return redirect(match_url(match))


@require_safe
@secret_link(role=EDIT)
def match_history(request: HttpRequest, token: str) -> TemplateResponse:
    """Every change to the match: when, what, old and new scores."""
    match = editable_match(token)
    players = list(match.players.all())
    changes = list(match.changes.select_related("undoes"))
    return TemplateResponse(
        request,
        "cetele/history.html",
        {"match": match, "players": players, "changes": changes, "Action": Change.Action},
    )


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT)
def match_players(request: HttpRequest, token: str) -> HttpResponse:
    """Rename the players."""
    match = editable_match(token)
    players = list(match.players.all())
    form = PlayerNamesForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        match.rename_players(form.names())
        messages.success(request, _("Oyuncu adları kaydedildi."))
        return redirect(match_url(match))
    return TemplateResponse(
        request, "cetele/players.html", {"match": match, "players": players, "form": form}
    )


@require_safe
@secret_link(role=EDIT)
def match_rules(request: HttpRequest, token: str) -> TemplateResponse:
    """The rules this match plays by, in full."""
    match = editable_match(token)
    context = {"match": match, **link_context(match, EDIT)}
    return TemplateResponse(request, "cetele/match_rules.html", context)
