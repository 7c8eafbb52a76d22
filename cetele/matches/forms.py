"""Forms for starting a match, naming its players and rotating its links.

The hand form is in `cetele.hand_form`; the house-rule editor in `cetele.house_rules.form`.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

import scoring
from cetele.house_rules.rulesets import Choice, find_choice
from cetele.models import Match
from cetele.shell.language import preset_name
from cetele.shell.names import NameField, name_key

# --- Starting a match ---------------------------------------------------------------------


def preset_choices() -> list[tuple[str, str]]:
    return [(slug, preset_name(preset)) for slug, preset in scoring.PRESETS.items()]


DUPLICATE_NAME = _("Bu ad başka bir oyuncuda da var; çetelede karışır. Ayırt edin (ör. “Ali K.”).")


def duplicate_names(names: dict[str, str | None]) -> list[str]:
    """The fields whose name an earlier field already has (letter case aside, Turkish-style)."""
    seen: set[str] = set()
    repeated = []
    for field, name in names.items():
        key = name_key(name or "")
        if not key:
            continue
        if key in seen:
            repeated.append(field)
        seen.add(key)
    return repeated


# --- The rules a match (or a tournament's every game) starts with ---------------------------


def preset_field() -> forms.ChoiceField:
    """Which preset: a built-in, or the house preset the form names (offer_presets)."""
    return forms.ChoiceField(label=_("Kurallar"), initial="cetele-standart")


def cezali_field() -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=_("Ceza"),
        choices=[("1", _("Cezalı")), ("0", _("Cezasız"))],
        coerce=lambda value: value == "1",
        initial="1",
        widget=forms.RadioSelect,
    )


def offer_presets(form: forms.Form) -> Choice | None:
    """Fill the form's `preset` choices; the preset it names now (None: unknown, malformed).

    A house preset is offered only when the form names it (a link's ?preset=, a choice this
    phone remembered): there is no list of other people's presets."""
    value = form.data.get("preset") if form.is_bound else form.initial.get("preset")
    choice = find_choice(value) if isinstance(value, str) else None
    choices = preset_choices()
    if choice and choice.house:
        choices = [
            (_("Ev kuralı"), [(choice.value, choice.name)]),
            (_("Hazır kurallar"), choices),
        ]
    form.fields["preset"].choices = choices
    # app.js lists this phone's recent presets first, and picks the latest one when no link
    # named a preset.
    attrs = {
        "data-recent-presets": "",
        "data-recent-label": _("Bu telefonda son kullanılanlar"),
    }
    if not form.is_bound and not form.initial.get("preset"):
        attrs["data-prefer-recent"] = ""
    form.fields["preset"].widget.attrs.update(attrs)
    return choice


def frozen_rules(choice: Choice, cezali: bool) -> tuple[str, dict, dict]:
    """(where the rules come from: a slug or "house:<view token>", the preset's ruleset, the
    frozen ruleset with the cezalı/cezasız choice): what a match keeps for good."""
    base = scoring.resolve_rules(choice.rules)
    rules = scoring.resolve_rules(scoring.deep_merge(base, {"cezali": cezali}))
    return choice.value, base, rules


