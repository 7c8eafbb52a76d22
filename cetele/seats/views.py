"""The join link's pages (/k/<join token>/…) and the scorer's side of them.

A phone that opens the join link picks its name and is then that player's phone for the match
(cetele.seats.claims); it sees everything the view link shows (the sheet, each hand, the
rules), and may write exactly one thing: its own player's row of the hand being entered
(cetele.seats.drafts). Every page here wears `secret_link` like the other links' pages, as an
edit page (kept out of every cache: it carries a form and a key that writes). No page under the
join link holds the edit or the view token. The pages it shares with the view link (the
sheet's poll, a hand, the rules, the exports) are one view each for both links, the role named
by the URL (cetele.sharing.views, cetele.matches.views.match_rules).

The scorer's page asks for the rows (`seat_rows`) and fills them into the hand form (seats.js);
the share page shows the link, who has joined, "Telefonu çıkar" and the rotation (`join_rotate`).
"""

import logging

from django.contrib import messages
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HTMX_STOP_POLLING, reswap, retarget, trigger_client_event

from cetele.live.kept import kept
from cetele.matches.pages import NOT_WRITTEN, match_url, read_only_hand_page, sheet_context
from cetele.models import HandGone, Match, ObjectionGone
from cetele.seats.claims import (
    AlreadySeated,
    SeatFreed,
    SeatTaken,
    claim_of,
    free_seat,
    phone_for,
    remember_claim,
    rotate_join_link,
    seat_held,
    take_seat,
    taken_seats,
)
from cetele.seats.drafts import HandClosed, open_position, write_row
from cetele.seats.forms import FreeSeatForm, PlayerRow, RotateJoinForm, SeatChoiceForm
from cetele.seats.objections import CloseObjectionForm, ObjectionForm, objection_history
from cetele.seats.pages import draw_rows, joined_extras, joined_page, no_seat, row_status
from cetele.seats.rows import rows_key
from cetele.sharing.links import (
    EDIT,
    JOIN,
    PolledMatch,
    link_context,
    polled_match,
    secret_link,
)

logger = logging.getLogger(__name__)

# --- A phone joins --------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=JOIN)
def join_match(request: HttpRequest, match: Match) -> HttpResponse:
    """Pick your name (a phone without a seat here), or your row and the sheet (with one)."""
    claim = claim_of(request, match)
    if request.method == "POST":
        return pick_seat(request, match, claim)
    if claim is None:
        return pick_page(request, match)
    return joined_page(request, match, claim.seat)


def pick_page(request, match: Match, form: SeatChoiceForm | None = None, status: int = 200):
    players = list(match.players.all())
    if form is None:
        form = SeatChoiceForm(players=players, taken=taken_seats(match))
    context = {**sheet_context(match, role=JOIN), "pick_form": form}
    response = TemplateResponse(request, "cetele/seats/pick.html", context, status=status)
    phone_for(request, response)  # the names tapped from this page are this phone's
    return response


def pick_seat(request: HttpRequest, match: Match, claim) -> HttpResponse:
    """Take the seat asked for; a seat another phone has is refused in a sentence, and this
    phone may pick another or ask the scorer to free it. A phone holds one seat of a match: a
    second name, even tapped at the same moment as the first, is answered with the first."""
    players = list(match.players.all())
    if claim is not None:
        return already_seated(request, match, claim)
    form = SeatChoiceForm(request.POST, players=players, taken=taken_seats(match))
    if not form.is_valid():
        return pick_page(request, match, form, status=400)
    seat = form.cleaned_data["seat"]
    response = redirect("seats:join_match", match.join_token)
    try:
        claim = take_seat(match, seat, phone_for(request, response))
    except AlreadySeated as seated:
        return already_seated(request, match, seated.claim)
    except SeatTaken:
        form = SeatChoiceForm(players=players, taken=taken_seats(match))
        form.taken_message = _(
            "Bu adı başka bir telefon seçti: %(name)s. Kendi adınızı seçin; o siz iseniz çeteleyi "
            "tutan kişi o telefonu çıkarabilir."
        ) % {"name": players[seat].name}
        return pick_page(request, match, form, status=409)
    # What the phone is for is said under it, on the page itself (cetele/seats/joined.html).
    messages.success(request, _("Hoş geldiniz, %(name)s.") % {"name": players[seat].name})
    remember_claim(request, response, claim)
    return response


def already_seated(request: HttpRequest, match: Match, claim) -> HttpResponse:
    """This phone has its seat here already: its page, and its cookie holds that seat's key
    (whichever of two answers at the same moment the phone keeps last)."""
    name = match.players.get(seat=claim.seat).name
    messages.info(request, _("Bu telefonda zaten %(name)s olarak yazıyorsunuz.") % {"name": name})
    response = redirect("seats:join_match", match.join_token)
    remember_claim(request, response, claim)
    return response


# --- A joined phone writes its row ----------------------------------------------------------------


