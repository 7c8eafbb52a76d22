"""The hand form: what a player taps after a hand, and how it becomes the engine's HAND object.

`HandEntry` is the same for "the next hand" and "correct a past hand": the hand-level form
(who finished, okey finish, kafa, the table's house-rule facts), one `SeatForm` per player and a
formset of `PenaltyForm`s per player. Forms check shape and type only; the scoring engine owns
every limit and game rule, and its message is shown beside the field it names.

Two checks live here because they are about what was typed, not about the game: an empty sum is
never read as 0, and a typed sum is never dropped (RULES.md lets the engine ignore a
non-opener's sum; the form refuses it instead, so that nothing typed is lost in silence).
"""

import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property, partial

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import scoring
from cetele.deal.dealer import dealer_of
from cetele.deal.tiles import NUMBERS, indicator_of, okey_of, okey_words
from cetele.shell.language import engine_lang
from cetele.shell.names import TextField
from scoring import Ruleset
from scoring.labels import PENALTY_NAMES
from scoring.turkish import capitalize

NOBODY = "none"  # the finisher choice "kimse bitmedi"
ROW_STAMP = re.compile(r"\d{1,2}-[0-9a-f]{12}")  # cetele.seats.drafts.SeatState.stamp
MAX_ROWS_SEEN_CHARS = 400  # far past a table's rows: a longer field holds no more of them
MAX_PENALTIES_PER_SEAT = 10
NUMERIC = {"inputmode": "numeric", "pattern": "-?[0-9]*", "autocomplete": "off"}
OPENED_CHOICES = [("no", _("Açmadı")), ("series", _("Seri")), ("pairs", _("Çift"))]
COUNT_CHOICES = [(0, "0"), (1, "1"), (2, "2")]
TILE_CHOICES = [("", "—")] + [(n, str(n)) for n in range(1, 14)]
# The indicator's colours, in the order a set prints them (RULES.md, "House-rule extensions").
COLOUR_CHOICES = [
    ("red", _("Kırmızı")),
    ("blue", _("Mavi")),
    ("black", _("Siyah")),
    ("yellow", _("Sarı/yeşil")),
]


def fixed(choices: list) -> Callable[[], list]:
    """A fixed list of choices in the form Django also takes them: a callable. Each request
    makes its forms afresh, and making a form copies its fields: a list of choices is copied
    pair by pair (its translated labels too), a callable as it is."""
    return lambda: choices


# Which fields a penalty event of each kind carries (RULES.md, "Penalties").
PENALTY_FIELDS = {
    "islek_discard": ("taken", "tile"),
    "okey_taken": ("by",),
    "discard_used": ("okey", "used_for", "tile"),
    "custom": ("points", "note"),
}


def penalty_label(kind: str) -> str:
    """ "İşlek taş attı": capitalised by the page's language's rules (Turkish i → İ)."""
    lang = engine_lang()
    return capitalize(PENALTY_NAMES[lang][kind], lang)


def name_the_player(fields: Mapping[str, forms.Field], name: str) -> None:
    """Django's own messages beside a player's fields ("Geçerli bir seçim yapın") name the
    player too, like every other message of the form."""
    messages = {
        "required": gettext("%(name)s: bu alanı doldurun.") % {"name": name},
        "invalid": gettext("%(name)s: bir tam sayı yazın.") % {"name": name},
        # Django formats this one with % (its "value"): a "%" in a name must stay a "%".
        "invalid_choice": gettext("%(name)s: listeden birini seçin.")
        % {"name": name.replace("%", "%%")},
    }
    for field in fields.values():
        field.error_messages = {
            **field.error_messages,
            **{key: text for key, text in messages.items() if key in field.error_messages},
        }


def enabled_penalty_kinds(ruleset: Ruleset) -> list[str]:
    """The penalty kinds this ruleset charges, in RULES.md's order; `custom` is allowed on
    every table."""
    if not ruleset.cezali:
        return ["custom"]

    def enabled(kind: str) -> bool:
        if kind == "custom":
            return True
        if kind == "discard_used":
            return ruleset.discard_used is not None
        return getattr(ruleset.penalties, kind) is not None

    return [kind for kind in PENALTY_NAMES["tr"] if enabled(kind)]


