"""The tea tally's views: a tap on "+ çay" or "−" at a match (its edit link) or at a table (its
edit link, for the table's latest match), the rule, and a table's list of items.

Only the edit links write: every view here wears `secret_link(role=EDIT)` and finds its match
or table by the edit token, so a view or join link is the same 404 as any unknown link. The
view and joined phones see the tally read-only, in the sheet (cetele/matches/sheet.py). Every form
works without JavaScript (a POST, then the page again); with htmx a tap answers with the card.
"""

import logging
from urllib.parse import urlsplit

from django.contrib import messages
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from cetele.matches.pages import sheet_context
from cetele.models import Match, SheetError, Table
from cetele.sharing.links import EDIT, secret_link
from cetele.tables.season import table_by_token
from cetele.tea.card import match_card, table_card_now
from cetele.tea.forms import (
    BAD_TAP,
    DrinkForm,
    TableDrinkForm,
    TeaItemsForm,
    TeaRuleForm,
    WaitingDrinkForm,
)
from cetele.tea.tally import (
    AlreadyCounted,
    ListChanged,
    NoDrink,
    TallyMoved,
    UnknownDrink,
    change_drinks,
    change_waiting,
    items_and_rule,
    save_items,
    set_rule,
    table_items,
)

logger = logging.getLogger(__name__)
NOT_WRITTEN = gettext_lazy(
    "Kaydedilemedi: sunucu şu an veritabanına yazamıyor. Biraz sonra yeniden dokunun."
)
LIST_CHANGED = gettext_lazy(
    "Çay listesi az önce başka bir telefondan değişti; sizinki kaydedilmedi. Listenin şimdiki "
    "hâli aşağıda: değişikliğinizi yeniden yapıp kaydedin."
)


def tap(request: HttpRequest, match: Match, form: DrinkForm, players: list) -> tuple[str, bool]:
    """Make the tap the form names; the sentence that says what happened, and whether it was
    refused (then nothing changed)."""
    if not form.is_valid():
        return BAD_TAP, True
    seat, item = form.cleaned_data["seat"], form.cleaned_data["item"]
    add = form.cleaned_data["action"] == "add"
    try:
        count = change_drinks(
            match, seat, item, form.seen_count(), add=add, tap=form.cleaned_data["tap"]
        )
    except Match.DoesNotExist as error:
        raise Http404(_("Bu maç silindi.")) from error
    except SheetError as error:
        return refusal(error, lambda: cell_words(match, players, seat, item))
    except DatabaseError as error:
        logger.error("Drink not saved, the database refused the write: %s", error)
        return NOT_WRITTEN, True
    words = {**cell_words(match, players, seat, item), "count": count}
    return done(words, add), False


def done(words: dict, add: bool) -> str:
    if add:
        return _("%(name)s: bir %(item)s daha (%(count)s).") % words
    return _("%(name)s: bir %(item)s geri alındı (%(count)s).") % words


def refusal(error: Exception, words) -> tuple[str, bool]:
    """What a refused tap says (nothing changed); `words()` names the cell. A tap counted
    before is no refusal: it was counted, once."""
    if isinstance(error, UnknownDrink):
        return _("Bu oyuncu ya da içecek bu maçta yok; çay defterinde hiçbir şey değişmedi."), True
    if isinstance(error, NoDrink):
        return _("Geri alınacak içecek yok; çay defterinde hiçbir şey değişmedi."), True
    if isinstance(error, AlreadyCounted):
        return (
            _("%(name)s: bu %(item)s zaten sayılmıştı (%(count)s); bir daha sayılmadı.")
            % {**words(), "count": error.count},
            False,
        )
    if isinstance(error, TallyMoved):
        return (
            _(
                "%(name)s için %(item)s sayısı az önce değişti, şimdi %(count)s. Bu değişiklik "
                "yapılmadı; gerekiyorsa yeniden dokunun."
            )
            % {**words(), "count": error.count},
            True,
        )
    raise error


