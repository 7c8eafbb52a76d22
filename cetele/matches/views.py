"""The match's views under its edit link (and the rules page, for every link): translate
requests into model calls and answer with the pages built in cetele.matches.pages. No scoring
arithmetic here: scores come from `scoring`, totals from `scoring.sheet`."""

import logging

from django.contrib import messages
from django.db import DatabaseError, transaction
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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from cetele.deal.forms import IndicatorForm
from cetele.deal.indicator import set_indicator
from cetele.hand_form.entry import HandEntry
from cetele.matches.changes import change_came_between, change_place, gone_hand, reversed_sentence
from cetele.matches.forms import (
    DUPLICATE_NAME,
    HiddenTotalsForm,
    MatchForm,
    PlayerNamesForm,
    ReverseForm,
)
from cetele.matches.pages import (
    NOT_WRITTEN,
    corrected_note,
    corrected_url,
    get_hand,
    hand_position,
    history_context,
    match_url,
    render_hand_form,
    rows_arrived,
    saved_answer,
    sheet_page,
    typing,
)
from cetele.models import (
    AlreadySaved,
    AlreadyUndone,
    Hand,
    HandConflict,
    HandGone,
    HandTaken,
    Match,
    MatchFinished,
    NamesClash,
    NothingToUndo,
    ResultFrozen,
    UndoRefused,
)
from cetele.seats.drafts import HandClosed, RowsArrived, check_rows_seen
from cetele.sharing.links import (
    EDIT,
    forgotten,
    hand_over,
    house_keys_guarded,
    link_context,
    secret_link,
)

logger = logging.getLogger(__name__)
# The hand a phone was correcting or deleting is not there any more.
HAND_GONE = gettext_lazy("Bu el az önce başka bir telefondan silindi ya da geri alındı.")
# A tournament game whose result a later draw used (cetele.tournaments.guard): why, and that
# nobody can change it now, the organiser neither ("turnuvayı yöneten", as the
# organiser's page calls them).
RESULT_FROZEN = gettext_lazy(
    "Bu maç bir turnuva oyunu ve sonucu turnuvanın sonraki kurasında kullanıldı: eller artık "
    "değiştirilemez, turnuvayı yöneten de değiştiremez. Hiçbir şey değişmedi."
)
MAX_POSITION = 10_000  # far past any match; a bigger "place" is not one


@require_safe
def home(request: HttpRequest) -> TemplateResponse:
    """The front page: what Çetele is, and the way into a new match; after a deletion, what
    this phone should forget (only if the app's own answer says so)."""
    return TemplateResponse(request, "cetele/matches/home.html", {"forget": forgotten(request)})