def new_request_token() -> str:
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class HouseFact:
    """A hand fact that only some house rules ask for (RULES.md, "House-rule extensions")."""

    asked: Callable[[Ruleset], bool]  # whether the match's ruleset has the rule
    absent: object  # its value in a stored hand without it


# Each fact's form field of the same name (HandLevelForm) is there only when the ruleset asks for
# it, then goes to the engine's HAND object as it is, and comes back from a stored hand to be
# corrected. A new house rule whose hand carries a new fact adds its field and one line here.
# (The indicator's colour is asked at every table, as part of the gösterge, and required where
# the rules have colours: HandLevelForm.)
HOUSE_FACTS = {
    "riziko": HouseFact(asked=lambda ruleset: ruleset.riziko is not None, absent=False),
}


class RowStampsField(forms.Field):
    """The stamps of the phones' rows a form has shown, as a set. Whatever else is sent is no
    stamp and is dropped, never an error: this hidden field would have nowhere to show one."""

    def to_python(self, value) -> frozenset[str]:
        sent = str(value or "")[:MAX_ROWS_SEEN_CHARS].split()
        return frozenset(stamp for stamp in sent if ROW_STAMP.fullmatch(stamp))


class HandLevelForm(forms.Form):
    """The hand's own facts; "Kim bitirdi?" lists the players and its message names them."""

    # Required, with "nobody" as an explicit choice: a forgotten tap must not save a hand
    # as "kimse bitmedi".
    finisher = forms.TypedChoiceField(
        label=_("Kim bitirdi?"),
        coerce=lambda value: None if value == NOBODY else int(value),
        widget=forms.RadioSelect,
    )
    okey_finish = forms.BooleanField(label=_("Okeyle bitti"), required=False)
    kafa = forms.BooleanField(label=_("Kafa (elden bitti)"), required=False)
    # The gösterge (the tile turned up after the deal): its colour, its number, or "sahte okey".
    # The hand's facts follow from it: its colour is `colour`, the okey's number is the next one
    # (13 makes 1), a fake okey is riziko (cetele.deal.tiles).
    indicator = forms.TypedChoiceField(
        label=_("Gösterge"),
        choices=fixed([(n, str(n)) for n in NUMBERS]),
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": _("Göstergenin sayısını 1 ile 13 arasından seçin.")},
    )
    # The okey's number itself, no longer drawn: a hand a phone kept while offline before the
    # gösterge was asked still carries it (static/cetele/offline.js), and still saves.
    okey_number = forms.TypedChoiceField(
        choices=fixed(TILE_CHOICES),
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": _("Okey taşının sayısı 1 ile 13 arasında olmalı.")},
    )
    riziko = forms.BooleanField(
        label=_("Sahte okey"), help_text=_("Gösterge sahte okeydi: riziko"), required=False
    )
    colour = forms.ChoiceField(
        label=_("Göstergenin rengi"),
        choices=fixed(COLOUR_CHOICES),
        widget=forms.RadioSelect,
        required=False,
        error_messages={"required": _("Göstergenin rengini seçin.")},
    )
    request_token = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)
    # A correction carries the hand's version, a new hand the place it was entered as: either
    # tells whether another phone saved first.
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    position = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    # The joined phones' rows a new hand's form has shown (cetele.seats.drafts.rows_seen): a
    # save that did not see a row the server holds is refused with the row shown. Anything else
    # in it names no row, which only makes a save show the rows first: never an error.
    rows_seen = RowStampsField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, players, ruleset: Ruleset, typing: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # While the scorer types (or a phone's row fills the form in), no finisher chosen yet
        # is the form not being ready, not a mistake: HandEntry.is_valid waits for it.
        self.fields["finisher"].required = not typing
        for name, fact in HOUSE_FACTS.items():
            if not fact.asked(ruleset):
                del self.fields[name]
        self.fields["colour"].required = ruleset.colours is not None
        finisher = self.fields["finisher"]
        finisher.choices = [*((p.seat, p.name) for p in players), (NOBODY, _("Kimse bitmedi"))]
        names = ", ".join(p.name for p in players)
        finisher.error_messages["required"] = gettext(
            "Kimin bitirdiğini seçin: %(names)s ya da “Kimse bitmedi”."
        ) % {"names": names}


