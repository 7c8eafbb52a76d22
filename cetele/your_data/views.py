"""Your data, your call: whoever holds an edit link may delete what it opens (a match, a house
preset, a table) after a confirmation that names it. View links delete nothing: these views
exist only under edit links.

Deletion itself is in `cetele.your_data.deletion`. After it the browser is sent to a page that
tells this phone's app.js to drop the dead link from its own lists ("Maçlarım", its house presets).
"""

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from cetele.house_rules.rulesets import house_by_token
from cetele.models import Match
from cetele.sharing.links import EDIT, FORGET_PARAM, forget_value, secret_link
from cetele.tables.season import table_by_token
from cetele.tournaments.guard import is_a_game
from cetele.your_data.deletion import (
    delete_house_preset,
    delete_match,
    delete_table,
    not_games,
)


class ConfirmDeletionForm(forms.Form):
    """Deleting takes a deliberate tick: a stray tap on the button deletes nothing."""

    confirm = forms.BooleanField(
        label=gettext_lazy("Evet, silinsin. Bunun geri dönüşü yok."),
        error_messages={"required": gettext_lazy("Silmek için önce bu kutuyu işaretleyin.")},
    )


class TableDeletionForm(ConfirmDeletionForm):
    """A table's matches are kept or deleted with it, as the user chooses: no default."""

    KEEP, DELETE = "keep", "delete"
    matches = forms.ChoiceField(
        label=gettext_lazy("Masanın maçları"),
        choices=[
            (KEEP, gettext_lazy("Maçlar kalsın (kendi bağlantılarıyla açılmaya devam eder)")),
            (DELETE, gettext_lazy("Maçlar da silinsin")),
        ],
        widget=forms.RadioSelect,
        error_messages={"required": gettext_lazy("Maçlara ne olacağını seçin.")},
    )
    field_order = ["matches", "confirm"]

    @property
    def with_matches(self) -> bool:
        return self.cleaned_data["matches"] == self.DELETE


def posted(request: HttpRequest):
    """The POST data, even when empty (an empty POST must still be refused, not shown anew)."""
    return request.POST if request.method == "POST" else None


def after_deletion(url_name: str, forget: list[str]) -> HttpResponse:
    """Back to a list page that tells app.js which of this phone's entries to drop (signed:
    cetele.sharing.links.forgotten believes nothing else)."""
    return redirect(f"{reverse(url_name)}?{urlencode({FORGET_PARAM: forget_value(forget)})}")


# --- A match -------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT)
def match_delete(request: HttpRequest, match: Match) -> HttpResponse:
    """Delete the match with its hands, history and both links (the GET page confirms)."""
    form = ConfirmDeletionForm(posted(request))
    # A tournament game's result is the tournament's (its standings, its bracket): its match is
    # never deleted alone through the table's edit link (it is forgotten after its tournament).
    in_tournament = is_a_game(match.pk)
    if in_tournament:
        form = None
    if form is not None and request.method == "POST" and form.is_valid():
        key = match.phone_key
        delete_match(match)
        messages.success(
            request,
            _(
                "Maç silindi: oyuncu adları, eller ve geçmişiyle birlikte. Bağlantıları artık "
                "açılmıyor."
            ),
        )
        return after_deletion("matches:home", [key])
    context = {
        "match": match,
        "players": list(match.players.all()),
        "played": match.hands.count(),
        "form": form,
        "in_tournament": in_tournament,
    }
    status = 409 if in_tournament and request.method == "POST" else 200
    return TemplateResponse(request, "cetele/your_data/match_delete.html", context, status=status)


# --- A house preset ------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT, finds=None)
def house_delete(request: HttpRequest, token: str) -> HttpResponse:
    """Delete a house preset (its edit link); matches started with it keep their own copy."""
    house = house_by_token("edit_token", token)
    form = ConfirmDeletionForm(posted(request))
    if request.method == "POST" and form.is_valid():
        forget = house.choice_value
        delete_house_preset(house)
        messages.success(
            request,
            _("Ev kuralı silindi. Onunla başlamış maçlar kendi kopyalarıyla sürer."),
        )
        return after_deletion("house_rules:rules_list", [forget])
    context = {"house": house, "match_count": started_with(house.choice_value), "form": form}
    return TemplateResponse(request, "cetele/your_data/house_delete.html", context)


def started_with(preset_value: str) -> int:
    return Match.objects.filter(preset_slug=preset_value).count()


# --- A table -------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT, finds=None)
def table_delete(request: HttpRequest, token: str) -> HttpResponse:
    """Delete a table (its edit link), keeping or deleting its matches as the user chooses."""
    table = table_by_token(EDIT, token)
    form = TableDeletionForm(posted(request))
    if request.method == "POST" and form.is_valid():
        forget = [table.phone_key]
        if form.with_matches:
            # In the order they were played: the same list on either database.
            gone = not_games(table.matches.order_by("pk"))  # a tournament's game stays
            forget += list(gone.values_list("phone_key", flat=True))
        deleted = delete_table(table, with_matches=form.with_matches)
        if deleted:
            message = ngettext(
                "Masa ve %(count)s maçı silindi.", "Masa ve %(count)s maçı silindi.", deleted
            ) % {"count": deleted}
        else:
            message = _("Masa silindi. Maçları kendi bağlantılarıyla açılmaya devam eder.")
        messages.success(request, message)
        return after_deletion("matches:home", forget)
    context = {
        "table": table,
        "players": list(table.players.all()),
        "match_count": table.matches.count(),
        "form": form,
    }
    return TemplateResponse(request, "cetele/your_data/table_delete.html", context)
