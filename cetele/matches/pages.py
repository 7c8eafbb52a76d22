"""The match's pages as every link shows them: the sheet's page (the scorer's with the next
hand's form, the view and join links' read-only), a hand's page, the hand form's answers (the
form again, the saved hand's note), the history, and the URL and words they share. Built here,
once, for the views of every link role (matches, sharing, seats, tea), which import this module
and never each other."""

from dataclasses import replace

from django.http import Http404, HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_htmx.http import trigger_client_event

from cetele.deal.dealer import dealer_of
from cetele.deal.forms import DealerForm
from cetele.deal.tiles import hand_okey_words
from cetele.hand_form.entry import HandEntry
from cetele.live.schedule import live_context
from cetele.matches.changes import change_place, hand_place, said, score_rows
from cetele.matches.sheet import (
    board_for,
    buttons_after,
    empty_hand_fields,
    empty_indicator_chips,
    form_indicator,
    undo_buttons,
)
from cetele.models import Change, Hand, Match, place_among
from cetele.seats.arrivals import arrived_notices, brought_up_to_date
from cetele.seats.drafts import RowsArrived
from cetele.seats.objections import ObjectionForm, objection_history, scorer_objections
from cetele.sharing.links import EDIT, JOIN, link_context
from cetele.tournaments.guard import shown_frozen

# A write the database would not take (locked past its timeout, a full disk), for a form that
# is shown again as it was.
NOT_WRITTEN = gettext_lazy(
    "Kaydedilemedi: sunucu şu an veritabanına yazamıyor. Girdikleriniz duruyor; biraz sonra "
    "yeniden dokunun."
)


def sheet_context(match: Match, *, role: str = EDIT, rows_poll: bool = False) -> dict:
    """Everything the page around the çetele needs: the sheet as drawn for this version
    (cetele.matches.sheet), how many hands were played, whether the match is over; `role` (edit,
    view or join) decides where its links lead. `rows_poll`: the page also asks for the open
    hand's rows (cetele.seats), whose answer says when the sheet changed, so the sheet does not
    ask on its own while a hand is open."""
    links = link_context(match, role)
    board = board_for(match, links)
    context = {
        "match": match,
        "board": board,
        "played": board.played,
        "finished": board.finished,
        "sheet_polls": board.finished or not rows_poll,
        **links,
        **live_context(match.touched_at),
    }
    if role == EDIT:
        # The open objections with their buttons: drawn per request (a form, its CSRF token),
        # from the kept reading of this version (cetele.matches.sheet.Board).
        context["open_objections"] = board.open_objections
    return context


def match_url(match: Match) -> str:
    return reverse("matches:match_detail", args=[match.edit_token])


# The sheet a saved correction sends the phone back to names the correction's change, so that
# its note ("2. el düzeltildi.") carries a "Geri al" for exactly that change, like a new hand's.
CORRECTED_PARAM = "duzeltildi"


def corrected_url(match: Match, change: Change) -> str:
    return f"{match_url(match)}?{CORRECTED_PARAM}={change.pk}"


def corrected_note(request: HttpRequest, match: Match) -> dict:
    """The note and "Geri al" of the correction ?duzeltildi= names, while it is the match's
    latest change (a reload after the next save or an undo shows none: it would be stale).
    Anything else in the parameter shows nothing: it can only ever name a true statement. The
    page opens at its top, where the note is said, above the sheet with the hand's row marked:
    under the sheet, beside the next hand's form, it was out of sight."""
    value = request.GET.get(CORRECTED_PARAM, "")
    if not value.isdigit():
        return {}
    latest = match.changes.first()  # the latest first
    if latest is None or str(latest.pk) != value or latest.action != Change.Action.EDIT:
        return {}
    place = {"number": change_place(match, latest)}
    return {
        "correction_note": _("%(number)s. el düzeltildi.") % place,
        "correction_change": latest.pk,
        "corrected_hand": latest.hand_number,  # its row on the sheet, marked (app.js)
    }