class SeatForm(forms.Form):
    """One player's hand: its sum box and messages name the player; the opening and "çifte
    devam" fields are there where the rules have them."""

    opened = forms.ChoiceField(
        label=_("Açılış"), choices=fixed(OPENED_CHOICES), initial="no", widget=forms.RadioSelect
    )
    remaining = forms.IntegerField(
        label=_("Eldeki taşlar"),
        help_text=_("Okeyler dışındaki taşların toplamı (okeyler ayrıca seçilir)"),
        required=False,
        widget=forms.NumberInput(attrs={**NUMERIC, "class": "num", "placeholder": "—"}),
    )
    okeys = forms.TypedChoiceField(
        label=_("Elde kalan okey"),
        choices=fixed(COUNT_CHOICES),
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
    )
    fake_okeys = forms.TypedChoiceField(
        label=_("Elde kalan sahte okey"),
        choices=fixed(COUNT_CHOICES),
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
    )
    opening = forms.IntegerField(
        label=_("Açılış değeri"),
        help_text=_("Seri açtıysa puanı, çift açtıysa çift sayısı (açılış primi için)"),
        required=False,
        widget=forms.NumberInput(attrs={**NUMERIC, "class": "num"}),
    )
    cifte_devam = forms.BooleanField(label=_("Çifte devam dedi"), required=False)

    def __init__(self, *args, ruleset: Ruleset, player, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.player = player
        if not ruleset.opening_bonus:
            del self.fields["opening"]
        if not ruleset.cifte_devam_factor:
            del self.fields["cifte_devam"]
        self.fields["remaining"].widget.attrs["aria-label"] = gettext(
            "%(name)s: eldeki taşların toplamı"
        ) % {"name": player.name}
        name_the_player(self.fields, player.name)

    @cached_property
    def penalties(self):
        """This player's penalty rows (a formset), made when first asked for: most hands have
        none, and the four formsets with their management forms were a fifth of a preview's
        time. A posted form with no row and no count but "0" for a player has no penalty for
        them; anything else sent gets the formset's every check (penalties_sent)."""
        return self.penalty_rows()

    def has_extra_values(self) -> bool:
        """Whether anything behind "more" holds a value or an error: it then opens by itself."""
        names = ("okeys", "fake_okeys", "opening", "cifte_devam")
        if any(self[name].errors for name in names if name in self.fields):
            return True
        return any(
            self[name].value() not in (None, "", "0", 0, False)
            for name in names
            if name in self.fields
        )


class PenaltyForm(forms.Form):
    kind = forms.ChoiceField(label=_("Ceza"))
    taken = forms.BooleanField(label=_("Sonraki oyuncu aldı"), required=False)
    tile = forms.TypedChoiceField(
        label=_("Taş"), choices=fixed(TILE_CHOICES), coerce=int, empty_value=None, required=False
    )
    by = forms.TypedChoiceField(label=_("Kim aldı?"), coerce=int, empty_value=None, required=False)
    used_for = forms.ChoiceField(
        label=_("Nerede kullanıldı?"),
        choices=fixed([("series", _("Seride")), ("pairs", _("Çiftte"))]),
        initial="series",
        required=False,
    )
    okey = forms.BooleanField(label=_("Okeydi"), required=False)
    points = forms.IntegerField(
        label=_("Puan"), required=False, widget=forms.NumberInput(attrs=NUMERIC)
    )
    note = TextField(label=_("Not"), max_length=60, required=False)

    def __init__(self, *args, kinds, others, player, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.player = player
        self.fields["kind"].choices = [(kind, penalty_label(kind)) for kind in kinds]
        self.fields["by"].choices = [("", "—")] + [(p.seat, p.name) for p in others]
        name_the_player(self.fields, player.name)

    def clean(self) -> dict:
        cleaned = super().clean()
        if cleaned.get("kind") == "custom" and cleaned.get("points") is None:
            self.add_error(
                "points", gettext("%(name)s: cezanın puanını yazın.") % {"name": self.player.name}
            )
        return cleaned

    def to_event(self) -> dict:
        kind = self.cleaned_data["kind"]
        event: dict = {"kind": kind}
        for name in PENALTY_FIELDS.get(kind, ()):
            value = self.cleaned_data.get(name)
            if value is None or value == "":
                continue
            event[name] = value
        return event


PenaltyFormSet = forms.formset_factory(
    PenaltyForm,
    extra=0,
    can_delete=True,
    max_num=MAX_PENALTIES_PER_SEAT,
    validate_max=True,
    absolute_max=MAX_PENALTIES_PER_SEAT,
)

SEAT_PREFIX = "p{seat}"
PENALTY_PREFIX = "p{seat}-pen"
ADD_PENALTY = re.compile(r"add-penalty-(\d)")
FIELD_PATH = re.compile(
    r"^hand\.(?:players\[(?P<seat>\d+)\]\.(?:penalties\[(?P<pen>\d+)\]\.?)?)?(?P<name>[a-z_]*)"
)


def add_penalty_row(data, seats: int, action: str):
    """The "+ Ceza ekle" button, which works without JavaScript: one more empty row."""
    match = ADD_PENALTY.fullmatch(action or "")
    if data is None or not match or int(match[1]) >= seats:
        return data
    data = data.copy()
    key = f"{PENALTY_PREFIX.format(seat=match[1])}-TOTAL_FORMS"
    try:
        count = int(data.get(key, 0))
    except ValueError:
        count = 0
    total = max(0, min(count + 1, MAX_PENALTIES_PER_SEAT))
    data[key] = str(total)
    # The new row as a browser sends an untouched one (its fields' initial values): unchanged,
    # so it is not checked, and shows no error before the player has chosen anything.
    row = f"{PENALTY_PREFIX.format(seat=match[1])}-{total - 1}"
    for name, field in PenaltyForm.base_fields.items():
        if field.initial is not None and f"{row}-{name}" not in data:
            data[f"{row}-{name}"] = field.initial
    return data


def untouched(form) -> bool:
    """A row the formset lets go unchecked, as Django's formsets do: an extra row nobody filled in
    (empty_permitted, unchanged)."""
    return form.empty_permitted and not form.has_changed()


def penalties_sent(data) -> set[str]:
    """The players (form prefixes, "p1") whose penalty formset has something to check: a row,
    or a count other than the "0" every page sends. Nobody else's formset is made to be
    validated (see SeatForm.penalties): most hands have no penalty at all."""
    sent = set()
    for key in data or ():
        player, pen, field = key.partition("-pen-")
        if not pen or field in ("INITIAL_FORMS", "MIN_NUM_FORMS", "MAX_NUM_FORMS"):
            continue
        if field == "TOTAL_FORMS" and data.get(key) == "0":
            continue
        sent.add(player)
    return sent


class HandEntry:
    """The whole hand form for one match, bound to submitted data or filled from a hand.

    `position` is the hand's place on the sheet (1-based); `hand` is the stored hand being
    corrected, None for the next hand.
    """

    def __init__(
        self,
        match,
        players,
        data=None,
        *,
        position: int,
        hand=None,
        action="",
        request_token="",
        indicator=None,
        typing=False,
    ):
        self.match = match
        self.typing = typing  # a preview asked while typing: see HandLevelForm
        self.awaits_finisher = False  # see is_valid
        self.players = list(players)
        self.ruleset = match.ruleset()
        self.hand = hand
        self.position = position
        self.kinds = enabled_penalty_kinds(self.ruleset)
        self.result: dict | None = None
        self.inputs: dict | None = None
        self.notices: list[str] = []  # messages about the form as a whole (e.g. a conflict)
        self.taken: list = []  # (position, hand) saved by another phone at this new hand's place
        self.stored_indicator = indicator  # the gösterge kept for every phone (cetele.deal)
        data = add_penalty_row(data, len(self.players), action)
        initial = initial_from_inputs(hand.inputs) if hand is not None else {}
        if hand is None and indicator is not None:  # the gösterge a phone set for this hand
            initial = {"hand": indicator.initial}
        hand_initial = {
            # A posted form brings its own; only a new one needs one made.
            "request_token": request_token or ("" if data is not None else new_request_token()),
            "version": hand.version if hand is not None else None,
            "position": position,
            "rows_seen": "",  # a new form has shown no row yet (seats.js fills it as it shows them)
            **initial.get("hand", {}),
        }
        self.data, self.initial, self.hand_initial = data, initial, hand_initial
        # Each form translates its label suffix when it is not given one: asked once here.
        self.label_suffix = gettext(":")
        self.penalties_sent = penalties_sent(data)
        if hand is not None and data is None:
            self.result = hand.result  # a stored hand shows its scores before any change

    @cached_property
    def hand_form(self) -> HandLevelForm:
        """The hand's own facts, made when first asked for: the head of the next hand's empty
        form (its one-time token, its place) is drawn without it when its fields are kept
        drawn (cetele.live.board.empty_hand_fields), as after every save."""
        return HandLevelForm(
            self.data,
            players=self.players,
            ruleset=self.ruleset,
            typing=self.typing,
            initial=self.hand_initial,
            label_suffix=self.label_suffix,
        )

    @property
    def head(self) -> dict:
        """The form's hidden fields as the page carries them (_hand_form.html): the one-time
        token, the version a correction was made from, the place a new hand was entered as, the
        phones' rows it has shown; posted values as posted, a new form's from its initial values."""
        names = ("request_token", "version", "position", "rows_seen")
        if self.is_bound:
            return {name: self.hand_form[name].value() for name in names}
        return {name: self.hand_initial[name] for name in names}

    @cached_property
    def seat_forms(self) -> list["SeatForm"]:
        """One form per player, made when first asked for: the head of an empty form (its
        place, its one-time token) is drawn without them when its fields are kept drawn
        (cetele.live.board.empty_hand_fields)."""
        seat_forms = []
        for player in self.players:
            seat_initial = self.initial.get("seats", {}).get(player.seat, {})
            form = SeatForm(
                self.data,
                ruleset=self.ruleset,
                player=player,
                prefix=SEAT_PREFIX.format(seat=player.seat),
                initial=seat_initial,
                label_suffix=self.label_suffix,
            )
            form.penalty_rows = partial(
                PenaltyFormSet,
                self.data,
                prefix=PENALTY_PREFIX.format(seat=player.seat),
                initial=seat_initial.get("penalties", []),
                form_kwargs={
                    "kinds": self.kinds,
                    "others": [p for p in self.players if p.seat != player.seat],
                    "player": player,
                    "label_suffix": self.label_suffix,
                },
            )
            seat_forms.append(form)
        return seat_forms

    # --- What the form says about itself

    @property
    def is_bound(self) -> bool:
        return self.data is not None

    @property
    def is_correction(self) -> bool:
        return self.hand is not None

    @cached_property
    def request_token(self) -> str:
        """The form's one-time token: the one posted, or the new form's (read once: a save asks
        for it again and again, and each reading made a bound field)."""
        return self.head["request_token"] or ""

    @property
    def rows_seen(self) -> frozenset[str]:
        """The stamps of the phones' rows this (valid) form has shown (HandLevelForm)."""
        return self.hand_form.cleaned_data["rows_seen"]

    @property
    def partner_scores_zero(self) -> bool:
        """Whether the finisher's partner writes 0 (a team match whose rules say so): their row
        then collapses like the finisher's, with nothing to type but penalties."""
        return self.match.teams and self.ruleset.teams.winner_partner_zero

    @property
    def last_hand(self) -> bool:
        """Whether this is the match's last planned hand (the sheet knows, not the player)."""
        return self.position == self.match.planned_hands

    @property
    def last_hand_multiplier(self) -> int | None:
        """ "Son el: ×10" on the form, where the table's rules count the last hand N times."""
        multiplier = self.ruleset.last_hand_multiplier
        return multiplier if multiplier and self.last_hand else None

    @property
    def next_position(self) -> int:
        """Where "add mine as the next hand" puts this hand, after another phone saved."""
        return self.taken[-1][0] + 1 if self.taken else self.position

    tile_numbers = range(1, 14)  # the keypad of "Taşları say"

    @property
    def dealer(self):
        """Who deals this hand: it follows the hand's place (cetele.deal.dealer)."""
        return dealer_of(self.match, sorted(self.players, key=lambda p: p.seat), self.position)

    @property
    def stored_indicator_json(self) -> str:
        """The gösterge kept for this hand as the page's seats.js compares it with the rows'
        poll (a phone that sets another is taken into the form)."""
        from cetele.deal.indicator import indicator_json  # it reads the models

        return indicator_json(self.stored_indicator)

    @property
    def rows(self) -> list:
        """(seat form, that player's "bitirdi" radio): the finisher is chosen on their own row."""
        radios = {str(radio.data["value"]): radio for radio in self.hand_form["finisher"]}
        return [(form, radios[str(form.player.seat)]) for form in self.seat_forms]

    @property
    def nobody_radio(self):
        return next(r for r in self.hand_form["finisher"] if r.data["value"] == NOBODY)

    def has_penalty_rows(self, seat_form) -> bool:
        """Whether this player's penalty formset is in play: always for a form being shown from a
        hand, else when the posted form sent any of it."""
        return not self.is_bound or seat_form.prefix in self.penalties_sent

    def forms(self):
        yield self.hand_form
        for seat_form in self.seat_forms:
            yield seat_form
            if self.has_penalty_rows(seat_form):
                yield seat_form.penalties.management_form
                yield from seat_form.penalties.forms

    def active_penalty_forms(self, seat_form) -> list:
        """The penalty rows that count: all but the ones ticked "Cezayı kaldır" (known once the
        formset is validated) and the ones left untouched (a row just added, nothing chosen)."""
        if not self.has_penalty_rows(seat_form):
            return []
        formset = seat_form.penalties
        if not formset.is_bound:
            return formset.forms
        removed = formset.deleted_forms if formset.is_valid() else []
        return [form for form in formset.forms if form not in removed and not untouched(form)]

    # --- Validation

    def is_valid(self) -> bool:
        """Forms valid and the engine accepts the hand: then `inputs` and `result` are set."""
        # Every form is validated (a list, not a short-circuit), so every error shows at once;
        # a formset skips the rows ticked "remove".
        checks = [self.hand_form.is_valid()]
        for seat in self.seat_forms:
            checks.append(seat.is_valid())
            if self.has_penalty_rows(seat):
                checks.append(seat.penalties.is_valid())
        forms_valid = all(checks)
        # Typed so far without a mistake, but nobody chosen as the finisher yet: nothing to
        # score, nothing to scold; the preview keeps asking who finished.
        self.awaits_finisher = (
            forms_valid and self.typing and self.hand_form.cleaned_data["finisher"] == ""
        )
        if self.awaits_finisher:
            return False
        if not forms_valid or not self._sums_as_typed():
            return False
        inputs = self.to_inputs()
        try:
            self.result = self.match.score(inputs)
        except scoring.InvalidHand as error:
            self.add_engine_error(error)
            return False
        self.inputs = inputs
        return True

    def _sums_as_typed(self) -> bool:
        """An empty sum is not 0, and a typed sum is never ignored (see the module docstring)."""
        finisher = self.hand_form.cleaned_data["finisher"]
        ok = True
        for form in self.seat_forms:
            seat = form.player.seat
            name = form.player.name
            opened = form.cleaned_data["opened"]
            remaining = form.cleaned_data["remaining"]
            if seat == finisher:
                if remaining is not None:
                    form.add_error(
                        "remaining",
                        gettext("%(name)s bitirdi: elinde taş kalmaz, toplamı silin.")
                        % {"name": name},
                    )
                    ok = False
            elif opened == "no":
                if remaining is not None:
                    form.add_error(
                        "remaining",
                        gettext(
                            "%(name)s açmadı ama toplam yazılı: “Seri” ya da “Çift”i seçin, "
                            "ya da toplamı silin."
                        )
                        % {"name": name},
                    )
                    ok = False
            elif self._writes_zero(seat, finisher):
                if remaining is not None:
                    form.add_error(
                        "remaining",
                        gettext("%(name)s: eşi bitirdi, 0 yazar; toplamı silin.") % {"name": name},
                    )
                    ok = False
            elif remaining is None:
                form.add_error(
                    "remaining",
                    gettext("%(name)s: elinde kalan taşların toplamını yazın.") % {"name": name},
                )
                ok = False
        return ok

    def _writes_zero(self, seat: int, finisher: int | None) -> bool:
        """With teams, the finisher's partner writes 0: their tiles are not counted."""
        return (
            self.match.teams
            and finisher is not None
            and (seat + 2) % 4 == finisher
            and self.ruleset.teams.winner_partner_zero
        )

    def to_inputs(self) -> dict:
        """The scoring engine's HAND object (RULES.md's JSON contract)."""
        hand = self.hand_form.cleaned_data
        inputs: dict = {
            "finisher": hand["finisher"],
            "okey_finish": hand["okey_finish"],
            "kafa": hand["kafa"],
        }
        okey_number = self.okey_number
        if okey_number is not None:
            inputs["okey_number"] = okey_number
        if hand["colour"]:  # a fact, always accepted; it counts where the rules have colours
            inputs["colour"] = hand["colour"]
        inputs.update({name: hand[name] for name in HOUSE_FACTS if name in self.hand_form.fields})
        if self.ruleset.last_hand_multiplier:
            inputs["last_hand"] = self.last_hand
        inputs["players"] = [self._seat_inputs(form, hand["finisher"]) for form in self.seat_forms]
        return inputs

    @property
    def okey_number(self) -> int | None:
        """The okey's number: the one after the gösterge's, or (a hand kept on a phone before
        the gösterge was asked) as posted."""
        hand = self.hand_form.cleaned_data
        if hand.get("indicator") is not None:
            return okey_of(hand["indicator"])
        return hand.get("okey_number")

    def _shown_indicator(self) -> tuple:
        """(colour, indicator number, fake) as the form shows them: posted, or its initial
        values; anything that is not one of the choices counts as none."""
        if self.is_bound:
            form = self.hand_form
            colour, number = form["colour"].value(), form["indicator"].value()
            fake = self.has_riziko and form["riziko"].value()
        else:  # read without making the form: the next hand's, drawn after every save
            initial = self.hand_initial
            colour, number = initial.get("colour"), initial.get("indicator")
            fake = self.has_riziko and initial.get("riziko")
        number = int(number) if str(number).isdigit() and int(number) in NUMBERS else None
        return (colour if colour in dict(COLOUR_CHOICES) else None), number, bool(fake)

    @property
    def okey_words(self) -> str:
        """ "Okey: kırmızı 8" for the gösterge the form shows."""
        colour, number, fake = self._shown_indicator()
        okey = okey_of(number) if number is not None else None
        if okey is None and not self.is_bound:
            okey = self.hand_initial.get("okey_number")
        return okey_words(colour, okey, fake)

    def indicator_chips(self, id_prefix: str = "id"):
        """The gösterge's chips (cetele/deal/_indicator_chips.html), as the form shows it."""
        from cetele.deal.forms import chips  # that module builds on this one's fields

        colour, number, fake = self._shown_indicator()
        return chips(colour, number, fake, riziko=self.has_riziko, id_prefix=id_prefix)

    @property
    def has_riziko(self) -> bool:
        """Whether the hand form asks for "sahte okey" (riziko): the rules say so."""
        return HOUSE_FACTS["riziko"].asked(self.ruleset)

    def _seat_inputs(self, form, finisher) -> dict:
        seat = form.cleaned_data
        opened = seat["opened"]
        # The finisher opened by definition: a tap on "bitirdi" is enough for a series finish;
        # a pairs finish is "Çift" as usual.
        if form.player.seat == finisher and opened == "no":
            opened = "series"
        entry: dict = {"opened": opened, "okeys": seat["okeys"], "fake_okeys": seat["fake_okeys"]}
        if seat["remaining"] is not None:
            entry["remaining"] = seat["remaining"]
        if seat.get("opening") is not None:
            entry["opening"] = seat["opening"]
        if seat.get("cifte_devam"):
            entry["cifte_devam"] = True
        entry["penalties"] = [pen.to_event() for pen in self.active_penalty_forms(form)]
        return entry

    # --- Errors

    def add_engine_error(self, error) -> None:
        """Show the engine's message next to the field it names, in the words of a page: the
        players by name ("Can'ın elinde sahte okey kaldı"), never by seat number."""
        form, name = self._form_for_path(error.field or "")
        if form is self.hand_form and name == "okey_number":
            name = "indicator"  # the form asks for the gösterge, which gives the okey's number
        message = error.page_message(engine_lang(), self.names)
        if form is not None and name in form.fields:
            form.add_error(name, message)
        else:
            self.hand_form.add_error(None, message)

    @property
    def names(self) -> list[str]:
        """The players' names by seat, as the engine counts seats."""
        return [player.name for player in sorted(self.players, key=lambda p: p.seat)]

    def _form_for_path(self, path: str):
        found = FIELD_PATH.match(path)
        if not found:
            return None, None
        if found["seat"] is None:
            return self.hand_form, found["name"]
        seat = int(found["seat"])
        if seat >= len(self.seat_forms):
            return None, None
        seat_form = self.seat_forms[seat]
        if found["pen"] is None:
            return seat_form, found["name"]
        active = self.active_penalty_forms(seat_form)
        index = int(found["pen"])
        if index >= len(active):
            return seat_form, None
        return active[index], found["name"] or "kind"

    def all_errors(self) -> list[str]:
        """Every error of the form as one line each, each naming the player it is about."""
        lines = [str(error) for error in self.hand_form.non_field_errors()]
        for name, errors in self.hand_form.errors.items():
            if name != forms.forms.NON_FIELD_ERRORS:
                lines.extend(str(error) for error in errors)
        for seat_form in self.seat_forms:
            player = seat_form.player.name
            rows = self.has_penalty_rows(seat_form)
            owned = [seat_form, *(seat_form.penalties.forms if rows else ())]
            errors = [e for form in owned for field in form.errors.values() for e in field]
            if rows:
                errors += list(seat_form.penalties.non_form_errors())
            for error in map(str, errors):
                lines.append(error if error.startswith(player) else f"{player}: {error}")
        return lines

    @property
    def non_field_errors(self) -> list[str]:
        errors = self.hand_form.non_field_errors() if self.is_bound else []
        return [*self.notices, *errors]


def initial_from_inputs(inputs: dict) -> dict:
    """Initial form values from a stored HAND object (to correct a past hand)."""
    finisher = inputs.get("finisher")
    hand = {
        "finisher": NOBODY if finisher is None else finisher,
        "okey_finish": inputs.get("okey_finish", False),
        "kafa": inputs.get("kafa", False),
        # The gösterge as the stored facts give it back: the okey's number less one (1 from 13),
        # the indicator's colour; a hand saved without them shows none.
        "indicator": indicator_of(okey) if (okey := inputs.get("okey_number")) else None,
        "colour": inputs.get("colour"),
        **{name: inputs.get(name, fact.absent) for name, fact in HOUSE_FACTS.items()},
    }
    seats = {}
    for seat, entry in enumerate(inputs.get("players", [])):
        remaining = entry.get("remaining")
        if remaining == 0 and (seat == finisher or entry.get("opened", "no") == "no"):
            remaining = None  # a 0 the engine never used: the form would refuse it as typed
        seats[seat] = {
            "opened": entry.get("opened", "no"),
            "remaining": remaining,
            "okeys": entry.get("okeys", 0),
            "fake_okeys": entry.get("fake_okeys", 0),
            "opening": entry.get("opening"),
            "cifte_devam": entry.get("cifte_devam", False),
            "penalties": [dict(event) for event in entry.get("penalties", [])],
        }
    return {"hand": hand, "seats": seats}
