"""Forms for tables (masa): setting one up, its players, and starting a match at it.

A match at a table seats the table's players by their place (a choice, never a typed name), so
that every match of the table knows who is who however a name was spelled that evening.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from cetele.matches.forms import MatchForm
from cetele.models import Table, TablePlayer
from cetele.shell.names import NameField
from cetele.tables.season import MAX_TABLE_PLAYERS, moved_on, table_full

SEATS = 4
NAME_MAX = 30


class TableForm(forms.Form):
    """A new table: its name and up to eight players."""

    name = NameField(label=_("Masanın adı"), max_length=60, initial=_("Cuma masası"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for number in range(1, MAX_TABLE_PLAYERS + 1):
            self.fields[f"player_{number}"] = NameField(
                label=_("%(number)s. oyuncu") % {"number": number},
                max_length=NAME_MAX,
                required=number <= 2,
            )

    def names(self) -> list[str]:
        names = (self.cleaned_data.get(f"player_{n}", "") for n in range(1, MAX_TABLE_PLAYERS + 1))
        return [name.strip() for name in names if name.strip()]

    def clean(self) -> dict:
        cleaned = super().clean()
        if not self.errors:
            _check_distinct(self, self.names())
        return cleaned


def _check_distinct(form: forms.Form, names: list[str]) -> None:
    folded = [name.casefold() for name in names]
    if len(set(folded)) != len(folded):
        form.add_error(None, _("Masada aynı adla iki oyuncu olamaz."))


class TableNameForm(forms.Form):
    """Setting up a table from a match: its players are the match's."""

    name = NameField(label=_("Masanın adı"), max_length=60)


class TablePlayersForm(forms.Form):
    """Rename the table's players and add new ones (empty fields add nobody).

    Each name field sends back, hidden, the name this phone was shown (`show_hidden_initial`):
    only a name the user changed is a rename, so a phone that only adds a newcomer never writes
    back a name another phone changed meanwhile. The names are checked again where they are
    written, under the table's lock (cetele.tables.season.save_players)."""

    NEW = 2  # empty fields offered for newcomers

    def __init__(self, *args, players: list[TablePlayer], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A player seated after this phone drew its page (a double tap's first half, another
        # phone) is not in what it sends: left as they are, not asked for again.
        self.players = [p for p in players if not self.is_bound or f"place_{p.place}" in self.data]
        for player in self.players:
            self.fields[f"place_{player.place}"] = NameField(
                label=_("%(number)s. oyuncu") % {"number": player.place + 1},
                max_length=NAME_MAX,
                initial=player.name,
                show_hidden_initial=True,
            )
        # A posted newcomer is always read, even if the table filled up since the page was
        # drawn: refused with a sentence (clean), never dropped in silence.
        free = self.NEW if self.is_bound else MAX_TABLE_PLAYERS - len(players)
        for index in range(min(self.NEW, free)):
            self.fields[f"new_{index}"] = NameField(
                label=_("Yeni oyuncu"), max_length=NAME_MAX, required=False
            )
        self.seated = len(players)

    def renamed(self) -> list[TablePlayer]:
        """The players whose name the user changed on this page."""
        changed = []
        for player in self.players:
            if f"place_{player.place}" in self.changed_data:
                player.name = self.cleaned_data[f"place_{player.place}"].strip()
                changed.append(player)
        return changed

    def new_names(self) -> list[str]:
        names = (self.cleaned_data[name] for name in self.fields if name.startswith("new_"))
        return [name.strip() for name in names if name.strip()]

    def clean(self) -> dict:
        cleaned = super().clean()
        if not self.errors:
            current = [cleaned[f"place_{player.place}"].strip() for player in self.players]
            _check_distinct(self, current + self.new_names())
            if self.seated + len(self.new_names()) > MAX_TABLE_PLAYERS:
                self.add_error(None, table_full())
        return cleaned


class TableMatchForm(MatchForm):
    """The new-match form with the table's players chosen per seat instead of typed."""

    def __init__(self, *args, table: Table, players: list[TablePlayer], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.by_place = {str(player.place): player for player in players}
        choices = [("", _("— boş —"))] + [(key, p.name) for key, p in self.by_place.items()]
        for seat in range(1, SEATS + 1):
            self.fields[f"name_{seat}"] = forms.ChoiceField(
                label=_("%(seat)s. yer") % {"seat": seat},
                choices=choices,
                required=seat <= 2,
            )

    @classmethod
    def initial_for_table(cls, players: list[TablePlayer], last: list | None, match) -> dict:
        """The table's last match moved on by one seat, with its rules; or the first players."""
        if match is not None and last:
            places = moved_on(last)
            initial = MatchForm.initial_for(match.preset_slug)
            initial.update(
                teams=match.teams,
                planned_hands=match.planned_hands,
                hidden_totals=match.hidden_totals,
            )
            initial["cezali"] = "1" if match.ruleset().cezali else "0"
        else:
            places = [player.place for player in players[:SEATS]]
            initial = {}
        for seat, place in enumerate(places, start=1):
            initial[f"name_{seat}"] = "" if place is None else str(place)
        return initial

    def clean(self) -> dict:
        # Before MatchForm's checks, which would take a repeated place for a repeated name.
        seen = set()
        for seat in range(1, SEATS + 1):
            field = f"name_{seat}"
            place = self.cleaned_data.get(field)
            if place and place in seen:
                self.add_error(field, _("Bir oyuncu iki yerde oturamaz."))
            seen.add(place)
        return super().clean()

    def places(self) -> list[int]:
        return [int(key) for key in self._chosen()]

    def names(self) -> list[str]:
        return [self.by_place[key].name for key in self._chosen()]

    def _chosen(self) -> list[str]:
        keys = (self.cleaned_data.get(f"name_{n}", "") for n in range(1, SEATS + 1))
        return [key for key in keys if key]
