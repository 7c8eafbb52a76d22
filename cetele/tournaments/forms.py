"""The organiser's forms: a new tournament, its entrants, a withdrawal, a draw, a result by hand.

Django forms own validation; the core's own check (TournamentSpec, TournamentError) is the
last guard, and what it refuses becomes a form error too, never a 500.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from cetele.matches.forms import (
    DUPLICATE_NAME,
    cezali_field,
    duplicate_names,
    frozen_rules,
    offer_presets,
    preset_field,
)
from cetele.shell.names import (
    NOTHING_VISIBLE,
    LinesField,
    NameField,
    TextField,
    clean_name,
    visible,
)
from cetele.tournaments import engine as core
from cetele.tournaments.models import Kind, Layout

PLACES = 4
NAME_LENGTH = 30
TEAM_NAME_LENGTH = 64
MAX_ENTRANTS = 256


def number(label, initial=None, *, low=0, high=99, required=True) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, initial=initial, min_value=low, max_value=high, required=required
    )


# Which field a rule of the core's speaks of, and how to say it.
SPEC_ERRORS = {
    "kind_layout": (
        "layout",
        _("Tek turnuva turlarla, eşli turnuva gruplarla ya da lig olarak oynanır."),
    ),
    "hands_per_game": ("hands_per_game", _("Bir oyun en az bir el sürer.")),
    "games_per_pairing": ("games_per_pairing", _("Bir eşleşme tek oyun ya da üç oyundur.")),
    "group_size": ("group_size", _("Bir grupta en az iki takım olur.")),
    "advance": ("advance", _("Gruptan çıkan takım sayısı 1 ile grup büyüklüğü arasında olmalı.")),
    "points": ("win_points", _("Puanlar galibiyet ≥ beraberlik ≥ yenilgi olmalı.")),
    "place_points": ("place_1", _("Dört sıranın puanını yazın.")),
    "rounds": ("rounds", _("En az bir tur oynanır.")),
    "tables": ("tables", _("En az bir masa gerekir.")),
}


class TournamentForm(forms.Form):
    name = NameField(label=_("Turnuvanın adı"), max_length=80)
    kind = forms.ChoiceField(
        label=_("Oyun"), choices=Kind.choices, initial=Kind.ESLI, widget=forms.RadioSelect
    )
    layout = forms.ChoiceField(
        label=_("Biçim"), choices=Layout.choices, initial=Layout.GROUPS, widget=forms.RadioSelect
    )
    preset = preset_field()
    cezali = cezali_field()
    hands_per_game = number(_("Oyun başına el"), 11, low=1, high=99)
    games_per_pairing = forms.TypedChoiceField(
        label=_("Eşleşme"),
        coerce=int,
        choices=[(1, _("Tek oyun")), (3, _("Üç oyundan iki alan kazanır"))],
        initial=1,
        widget=forms.RadioSelect,
    )
    group_size = number(_("Grup büyüklüğü"), 4, low=2, high=16)
    advance = number(_("Gruptan çıkan"), 2, low=1, high=16)
    rounds = number(_("Tur sayısı (tek)"), 3, low=1, high=30)
    tables = number(_("Masa sayısı"), None, low=1, high=500, required=False)
    win_points = number(_("Galibiyet"), 2)
    draw_points = number(_("Beraberlik"), 1)
    loss_points = number(_("Yenilgi"), 0)
    place_1 = number(_("1."), 3)
    place_2 = number(_("2."), 2)
    place_3 = number(_("3."), 1)
    place_4 = number(_("4."), 0)
    random_draw = forms.BooleanField(
        label=_("Kurayı rastgele çek (işaretsizse yazılış sırasıyla; ilk yazılanlar baş olur)"),
        required=False,
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tables"].help_text = _("Boş: her oyuna bir masa.")
        self.choice = offer_presets(self)

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        if self.choice is None:
            self.add_error("preset", _("Bu kurallar bulunamadı; listeden seçin."))
            return cleaned
        allowed = self.choice.ruleset.hands
        if cleaned["hands_per_game"] not in allowed:
            self.add_error(
                "hands_per_game",
                _("Bu kurallarda bir oyun %(hands)s el olabilir.")
                % {"hands": ", ".join(str(n) for n in allowed)},
            )
            return cleaned
        try:
            self.spec()
        except core.TournamentError as error:
            field, message = SPEC_ERRORS.get(error.code, (None, _("Bu ayarlar birlikte olmaz.")))
            self.add_error(field, message)
        return cleaned

    def spec(self) -> core.TournamentSpec:
        data = self.cleaned_data
        return core.TournamentSpec(
            kind=core.Kind(data["kind"]),
            layout=core.Layout(data["layout"]),
            hands_per_game=data["hands_per_game"],
            games_per_pairing=data["games_per_pairing"],
            group_size=data["group_size"],
            advance=data["advance"],
            points=core.Points(data["win_points"], data["draw_points"], data["loss_points"]),
            place_points=self.place_points(),
            rounds=data["rounds"],
            tables=data["tables"],
        )

    def place_points(self) -> tuple[int, ...]:
        return tuple(self.cleaned_data[f"place_{n}"] for n in range(1, PLACES + 1))

    def settings(self) -> dict:
        """The Tournament fields this valid form sets, the frozen rules among them."""
        data = self.cleaned_data
        slug, base_rules, rules = frozen_rules(self.choice, data["cezali"])
        tek = data["kind"] == Kind.TEK
        return {
            "name": data["name"],
            "kind": data["kind"],
            "layout": data["layout"],
            "rules": rules,
            "preset_slug": slug,
            "base_rules": base_rules,
            "hands_per_game": data["hands_per_game"],
            "games_per_pairing": 1 if tek else data["games_per_pairing"],
            "group_size": data["group_size"],
            "advance": data["advance"],
            "rounds": data["rounds"],
            "tables": data["tables"],
            "win_points": data["win_points"],
            "draw_points": data["draw_points"],
            "loss_points": data["loss_points"],
            "place_points": list(self.place_points()),
            "random_draw": data["random_draw"],
        }


DUPLICATE_TEAM = _("bu takım adı listede zaten var; ayırt edin (ör. “Kartallar 2”).")


def repeated_entry(entries: list[tuple[str, tuple[str, ...]]], taken: list[str], *, esli: bool):
    """Why the entries cannot go in, as "3. satır: …", when a line repeats a name already in
    the tournament (`taken`: players and teams) or on an earlier line; None when none does.
    Asked by the form, and again under the tournament's lock (cetele.tournaments.play): two
    taps at once both pass the form."""
    names = {f"taken-{i}": name for i, name in enumerate(taken)}
    for number, (team, players) in enumerate(entries, start=1):
        for i, name in enumerate((*players, team) if esli else players):
            if esli and i == len(players) and team in players:
                continue  # a team may be called after one of its players
            names[f"{number}-{i}"] = name
    repeated = duplicate_names(names)
    if not repeated:
        return None
    line, index = repeated[0].split("-")
    team = esli and int(index) == 2  # a team's two players come first
    error = DUPLICATE_TEAM if team else DUPLICATE_NAME
    return _("%(line)s. satır: %(error)s") % {"line": line, "error": error}


class EntrantsForm(forms.Form):
    """Entrants typed or pasted, one per line. Eşli: "Takım: Ayşe, Ali" or "Ayşe, Ali" (the team
    is then called "Ayşe & Ali"); tek: one name per line."""

    entries = LinesField(
        label=_("Katılımcılar"),
        widget=forms.Textarea({"rows": 6}),
        max_length=20000,
    )

    def __init__(self, *args, esli: bool, taken: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.esli = esli
        self.taken = taken  # the names already in the tournament: players and teams
        if esli:
            self.fields["entries"].label = _("Takımlar")
            self.fields["entries"].help_text = _(
                "Her satıra bir takım: “Takım adı: Ayşe, Ali” ya da yalnızca “Ayşe, Ali” "
                "(takımın adı “Ayşe & Ali” olur)."
            )
        else:
            self.fields["entries"].label = _("Oyuncular")
            self.fields["entries"].help_text = _("Her satıra bir oyuncu.")

    def clean_entries(self) -> list[tuple[str, tuple[str, ...]]]:
        lines = [line for line in self.cleaned_data["entries"].splitlines() if line.strip()]
        if not lines:
            raise forms.ValidationError(_("En az bir satır yazın."))
        if len(lines) + len(self.taken) > MAX_ENTRANTS:
            raise forms.ValidationError(
                _("Bir turnuvada en çok %(max)s katılımcı olur.") % {"max": MAX_ENTRANTS}
            )
        entries = [self.entry(number, line) for number, line in enumerate(lines, start=1)]
        refusal = repeated_entry(entries, self.taken, esli=self.esli)
        if refusal:
            raise forms.ValidationError(refusal)
        return entries

    def entry(self, number: int, line: str) -> tuple[str, tuple[str, ...]]:
        """One line as (the entrant's name, its players), or a ValidationError naming it."""

        def refuse(message) -> forms.ValidationError:
            return forms.ValidationError(
                _("%(line)s. satır: %(error)s") % {"line": number, "error": message}
            )

        team = ""
        if self.esli:
            if ":" in line:
                team, line = line.split(":", 1)
                team = clean_name(team)
            players = tuple(clean_name(part) for part in line.split(","))
            if len(players) != 2:
                raise refuse(_("bir takım iki oyuncudur: “Ayşe, Ali”."))
            team = team or f"{players[0]} & {players[1]}"
        else:
            players = (clean_name(line),)
            team = players[0]
        for name in players:
            if not any(visible(char) for char in name):
                raise refuse(NOTHING_VISIBLE)
            if len(name) > NAME_LENGTH:
                raise refuse(_("bir ad en çok %(max)s harftir.") % {"max": NAME_LENGTH})
        if len(team) > TEAM_NAME_LENGTH or not any(visible(char) for char in team):
            raise refuse(_("takımın adı 1 ile %(max)s harf arası olmalı.") % {"max": 64})
        return team, players


class VersionForm(forms.Form):
    """What the organiser's page was drawn from: a tap on a page older than the tournament (a
    double tap, another phone's draw) is told so and changes nothing."""

    version = forms.IntegerField(min_value=0, max_value=2**31 - 1)


class DrawForm(VersionForm):
    pass


class WithdrawForm(VersionForm):
    entrant = forms.IntegerField(min_value=1, max_value=32767)  # a small integer column


class ResultForm(forms.Form):
    """A game's totals entered by hand, with why."""

    reason = TextField(
        label=_("Neden"),
        max_length=200,
        help_text=_("Örneğin: hükmen, masa kâğıtta tuttu, yanlış girildi."),
        error_messages={"required": _("Nedenini yazın; sayfada sonuçla birlikte görünür.")},
    )

    # How many results by hand the page showed for the game: one entered since (another
    # organiser's, a double tap) is told, not silently replaced (cetele.tournaments.play).
    # A form without it (a page from before it) counts as having seen none.
    entered = forms.IntegerField(
        min_value=0, max_value=2**31 - 1, required=False, widget=forms.HiddenInput
    )

    def clean_entered(self) -> int:
        return self.cleaned_data["entered"] or 0

    def __init__(self, *args, sides: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.count = len(sides)
        for index, name in enumerate(sides):
            self.fields[f"total_{index}"] = forms.IntegerField(
                label=_("Toplam — %(name)s") % {"name": name},
                min_value=-99999,
                max_value=99999,
            )
        self.order_fields([*(f"total_{i}" for i in range(self.count)), "reason", "entered"])

    def totals(self) -> list[int]:
        return [self.cleaned_data[f"total_{i}"] for i in range(self.count)]