def sheet_page(
    request: HttpRequest, match: Match, template_name: str, role: str, note: dict | None = None
) -> TemplateResponse:
    """The sheet's page for this link: the scorer's, with the next hand's form (and a
    correction's `note`), or the view link's. The sheet inside is the one drawn for this version
    (cetele.matches.sheet); the page around it is this request's own."""
    context = {**sheet_context(match, role=role, rows_poll=role == EDIT), **(note or {})}
    # A tournament's game (the kept sheet knows: other matches ask nothing more) whose result a
    # later draw used: said before a tap on "Düzelt" or "Geri al" is refused.
    if role == EDIT and context["board"].heading is not None and shown_frozen(match.pk):
        context["frozen_note"] = _(
            "Bu oyunun sonucu turnuvanın sonraki kurasında kullanıldı: elleri artık değiştirilemez."
        )
    if role == EDIT and not context["finished"]:  # a finished match takes no more hands
        board = context["board"]
        indicator = form_indicator(match, board)  # not always the kept sheet's: see there
        context.update(next_hand(match, list(match.players.all()), board.played + 1, indicator))
    return TemplateResponse(request, template_name, context)


def next_hand(match: Match, players: list, position: int, indicator) -> dict:
    """The empty form for the hand at `position`, with a new one-time token and the gösterge a
    phone set for it (`indicator`); its fields as kept drawn for this match
    (cetele.matches.sheet.empty_hand_fields). Until its first hand is saved, "Dağıtan" too."""
    entry = HandEntry(match, players, position=position, indicator=indicator)
    context = {"entry": entry, "empty_fields": empty_hand_fields(match, entry)}
    if indicator is None:  # nobody has set this hand's gösterge: its chips as kept
        context["empty_chips"] = empty_indicator_chips(entry)
    if position == 1:
        context["dealer_form"] = DealerForm(
            initial={"first_dealer": match.first_dealer}, players=players
        )
    return context


def hand_position(match: Match, hand: Hand) -> int:
    """A hand's place on the sheet ("5. el"): hands keep their numbers when one is deleted."""
    return match.hands.filter(number__lte=hand.number).count()


def get_hand(match: Match, number: int) -> Hand:
    try:
        return match.hands.get(number=number)
    except Hand.DoesNotExist as error:
        raise Http404(_("Bu el yok.")) from error


def hand_context(match: Match, hand: Hand, players: list, entry: HandEntry | None) -> dict:
    """A hand's page: its scores and their reasons, its objections (and their ends)."""
    position = entry.position if entry else hand_position(match, hand)
    return {
        "match": match,
        "hand": hand,
        "players": players,
        "position": position,
        "dealer": dealer_of(match, players, position),
        "okey_words": hand_okey_words(hand.inputs),
        "seat_results": list(
            zip(players, hand.result["scores"], hand.result["breakdown"], strict=True)
        ),
        "entry": entry,
        "objections": objection_history(match, players, hand.number),
    }


def read_only_hand_page(
    request, match: Match, hand: Hand, role: str, claim=None, form=None, status: int = 200
) -> TemplateResponse:
    """A hand's page for the view and join links: its scores with how each was computed; under
    the join link, "İtiraz" for a phone that has its seat (`claim`), with `form` as posted."""
    players = list(match.players.all())
    context = {
        **hand_context(match, hand, players, entry=None),
        **link_context(match, role),
    }
    if role == JOIN:
        context["objection_form"] = form or ObjectionForm()
        context["own_player"] = players[claim.seat] if claim else None
    return TemplateResponse(request, "cetele/matches/hand_view.html", context, status=status)


# --- The hand form's answers ------------------------------------------------------------------


def typing(request: HttpRequest) -> bool:
    """Whether the form asks for its preview alone, as it does at every keystroke and tap."""
    return bool(request.htmx) and request.htmx.target == "hand-preview"


def saved_event(match: Match, saved: Hand | None, entry: HandEntry) -> dict:
    """The hand just saved, or the one this request token saved before, as the page and a
    phone's outbox are told of it: the token, the hand's place and its number (both None if
    that hand is gone since)."""
    if saved is None:
        change = match.changes.filter(request_token=entry.request_token).first()
        saved = change and match.hands.filter(number=change.hand_number).first()
        if saved:
            saved.position = hand_position(match, saved)
    return {
        "token": entry.request_token,
        "position": saved.position if saved else None,
        "number": saved.number if saved else None,
    }