@require_safe
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page says; send them to the hashed SVG."""
    return HttpResponsePermanentRedirect(static("cetele/favicon.svg"))


# --- Helpers --------------------------------------------------------------------------------


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
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            match = form.start()
        except DatabaseError as error:
            logger.error("Match not started, the database refused the write: %s", error)
            form.add_error(None, NOT_WRITTEN)
            status = 503
        else:
            return hand_over(request, redirect(match_url(match)), match.edit_token)
    return TemplateResponse(
        request, "cetele/matches/match_create.html", {"form": form}, status=status
    )


# --- The match sheet ------------------------------------------------------------------------


@require_safe
@secret_link(role=EDIT)
def match_detail(request: HttpRequest, match: Match) -> HttpResponse:
    """The çetele with the form for the next hand (and, after a correction, its note)."""
    note = corrected_note(request, match)
    return sheet_page(request, match, "cetele/matches/match.html", role=EDIT, note=note)


@require_POST
@secret_link(role=EDIT)
def hand_create(request: HttpRequest, match: Match) -> HttpResponse:
    """Preview, add a penalty row, or save the next hand."""
    return enter_hand(request, match, None)


@require_safe
@secret_link(role=EDIT)
def hand_detail(request: HttpRequest, match: Match, number: int) -> TemplateResponse:
    """One hand: every score with how it was computed, and the form to correct it."""
    hand = get_hand(match, number)
    players = list(match.players.all())
    entry = HandEntry(match, players, position=hand_position(match, hand), hand=hand)
    return render_hand_form(request, match, entry)


@require_POST
@secret_link(role=EDIT)
def hand_edit(request: HttpRequest, match: Match, number: int) -> HttpResponse:
    """Preview, add a penalty row, or save a correction of a past hand."""
    hand = match.hands.filter(number=number).first() or gone_hand(match, number)
    return enter_hand(request, match, hand)


def enter_hand(request: HttpRequest, match: Match, hand: Hand | None) -> HttpResponse:
    """The one path for the next hand (`hand` None) and for a correction.

    A plain POST that saves redirects to the sheet. An HTMX save of a new hand answers with a
    confirmation with "Geri al" and a fresh form, and the page asks for the sheet; an HTMX save
    of a correction sends the phone back to the sheet. Anything else re-renders the form with
    its preview (or, while typing, the preview alone).
    """
    players = list(match.players.all())
    action = hand_action(request)
    if hand is None:
        position = request_position(request)
        if position is None or action == "save-next":
            # No place given (an old page), or "add mine as the next hand" after another phone
            # saved this one's place: the next free place.
            position = match.hands.count() + 1
            action = "save" if action == "save-next" else action
    else:
        position = hand_position(match, hand)
    entry = HandEntry(
        match,
        players,
        request.POST,
        position=position,
        hand=hand,
        action=action,
        typing=typing(request),
    )
    valid = entry.is_valid()  # fills the preview, or the errors to show
    if action == "indicator" and hand is None:
        show_indicator(request, match, entry)
    if action != "save" or not valid:
        return render_hand_form(request, match, entry)
    try:
        if hand is None:
            shown = match.version
            saved = add_hand_seeing_rows(match, players, entry, position)
            if match.version != shown + 1:  # a change came between (a renaming?): read them anew
                players = list(match.players.all())
        else:
            saved = match.edit_hand(
                hand.number,
                entry.inputs,
                entry.hand_form.cleaned_data["version"],
                entry.request_token,
            )
    except AlreadySaved:
        # A double tap or a retried request: its change is already on the sheet.
        return hand_saved(request, match, None, entry, players)
    except RowsArrived as arrived:
        return rows_arrived(request, match, entry, arrived)
    except HandTaken as taken:
        entry.taken = [(hand_position(match, h), h) for h in taken.hands]
        entry.notices.append(
            _("%(number)s. el az önce başka bir telefondan kaydedildi.") % {"number": position}
        )
        return render_hand_form(request, match, entry)
    except HandGone:
        entry.notices.append(
            _("%(gone)s Düzeltmeniz kaydedilmedi; yazdıklarınız aşağıda duruyor.")
            % {"gone": HAND_GONE}
        )
        return render_hand_form(request, match, entry)
    except HandConflict as conflict:
        fresh = HandEntry(match, players, position=entry.position, hand=conflict.hand)
        fresh.notices.append(
            _(
                "Bu el siz düzeltirken başka bir telefondan değiştirildi. Aşağıda en son hali "
                "var; düzeltmenizi bunun üzerine yeniden yapın."
            ),
        )
        return render_hand_form(request, match, fresh)
    except MatchFinished:
        entry.notices.append(_("Maçın bütün elleri oynandı."))
        return render_hand_form(request, match, entry)
    except ResultFrozen:
        entry.notices.append(RESULT_FROZEN)
        return render_hand_form(request, match, entry)
    except DatabaseError as error:
        status = database_refused(request, entry, error)
        response = render_hand_form(request, match, entry)
        response.status_code = status
        trigger_client_event(response, "cetele:save-failed")  # a phone's outbox tries again later
        return response
    return hand_saved(request, match, saved, entry, players)


def add_hand_seeing_rows(match: Match, players: list, entry: HandEntry, position: int) -> Hand:
    """Save the next hand only if its form has shown every row the joined phones wrote for it
    (RowsArrived otherwise): the check and the save in one transaction, under the match's lock
    that a row's write takes too (cetele.seats.drafts.check_rows_seen)."""
    with transaction.atomic():
        check_rows_seen(match, players, position, entry.rows_seen)
        return match.add_hand(entry.inputs, entry.request_token, position, result=entry.result)


# What a request that asks for the preview alone may do: show the scores, or keep the gösterge.
PREVIEW_ACTIONS = ("preview", "indicator")