@require_POST
@secret_link(role=JOIN)
def join_row(request: HttpRequest, match: Match) -> HttpResponse:
    """Keep this phone's row for the open hand: its own player's, never anyone else's. Bad
    input is told and changes nothing; a row for a hand already saved is told and dropped."""
    claim = claim_of(request, match)
    if claim is None:
        return no_seat(request, match)
    players = list(match.players.all())
    row = PlayerRow(match, players[claim.seat], request.POST, position=None)
    if not row.is_valid():
        if request.htmx:
            return row_status(request, match, row.errors(), error=True)
        return joined_page(request, match, claim.seat, row=row, status=400)
    try:
        with seat_held(match, claim):
            write_row(match, row.position, claim.seat, row.values(), row.finished)
    except SeatFreed:
        return no_seat(request, match)
    except HandClosed as closed:
        notice = hand_closed_notice(row.position, closed.position)
        if request.htmx:
            return fresh_row(request, match, claim.seat, notice)
        messages.error(request, notice)
        return redirect("seats:join_match", match.join_token)
    sent = _("Satırınız gönderildi: çeteleyi tutan kişi eli kaydedince sayılır.")
    if request.htmx:
        return row_status(request, match, [sent])
    messages.success(request, sent)
    return redirect("seats:join_match", match.join_token)


def hand_closed_notice(written_for: int, now_open: int | None) -> str:
    if now_open is None:
        return _("%(number)s. el siz yazarken kaydedildi ve maç bitti; bu satır sayılmadı.") % {
            "number": written_for
        }
    return _(
        "%(number)s. el siz yazarken kaydedildi; bu satır sayılmadı. Kaydedilen el çetelede; "
        "şimdi %(next)s. el için yazın."
    ) % {"number": written_for, "next": now_open}


def fresh_row(request, match: Match, seat: int, notice: str) -> HttpResponse:
    """A row that came after its hand was saved, sent by htmx: the phone's row starts again for
    the hand open now, saying why (or, the match over, the sentence alone)."""
    players = list(match.players.all())
    position = open_position(match)
    if position is None:
        return row_status(request, match, [notice], error=True)
    context = {
        "row": PlayerRow(match, players[seat], position=position),
        "position": position,
        "player": players[seat],
        "token": match.join_token,
        "notice_lost": notice,
    }
    response = TemplateResponse(request, "cetele/seats/_row_form.html", context)
    retarget(response, "#my-row")
    reswap(response, "outerHTML")
    return trigger_client_event(response, "cetele:poll-now")  # the sheet has the saved hand


# --- The rows, live -------------------------------------------------------------------------------


@require_safe
@secret_link(finds=polled_match)  # a poll, not a visit
def rows_poll(request: HttpRequest, match: PolledMatch, role: str) -> HttpResponse:
    """204 while neither the sheet nor the rows changed since the page's `?v=&d=` (one indexed
    query); else every player's state for the open hand, drawn once per state and role
    (cetele.seats.rows). When the match is over: 286, which stops htmx asking (no hand is being
    entered)."""
    sheet_changed = request.GET.get("v") != str(match.version)
    if not sheet_changed and request.GET.get("d") == str(match.draft_version):
        return HttpResponse(status=204)
    rows = kept(rows_key(match, role), lambda: draw_rows(match.pk, role))
    if rows.position is None:
        # No hand to write: 286 stops htmx asking. A joined phone's own row and gösterge go,
        # the match's end in their place, as its page drawn now says.
        if role == JOIN:
            context = {"oob": True}
            response = TemplateResponse(request, "cetele/seats/joined.html#all_played", context)
        else:
            response = HttpResponse()
        response.status_code = HTMX_STOP_POLLING
        # The last hand's sheet, which asks on its own.
        trigger_client_event(response, "cetele:poll-now")
        return response
    context = {"rows": rows.html}
    if role == JOIN:
        context.update(joined_extras(request, match, rows.position, sheet_changed))
    response = TemplateResponse(request, "cetele/seats/_rows_answer.html", context)
    if sheet_changed:
        trigger_client_event(response, "cetele:poll-now")  # the sheet changed: ask for it now
    return response


# --- What a view link shows, under the join link --------------------------------------------------


@require_POST
@secret_link(role=JOIN)
def join_objection(request: HttpRequest, match: Match, number: int) -> HttpResponse:
    """ "İtiraz et": this phone's player objects to hand `number`. One open objection per seat
    and hand: a second one replaces the first's reason (and says so). Bad input is told and
    writes nothing; a hand deleted meanwhile is told in a sentence."""
    claim = claim_of(request, match)
    hand = match.hands.filter(number=number).first()
    if hand is None and not match.changes.filter(hand_number=number).exists():
        raise Http404(_("Bu el yok."))  # never a hand of this match
    if claim is None:
        return objection_refused(request, match, NO_SEAT)
    form = ObjectionForm(request.POST)
    if hand is None:
        return objection_refused(request, match, OBJECTION_HAND_GONE)
    if not form.is_valid():
        if request.htmx:
            return objection_answer(request, match, hand, form, claim)
        return read_only_hand_page(request, match, hand, JOIN, claim, form, status=400)
    try:
        with seat_held(match, claim):
            replaced = match.raise_objection(
                number, claim.seat, form.cleaned_data["reason"], form.cleaned_data["note"]
            )
    except SeatFreed:
        return objection_refused(request, match, NO_SEAT)
    except HandGone:
        return objection_refused(request, match, OBJECTION_HAND_GONE)
    except DatabaseError as error:
        logger.error("Objection not saved, the database refused the write: %s", error)
        return objection_refused(request, match, NOT_WRITTEN)
    if replaced:
        said = _("İtirazınızın nedeni değişti: bir ele bir itirazınız olur.")
    else:
        said = _("İtirazınız gönderildi: çeteleyi tutan onu bu elin yanında görür.")
    if request.htmx:
        return objection_answer(request, match, hand, ObjectionForm(), claim, said=said)
    messages.success(request, said)
    return redirect("sharing:join_hand", match.join_token, number)


