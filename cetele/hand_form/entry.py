"""The hand form as one object: what a player taps after a hand, bound or filled from a hand.

`HandEntry` is the same for "the next hand" and "correct a past hand": the hand-level form
(who finished, okey finish, kafa, the table's house-rule facts), one `SeatForm` per player and a
formset of `PenaltyForm`s per player (cetele.hand_form.forms); its values become the engine's
HAND object in cetele.hand_form.inputs. Forms check shape and type only; the scoring engine owns
every limit and game rule, and its message is shown beside the field it names.

Two checks live here because they are about what was typed, not about the game: an empty sum is
never read as 0, and a typed sum is never dropped (RULES.md lets the engine ignore a
non-opener's sum; the form refuses it instead, so that nothing typed is lost in silence).
"""

import re
from functools import cached_property, partial

from django import forms
from django.utils.translation import gettext

import scoring
from cetele.deal.dealer import dealer_of
from cetele.deal.forms import COLOUR_CHOICES, chips
from cetele.deal.indicator import indicator_json
from cetele.deal.tiles import NUMBERS, okey_of, okey_words
from cetele.hand_form.forms import (
    HOUSE_FACTS,
    NOBODY,
    PENALTY_PREFIX,
    SEAT_PREFIX,
    HandLevelForm,
    PenaltyFormSet,
    SeatForm,
    add_penalty_row,
    enabled_penalty_kinds,
    new_request_token,
    penalties_sent,
    untouched,
)
from cetele.hand_form.inputs import hand_inputs, initial_from_inputs, seat_inputs
from cetele.shell.language import engine_lang

# Where the engine's message points: "hand.players[2].penalties[0].tile" (RULES.md).
FIELD_PATH = re.compile(
    r"^hand\.(?:players\[(?P<seat>\d+)\]\.(?:penalties\[(?P<pen>\d+)\]\.?)?)?(?P<name>[a-z_]*)"
)


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
        drawn (cetele.matches.sheet.empty_hand_fields), as after every save."""
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
        (cetele.matches.sheet.empty_hand_fields)."""
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
        """The scoring engine's HAND object (cetele.hand_form.inputs)."""
        hand = self.hand_form.cleaned_data
        players = [
            seat_inputs(
                form.cleaned_data,
                finished=form.player.seat == hand["finisher"],
                penalties=[pen.cleaned_data for pen in self.active_penalty_forms(form)],
            )
            for form in self.seat_forms
        ]
        last_hand = self.last_hand if self.ruleset.last_hand_multiplier else None
        return hand_inputs(hand, players, last_hand=last_hand)

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
        colour, number, fake = self._shown_indicator()
        return chips(colour, number, fake, riziko=self.has_riziko, id_prefix=id_prefix)

    @property
    def has_riziko(self) -> bool:
        """Whether the hand form asks for "sahte okey" (riziko): the rules say so."""
        return HOUSE_FACTS["riziko"].asked(self.ruleset)

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