def hand_action(request: HttpRequest) -> str:
    """What the form asks: "save", "preview", "indicator", a penalty row… A request for the
    preview alone (HX-Target hand-preview: typing, a tap on a chip) never saves, whatever it
    carries: htmx adds the last submit button clicked to the form's own requests, so the
    preview of the keystroke just before "Eli kaydet" came as action=save, saved the hand and
    drew the next form inside the preview, the old form around it, until the save's answer came."""
    action = request.POST.get("action", "preview")
    if typing(request) and action not in PREVIEW_ACTIONS:
        return "preview"
    return action


def show_indicator(request: HttpRequest, match: Match, entry: HandEntry) -> None:
    """The scorer's gösterge, kept for every phone to see (a tap on its chips, or "Herkese
    göster"); the hand is not saved. Bad input changes nothing (the form says why beside the
    chips); a gösterge for a hand another phone has saved since is told and dropped."""
    form = IndicatorForm(request.POST, ruleset=entry.ruleset)
    if not form.is_valid():
        return
    try:
        set_indicator(match, entry.position, form.indicator_for(None))
    except HandClosed:
        entry.notices.append(
            _("%(number)s. el az önce başka bir telefondan kaydedildi; gösterge kullanılmadı.")
            % {"number": entry.position}
        )


def hand_saved(request, match, saved: Hand | None, entry: HandEntry, players) -> HttpResponse:
    """After a save: say which hand was saved, with "Geri al" right there. `saved` is None
    when the same form had already been saved (a double tap, a retried request); `players`
    are the match's at the version it is at now."""
    if saved is None:
        note = _("Bu el zaten kaydedildi.")
    elif entry.is_correction:
        note = _("%(number)s. el düzeltildi.") % {"number": entry.position}
    else:
        note = _("%(number)s. el kaydedildi.") % {"number": saved.position}
    if entry.is_correction and saved is not None:
        # Back to the sheet, whose own note says so with "Geri al" (corrected_note).
        url = corrected_url(match, saved.change)
        if request.htmx:
            # 204 as before (the helper's default is 200): nothing to swap, and a phone's
            # outbox (offline.js) takes only a 200 for an answer to show.
            return HttpResponseClientRedirect(url, status=204)
        return redirect(url)
    if not request.htmx or entry.is_correction:
        messages.success(request, note)
        if request.htmx:
            return HttpResponseClientRedirect(match_url(match), status=204)
        return redirect(match_url(match))
    return saved_answer(request, match, saved, entry, players, note)


def request_position(request: HttpRequest) -> int | None:
    """The place the new hand was entered as ("5. el"), from the form; None when absent or
    not a place (a hidden field is the client's to write: it only ever makes a save stricter)."""
    try:
        position = int(request.POST.get("position", ""))
    except ValueError:
        return None
    return position if 1 <= position <= MAX_POSITION else None


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT)
def hand_delete(request: HttpRequest, match: Match, number: int) -> HttpResponse:
    """Delete a hand after a confirmation (the GET page is the confirmation)."""
    if request.method == "POST":
        try:
            match.delete_hand(number)
        except HandGone as gone:
            if not match.changes.filter(hand_number=number).exists():
                raise Http404(_("Bu el yok.")) from gone  # never a hand of this match
            messages.info(request, HAND_GONE)  # a double tap, or another phone's deletion
        except ResultFrozen:
            messages.warning(request, RESULT_FROZEN)
        else:
            messages.success(request, _("El silindi. Yanlışlıkla sildiyseniz “Geri al”a dokunun."))
        return redirect(match_url(match))
    hand = get_hand(match, number)
    players = list(match.players.all())
    context = {
        "match": match,
        "hand": hand,
        "players": players,
        "position": hand_position(match, hand),
    }
    return TemplateResponse(request, "cetele/matches/hand_delete.html", context)


@require_POST
@secret_link(role=EDIT)
def match_undo(request: HttpRequest, match: Match) -> HttpResponse:
    """Undo the change the button names (an addition, correction, deletion or renaming) in one
    tap; refused, with what happened instead, when another change came after it."""
    return reverse_change(request, match, redo=False)