def cell_words(match: Match, players: list, seat: int, item: int) -> dict:
    names = {player.seat: player.name for player in players}
    items = {entry.place: entry.name for entry in items_and_rule(match)[0]}
    return {"name": names.get(seat, "?"), "item": items.get(item, "?")}


def answer(request, note: str, refused: bool, context: dict, page_url: str) -> HttpResponse:
    """htmx: the card again with the sentence in it. Without JavaScript: the page again, the
    sentence at its top (the card's anchor, for the table's page)."""
    if request.htmx:
        context = {**context, "tea_note": note, "tea_refused": refused}
        return TemplateResponse(request, "cetele/tea/_card.html", context)
    (messages.warning if refused else messages.success)(request, note)
    return redirect(page_url + "#tea")


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT)
def match_drink(request: HttpRequest, match: Match) -> HttpResponse:
    """The match's tally: its card (the scorer's page asks for it with htmx once drawn), or its
    own page without JavaScript; a POST is a tap, "+ çay" or "−"."""
    finished = match.is_over()
    if request.method != "POST":
        context = {**match_card(match, finished), "match": match}
        template = "cetele/tea/_card.html" if request.htmx else "cetele/tea/match.html"
        return TemplateResponse(request, template, context)
    players = list(match.players.all())
    note, refused = tap(request, match, DrinkForm(request.POST), players)
    match.refresh_from_db(fields=["version"])  # the card says the version of its counts
    context = match_card(match, finished)
    if finished and not refused:
        with_new_bill(request, match, context)
    return answer(
        request, note, refused, context, reverse("tea:match_drink", args=[match.edit_token])
    )


def with_new_bill(request: HttpRequest, match: Match, context: dict) -> None:
    """The bill in the sheet's summary changed (a drink, or the rule): an htmx answer to the
    sheet's page takes the sheet too, at its new version, so that the page never shows the old
    bill under the new card until its next poll."""
    if not on_sheet_page(request, match):
        return
    fresh = Match.objects.get(pk=match.pk)
    context.update(sheet_context(fresh, role=EDIT, rows_poll=True), oob=True, with_sheet=True)
    context["tea_match"] = fresh


def on_sheet_page(request: HttpRequest, match: Match) -> bool:
    """Whether an htmx tap came from the match's sheet (not the tally's own page), which then
    takes the sheet too."""
    current = request.htmx.current_url_abs_path if request.htmx else None
    sheet_url = reverse("matches:match_detail", args=[match.edit_token])
    return bool(current) and urlsplit(current).path == sheet_url


@require_POST
@secret_link(role=EDIT, finds=None)
def table_drink(request: HttpRequest, token: str) -> HttpResponse:
    """ "+ çay" or "−" on a table's page, for the match it showed (one of the table's)."""
    table = table_by_token(EDIT, token)
    form = TableDrinkForm(request.POST)
    match = None
    if form.is_valid():
        match = table.matches.filter(pk=form.cleaned_data["match"]).first()
    if match is None:
        note, refused = _("Bu maç bu masanın değil; çay defterinde hiçbir şey değişmedi."), True
        if not form.is_valid():
            note = BAD_TAP
    else:
        note, refused = tap(request, match, form, list(match.players.all()))
    context = table_card_now(table)
    return answer(request, note, refused, context, reverse("tables:table_detail", args=[token]))


@require_POST
@secret_link(role=EDIT, finds=None)
def table_waiting_drink(request: HttpRequest, token: str) -> HttpResponse:
    """ "+ çay" or "−" on a table's page for a table player, before the table's next match: the
    drink waits at the table for it (cetele.tea.tally.change_waiting)."""
    table = table_by_token(EDIT, token)
    form = WaitingDrinkForm(request.POST)
    note, refused = BAD_TAP, True
    if form.is_valid():
        note, refused = waiting_tap(table, form)
    context = table_card_now(table)
    return answer(request, note, refused, context, reverse("tables:table_detail", args=[token]))