class MatchForm(forms.Form):
    # Placeholders, not values: a value would be typed after ("Oyuncu 1Ayşe").
    name_1 = NameField(
        label=_("1. oyuncu"), max_length=30, widget=forms.TextInput({"placeholder": _("Ad")})
    )
    name_2 = NameField(
        label=_("2. oyuncu"), max_length=30, widget=forms.TextInput({"placeholder": _("Ad")})
    )
    name_3 = NameField(
        label=_("3. oyuncu"),
        max_length=30,
        required=False,
        widget=forms.TextInput({"placeholder": _("Ad (boş: 2 kişi)")}),
    )
    name_4 = NameField(
        label=_("4. oyuncu"),
        max_length=30,
        required=False,
        widget=forms.TextInput({"placeholder": _("Ad (boş: 3 kişi)")}),
    )
    teams = forms.BooleanField(label=_("Eşli (karşılıklı oturanlar eş: 1–3, 2–4)"), required=False)
    preset = preset_field()
    cezali = cezali_field()
    planned_hands = forms.TypedChoiceField(
        label=_("El sayısı"),
        coerce=int,
        choices=[(n, str(n)) for n in (1, 3, 5, 7, 9, 11, 13)],
        initial=5,
    )
    hidden_totals = forms.BooleanField(
        label=_("Gizli toplam: son iki ele kadar toplamları yalnız çeteleyi tutan görür"),
        required=False,
    )

    # Who deals the first hand; each next hand passes to the next seat (cetele.deal.dealer).
    # Not required: a form sent without it (an older page) starts with the first player.
    first_dealer = forms.TypedChoiceField(
        label=_("İlk eli dağıtan"),
        coerce=int,
        choices=[(seat, seat + 1) for seat in range(4)],  # named in the page's language below
        initial=0,
        empty_value=0,
        required=False,
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.choice = offer_presets(self)
        # Formatted per request: "%" on a lazy string formats it at once, and at import time
        # that was in Turkish for every language.
        self.fields["first_dealer"].choices = [
            (seat, _("%(seat)s. oyuncu") % {"seat": seat + 1}) for seat in range(4)
        ]

    def chosen(self) -> dict:
        """What "Maçı başlat" will start with, in words beside the button: the rules' name, cezalı
        or cezasız, and the number of hands (app.js follows the user's changes)."""
        field = self["preset"]
        value = str(field.value() or "")
        names = dict(preset_choices())
        if self.choice is not None and self.choice.house:
            names[self.choice.value] = self.choice.name
        cezali = str(self["cezali"].value()) != "0"
        return {
            "name": names.get(value, ""),
            "penalties": _("cezalı") if cezali else _("cezasız"),
            "hands": self["planned_hands"].value(),
        }

    @staticmethod
    def initial_for(value: str | None) -> dict:
        """Initial values when a link names the preset to start with (?preset=)."""
        choice = find_choice(value)
        if choice is None:
            return {}
        hands = choice.ruleset.hands
        return {
            "preset": choice.value,
            "cezali": "1" if choice.ruleset.cezali else "0",
            "planned_hands": 5 if 5 in hands else hands[len(hands) // 2],
        }

    def names(self) -> list[str]:
        names = [self.cleaned_data.get(f"name_{n}", "").strip() for n in range(1, 5)]
        return [name for name in names if name]

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        seats = [bool(cleaned.get(f"name_{n}", "").strip()) for n in range(1, 5)]
        if seats[3] and not seats[2]:
            self.add_error("name_3", _("Oyuncuları sırayla yazın: 4. oyuncudan önce 3. oyuncu."))
        if cleaned.get("teams") and sum(seats) != 4:
            self.add_error("teams", _("Eşli oyun tam 4 oyuncuyla oynanır."))
        for field in duplicate_names({f"name_{n}": cleaned.get(f"name_{n}") for n in range(1, 5)}):
            self.add_error(field, DUPLICATE_NAME)
        if cleaned.get("first_dealer", 0) >= sum(seats):
            self.add_error(
                "first_dealer",
                _("İlk eli dağıtan oyunculardan biri olmalı: boş bir yer dağıtamaz."),
            )
        allowed = self.choice.ruleset.hands
        if cleaned["planned_hands"] not in allowed:
            self.add_error(
                "planned_hands",
                _("Bu kurallarda maç %(hands)s el olabilir.")
                % {"hands": ", ".join(str(n) for n in allowed)},
            )
        return cleaned

    def start(self, **extra) -> Match:
        """The match this valid form describes (`extra`: what a table adds, e.g. its places)."""
        slug, base_rules, rules = self.rules()
        return Match.start(
            self.names(),
            teams=self.cleaned_data["teams"],
            planned_hands=self.cleaned_data["planned_hands"],
            rules=rules,
            preset_slug=slug,
            base_rules=base_rules,
            hidden_totals=self.cleaned_data.get("hidden_totals", False),
            first_dealer=self.cleaned_data["first_dealer"],
            **extra,
        )

    def rules(self) -> tuple[str, dict, dict]:
        """(where the rules come from: a slug or "house:<view token>", the preset's ruleset,
        the match's frozen ruleset with the cezalı/cezasız choice)."""
        return frozen_rules(self.choice, self.cleaned_data["cezali"])


class PlayerNamesForm(forms.Form):
    """The players' names. Each field sends back, hidden, the name this phone was shown
    (`show_hidden_initial`), so only the names its user changed are renamed: two phones with
    the edit link renaming different players both count (Match.rename_players)."""

    def __init__(self, *args, players, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for player in players:
            self.fields[f"seat_{player.seat}"] = NameField(
                label=_("%(seat)s. oyuncu") % {"seat": player.seat + 1},
                max_length=30,
                initial=player.name,
                show_hidden_initial=True,
            )

    def renamed(self) -> dict[int, str]:
        """The new name of each seat whose name the user changed."""
        return {
            int(field.removeprefix("seat_")): self.cleaned_data[field].strip()
            for field in self.changed_data
        }

    def clean(self) -> dict:
        cleaned = super().clean()
        for field in duplicate_names({name: cleaned.get(name) for name in self.fields}):
            self.add_error(field, DUPLICATE_NAME)
        return cleaned


class HiddenTotalsForm(forms.Form):
    """ "Gizli toplam" on or off for a match already started."""

    hidden = forms.BooleanField(
        label=_("Gizli toplam: son iki ele kadar toplamları yalnız çeteleyi tutan görür"),
        required=False,
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "hidden-%s")
        super().__init__(*args, **kwargs)


class RotateLinkForm(forms.Form):
    """Which of two links (a match's, a table's, a house preset's) gets a new token, after a
    deliberate tick: a stray tap on the button must not break every phone holding the link."""

    kind = forms.ChoiceField(
        choices=[("edit", _("Düzenleme")), ("view", _("İzleme"))],
        error_messages={
            "required": _("Hangi bağlantının yenileneceği anlaşılamadı."),
            "invalid_choice": _("Hangi bağlantının yenileneceği anlaşılamadı."),
        },
    )
    confirm = forms.BooleanField(
        label=_("Evet, eski bağlantı çalışmasın"),
        error_messages={"required": _("Yenilemek için önce bu kutuyu işaretleyin.")},
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "rotate-%s")  # beside other forms on the same page
        super().__init__(*args, **kwargs)


class ReverseForm(forms.Form):
    """ "Geri al" or "Yinele": the change the button was drawn for. A phone whose page is older
    than the sheet names a change that is no longer the one to reverse, and is told so."""

    change = forms.IntegerField(min_value=1, max_value=2**31 - 1)