@require_POST
@secret_link(role=EDIT)
def match_redo(request: HttpRequest, match: Match) -> HttpResponse:
    """Redo ("Yinele") the undo the button names, while it is the match's latest change."""
    return reverse_change(request, match, redo=True)


def reverse_change(request: HttpRequest, match: Match, *, redo: bool) -> HttpResponse:
    """Geri al or Yinele, then the sheet as it is now with a sentence saying what was done."""
    form = ReverseForm(request.POST)
    try:
        if not form.is_valid():
            raise NothingToUndo()
        named = form.cleaned_data["change"]
        change = match.redo(named) if redo else match.undo(named)
    except NothingToUndo:
        messages.info(request, _("Geri alınacak bir değişiklik yok."))
    except AlreadyUndone as done:
        if redo:
            messages.info(request, _("Bu değişiklik zaten yinelendi."))
        else:
            what = done.change.named(change_place(match, done.change))
            messages.info(request, _("Bu zaten geri alındı: %(what)s.") % {"what": what})
    except UndoRefused as refused:
        messages.warning(request, change_came_between(match, refused.latest))
    except ResultFrozen:
        messages.warning(request, RESULT_FROZEN)
    except DatabaseError as error:
        logger.error("Undo not saved, the database refused the write: %s", error)
        messages.error(request, NOT_WRITTEN)
        response = sheet_page(request, match, "cetele/matches/match.html", role=EDIT)
        response.status_code = 503  # the sheet as it is, its button there to tap again
        return response
    else:
        messages.success(request, reversed_sentence(match, change, redo=redo))
    return redirect(match_url(match))


@require_safe
@secret_link(role=EDIT)
def match_history(request: HttpRequest, match: Match) -> TemplateResponse:
    """Every change to the match: when, what, old and new scores."""
    return TemplateResponse(request, "cetele/matches/history.html", history_context(match))


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT)
def match_players(request: HttpRequest, match: Match) -> HttpResponse:
    """Rename the players."""
    players = list(match.players.all())
    form = PlayerNamesForm(request.POST or None, players=players)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            match.rename_players(form.renamed())
        except NamesClash:
            form.add_error(None, DUPLICATE_NAME)
        except DatabaseError as error:
            logger.error("Names not saved, the database refused the write: %s", error)
            form.add_error(None, NOT_WRITTEN)
            status = 503
        else:
            messages.success(request, _("Oyuncu adları kaydedildi."))
            return redirect(match_url(match))
    context = {
        "match": match,
        "players": players,
        "form": form,
        "hidden_form": HiddenTotalsForm(initial={"hidden": match.hidden_totals}),
    }
    return TemplateResponse(request, "cetele/matches/players.html", context, status=status)


@require_POST
@secret_link(role=EDIT)
def match_hidden_totals(request: HttpRequest, match: Match) -> HttpResponse:
    """ "Gizli toplam" on or off, from the players' page; the sheet is drawn again for everyone."""
    form = HiddenTotalsForm(request.POST)
    form.is_valid()  # an unticked box is "off": nothing in it can be invalid
    hidden = form.cleaned_data.get("hidden", False)
    try:
        changed = match.set_hidden_totals(hidden)
    except DatabaseError as error:
        logger.error("Hidden totals not set, the database refused the write: %s", error)
        messages.error(request, NOT_WRITTEN)
        return redirect("matches:match_players", match.edit_token)
    if not changed:
        messages.info(request, _("Gizli toplam zaten böyleydi: hiçbir şey değişmedi."))
    elif hidden:
        messages.success(
            request,
            _(
                "Gizli toplam açık: izleyen ve katılan telefonlar toplamları yalnız son iki elde "
                "görür."
            ),
        )
    else:
        messages.success(request, _("Gizli toplam kapalı: toplamlar her telefonda görünür."))
    return redirect(match_url(match))


@require_safe
@secret_link()
def match_rules(request: HttpRequest, match: Match, role: str) -> TemplateResponse:
    """The rules this match plays by, in full: one page for the edit, view and join links
    (`role`, from the URL), whose links lead within that link's pages."""
    context = {"match": match, **link_context(match, role)}
    return TemplateResponse(request, "cetele/matches/match_rules.html", context)