def render_hand_form(request: HttpRequest, match: Match, entry: HandEntry) -> TemplateResponse:
    """The form alone for HTMX (the preview alone while typing), else its whole page."""
    if typing(request):
        context = {"entry": entry, "oob_errors": True}
        return TemplateResponse(request, "cetele/hand_form/_hand_fields.html#hand_preview", context)
    if entry.is_correction:
        context = hand_context(match, entry.hand, entry.players, entry)
        context["open_objections"] = scorer_objections(match, entry.hand.number)
        template = (
            "cetele/matches/hand.html#form_answer" if request.htmx else "cetele/matches/hand.html"
        )
        return TemplateResponse(request, template, context)
    if request.htmx:
        context = {
            "match": match,
            "entry": entry,
            "players": entry.players,
        }
        return TemplateResponse(request, "cetele/matches/match.html#hand_form", context)
    context = sheet_context(match, rows_poll=True)
    context["entry"] = entry
    return TemplateResponse(request, "cetele/matches/match.html", context)


def rows_arrived(request, match: Match, entry: HandEntry, arrived: RowsArrived) -> TemplateResponse:
    """A save that had not seen every row: nothing saved; the form again with the rows that
    arrived written in, saying what each said (cetele.seats.arrivals), and the page's rows'
    section asked for at once (its rows, applied by seats.js, are then the form's)."""
    data = brought_up_to_date(request.POST, arrived, entry.position, entry.partner_scores_zero)
    fresh = HandEntry(
        match, entry.players, data, position=entry.position, indicator=entry.stored_indicator
    )
    fresh.is_valid()  # its preview, or what still needs fixing, with the rows in
    fresh.notices.extend(arrived_notices(arrived.arrived))
    response = render_hand_form(request, match, fresh)
    return trigger_client_event(response, "cetele:rows-now")


def saved_answer(request, match: Match, saved: Hand | None, entry, players: list, note: str):
    """The htmx answer to a new hand's save: `note` (which hand was saved) with its "Geri al",
    the page's bar as the sheet draws it after this save, and the next hand's form."""
    # The answer says which hand was saved and gives the next hand's form; the sheet is not in
    # it. The phone asks for the sheet at once (HX-Trigger below; static/cetele/app.js), as
    # every phone watching the match does, and they all get the one drawing of this version
    # (cetele.matches.sheet.board_for). Drawn here, with the saved row marked, it was the larger
    # part of a save's time, and drawn again for everyone else.
    played = saved.position if saved else match.hands.count()
    if saved is not None:
        change = saved.change
    else:  # the change this form made before, which its "Geri al" names
        change = match.changes.filter(request_token=entry.request_token).first()
    context = {
        "match": match,
        "finished": played >= match.planned_hands,
        "saved_note": note,
        "saved_change": change.pk if change else "",
    }
    # The page's bar (its "Geri al", its "Yinele") named the latest change before this save:
    # sent again, as the sheet draws it after this save.
    if saved is not None:
        context["actions"] = buttons_after(change, saved.position)
    else:
        numbers = list(match.hands.values_list("number", flat=True))
        context["actions"] = undo_buttons(match, EDIT, numbers)
    if not context["finished"]:
        # The save cleared the gösterge: the next hand has none yet (one a phone sets from now
        # on comes to this page with the rows' poll, static/cetele/seats.js).
        context.update(next_hand(match, players, played + 1, None))
    response = TemplateResponse(request, "cetele/matches/match.html#hand_saved", context)
    # Names the hand for a phone's outbox, which sent it without hearing back or while offline
    # (static/cetele/offline.js), and for the page, which asks for the sheet and marks the
    # hand's row in it (app.js).
    trigger_client_event(response, "cetele:hand-saved", saved_event(match, saved, entry))
    return response


def history_context(match: Match) -> dict:
    """The history page: every change with its sentence and its scores before and after, and
    the match's objections."""
    players = list(match.players.all())
    changes = match.changes.select_related("undoes")
    # Each change says its hand by the place the sheet and "Geri al" name it by.
    numbers = list(match.hands.values_list("number", flat=True))
    history = [
        (
            change,
            capfirst(said(change, hand_place(numbers, change))),
            score_rows(change, match.teams),
        )
        for change in changes
    ]
    context = {
        "match": match,
        "players": players,
        "history": history,
        "Action": Change.Action,
        # Its objections name their hands by place too ("2. el · Ayşe: …").
        "objections": [
            replace(line, number=place_among(numbers, line.number))
            for line in objection_history(match, players)
        ],
    }
    return context