NO_SEAT = gettext_lazy("Bu maçta henüz adınızı seçmediniz: itiraz etmek için önce adınızı seçin.")
OBJECTION_HAND_GONE = gettext_lazy(
    "Bu el az önce silindi ya da geri alındı; itirazınız kaydedilmedi."
)


def objection_answer(request, match, hand, form, claim, said: str = "") -> TemplateResponse:
    """The answer to an objection sent by htmx: the hand's objections as they are now, its form
    again (with its errors, or empty after it was kept), and what became of it."""
    players = list(match.players.all())
    context = {
        **link_context(match, JOIN),
        "hand": hand,
        "objections": objection_history(match, players, hand.number),
        "objection_form": form,
        "own_player": players[claim.seat],
        "said": said,
    }
    return TemplateResponse(request, "cetele/seats/_objection.html", context)


def objection_refused(request, match, sentence) -> HttpResponse:
    """Nothing was written: the sentence where the phone shows its objection (htmx swaps an
    answer of 200 only), or on the sheet the phone is sent back to (a plain form)."""
    if request.htmx:
        context = {**link_context(match, JOIN), "lines": [sentence], "error": True}
        return TemplateResponse(request, "cetele/seats/_objection_status.html", context)
    messages.error(request, sentence)
    return redirect("seats:join_match", match.join_token)


# --- The scorer's side (edit link) ----------------------------------------------------------------


@require_POST
@secret_link(role=EDIT)
def join_rotate(request: HttpRequest, match: Match) -> HttpResponse:
    """A new join link: the old one stops working and every joined phone is let go."""
    form = RotateJoinForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Yenilemek için önce kutuyu işaretleyin: hiçbir şey değişmedi."))
        return redirect("sharing:match_share", match.edit_token)
    rotate_join_link(match)
    messages.success(
        request,
        _(
            "Yeni katılma bağlantısı hazır; eskisi artık açılmıyor ve katılan telefonlar çıktı. "
            "Oyunculara yenisini gösterin."
        ),
    )
    return redirect("sharing:match_share", match.edit_token)


@require_POST
@secret_link(role=EDIT)
def seat_free(request: HttpRequest, match: Match) -> HttpResponse:
    """ "Telefonu çıkar": the phone on this seat is let go; another phone may take it."""
    form = FreeSeatForm(request.POST)
    players = list(match.players.all())
    if not form.is_valid() or form.cleaned_data["seat"] >= len(players):
        unclear = _("Hangi telefonun çıkarılacağı anlaşılamadı: hiçbir şey değişmedi.")
        messages.error(request, unclear)
        return redirect("sharing:match_share", match.edit_token)
    seat = form.cleaned_data["seat"]
    name = players[seat].name
    if free_seat(match, seat):
        messages.success(
            request,
            _("Telefon çıkarıldı; bu adı artık başka bir telefon seçebilir: %(name)s.")
            % {"name": name},
        )
    else:
        none = _("Bu adda telefon yoktu: %(name)s. Hiçbir şey değişmedi.")
        messages.info(request, none % {"name": name})
    return redirect("sharing:match_share", match.edit_token)


@require_POST
@secret_link(role=EDIT)
def objection_close(request: HttpRequest, match: Match) -> HttpResponse:
    """ "Doğru, kapat": the scorer finds the hand right; the objection ends, the hand stays."""
    form = CloseObjectionForm(request.POST)
    if not form.is_valid():
        unclear = _("Hangi itirazın kapatılacağı anlaşılamadı: hiçbir şey değişmedi.")
        messages.error(request, unclear)
        return redirect(match_url(match))
    try:
        objection, closed = match.close_objection(form.cleaned_data["objection"])
    except ObjectionGone:
        messages.error(request, _("Bu maçta böyle bir itiraz yok: hiçbir şey değişmedi."))
        return redirect(match_url(match))
    except DatabaseError as error:
        logger.error("Objection not closed, the database refused the write: %s", error)
        messages.error(request, NOT_WRITTEN)
        return redirect(match_url(match))
    if closed:
        messages.success(request, _("İtiraz kapatıldı: el olduğu gibi kaldı."))
    else:  # a double tap, or a correction or deletion came first
        messages.info(
            request,
            _("Bu itiraz zaten kapandı: %(how)s.") % {"how": objection.get_outcome_display()},
        )
    return redirect(match_url(match))