def waiting_tap(table: Table, form: WaitingDrinkForm) -> tuple[str, bool]:
    place, item = form.cleaned_data["place"], form.cleaned_data["item"]
    add = form.cleaned_data["action"] == "add"

    def words() -> dict:
        name = table.players.filter(place=place).values_list("name", flat=True).first()
        items = {entry.place: entry.name for entry in table_items(table.pk)}
        return {"name": name or "?", "item": items.get(item, "?")}

    try:
        tapped = change_waiting(
            table, place, item, form.seen_count(), add=add, tap=form.cleaned_data["tap"]
        )
    except SheetError as error:
        if isinstance(error, UnknownDrink):
            return _(
                "Bu oyuncu ya da içecek bu masada yok; çay defterinde hiçbir şey değişmedi."
            ), True
        return refusal(error, words)
    except DatabaseError as error:
        logger.error("Drink not saved, the database refused the write: %s", error)
        return NOT_WRITTEN, True
    said = {**words(), "count": tapped.count}
    if tapped.match_id is not None:
        return _("%(name)s: bir %(item)s daha, oynadığı maçta (%(count)s).") % said, False
    return done(said, add), False


@require_POST
@secret_link(role=EDIT)
def match_tea_rule(request: HttpRequest, match: Match) -> HttpResponse:
    """Who pays: "kaybeden öder" or "herkes kendi" (a table's for all its matches)."""
    form = TeaRuleForm(request.POST)
    if not form.is_valid():
        note, refused = " ".join(form.errors.get("rule", [])), True
    else:
        try:
            changed = set_rule(match, form.cleaned_data["rule"])
        except DatabaseError as error:
            logger.error("Tea rule not saved, the database refused the write: %s", error)
            note, refused = NOT_WRITTEN, True
        else:
            refused = False
            label = dict(form.fields["rule"].choices)[form.cleaned_data["rule"]]
            if changed:
                note = _("Çay defteri: %(rule)s.") % {"rule": label}
            else:
                note = _("Çay defteri zaten böyleydi: %(rule)s.") % {"rule": label}
    match = Match.objects.get(pk=match.pk)
    finished = match.is_over()
    context = match_card(match, finished)
    if finished and not refused:
        with_new_bill(request, match, context)
    return answer(
        request, note, refused, context, reverse("tea:match_drink", args=[match.edit_token])
    )


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT, finds=None)
def table_tea(request: HttpRequest, token: str) -> HttpResponse:
    """The table's list of items with their prices, and its rule."""
    table = table_by_token(EDIT, token)
    items = table_items(table.pk)
    form = TeaItemsForm(request.POST or None, items=items, initial={"rule": table.tea_rule})
    status = 200
    if request.method == "POST" and form.stale():
        return list_changed(request, table)
    if request.method == "POST" and form.is_valid():
        try:
            save_items(table, items, form.saved_items(), form.cleaned_data["rule"])
        except ListChanged:
            return list_changed(request, table)
        except DatabaseError as error:
            logger.error("Tea items not saved, the database refused the write: %s", error)
            form.add_error(None, NOT_WRITTEN)
            status = 503
        else:
            messages.success(request, _("Çay listesi kaydedildi."))
            return redirect(reverse("tables:table_detail", args=[token]) + "#tea")
    context = {"table": table, "form": form}
    return TemplateResponse(request, "cetele/tea/items.html", context, status=status)


def list_changed(request: HttpRequest, table: Table) -> TemplateResponse:
    """Another phone saved the table's list since this phone's page was drawn (or while this
    save waited for the lock): nothing was written; the list as it is now, to change again."""
    table.refresh_from_db(fields=["tea_rule"])
    form = TeaItemsForm(items=table_items(table.pk), initial={"rule": table.tea_rule})
    context = {"table": table, "form": form, "list_changed": LIST_CHANGED}
    return TemplateResponse(request, "cetele/tea/items.html", context, status=409)
