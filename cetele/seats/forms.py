"""The join link's forms: a phone picks its name, writes its row; the scorer frees a seat or
gives the join link a new token.

A phone's row is the scorer's own SeatForm (cetele.hand_form.forms) for that player, with the
same fields, choices and messages, plus what only a row needs: the hand's place it was written
for and "Bitirdim". The checks that are about one row alone are made here, so that a phone is
told at once; the hand as a whole is checked by the engine when the scorer saves it.
"""

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cetele.hand_form.forms import SeatForm

ROW_PREFIX = "row"
MAX_POSITION = 10_000


class SeatChoiceForm(forms.Form):
    """ "Adınızı seçin": one of the match's players. A taken seat can still be asked for: the
    answer then says so in a sentence (the seat may have been freed since the page was drawn)."""

    seat = forms.TypedChoiceField(
        label=_("Adınızı seçin"),
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Listeden adınızı seçin."),
            "invalid_choice": _("Listeden adınızı seçin."),
        },
    )

    def __init__(self, *args, players, taken: set[int], **kwargs) -> None:
        kwargs.setdefault("auto_id", "join-%s")
        super().__init__(*args, **kwargs)
        self.players = players
        has_phone = gettext("%(name)s (telefonu var)")
        self.fields["seat"].choices = [
            (p.seat, has_phone % {"name": p.name} if p.seat in taken else p.name) for p in players
        ]


class RowForm(forms.Form):
    """What a phone's row says beside its SeatForm: the hand's place and "Bitirdim"."""

    position = forms.IntegerField(
        widget=forms.HiddenInput, min_value=1, max_value=MAX_POSITION, required=True
    )
    finished = forms.BooleanField(label=_("Bitirdim"), required=False)

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "row-%s")
        super().__init__(*args, **kwargs)
        self.fields["position"].error_messages["required"] = gettext(
            "Bu satır hangi el için yazıldı, anlaşılamadı. Sayfayı yenileyin."
        )


class PlayerRow:
    """One player's row as their phone writes it: RowForm and that player's SeatForm, bound to
    a POST or filled from the row they wrote before (`row`: a DraftRow)."""

    def __init__(self, match, player, data=None, *, position: int | None, row=None) -> None:
        self.player = player
        self.ruleset = match.ruleset()
        values = dict(row.values) if row is not None else {}
        self.form = RowForm(
            data,
            initial={"position": position, "finished": bool(row and row.finished)},
        )
        self.seat = SeatForm(
            data,
            ruleset=self.ruleset,
            player=player,
            prefix=ROW_PREFIX,
            initial=values,
            label_suffix=gettext(":"),
        )
        self.seat.fields["remaining"].widget.attrs["aria-label"] = gettext(
            "Eldeki taşların toplamı"
        )

    tile_numbers = range(1, 14)  # the keypad of "Taşları say"

    def is_valid(self) -> bool:
        valid = [self.form.is_valid(), self.seat.is_valid()]
        return all(valid) and self.row_checks()

    def row_checks(self) -> bool:
        """What one row may not be, in the player's own words: a sum beside "Bitirdim" or
        "Açmadı" (it would be dropped in silence), a sum no rack can hold."""
        finished = self.form.cleaned_data["finished"]
        opened = self.seat.cleaned_data["opened"]
        remaining = self.seat.cleaned_data["remaining"]
        if remaining is None:
            return True
        if finished:
            message = gettext("Bitirdiyseniz elinizde taş kalmaz: toplamı silin.")
        elif opened == "no":
            message = gettext(
                "Açmadıysanız toplam yazılmaz: “Seri” ya da “Çift”i seçin, ya da toplamı silin."
            )
        elif not 0 <= remaining <= self.ruleset.max_remaining:
            message = gettext("Toplam 0 ile %(max)s arasında olur.") % {
                "max": self.ruleset.max_remaining
            }
        else:
            return True
        self.seat.add_error("remaining", message)
        return False

    @property
    def position(self) -> int:
        return self.form.cleaned_data["position"]

    @property
    def finished(self) -> bool:
        return self.form.cleaned_data["finished"]

    def values(self) -> dict:
        """The row as kept (DraftRow.values): SeatForm's cleaned values, JSON as they are."""
        return {name: self.seat.cleaned_data[name] for name in self.seat.fields}

    def errors(self) -> list[str]:
        lines = []
        for form in (self.form, self.seat):
            for errors in form.errors.values():
                lines.extend(str(error) for error in errors)
        return lines


class FreeSeatForm(forms.Form):
    """The scorer's "Telefonu çıkar": which seat's phone to let go."""

    seat = forms.IntegerField(
        min_value=0,
        max_value=3,
        error_messages={
            "required": _("Hangi telefonun çıkarılacağı anlaşılamadı."),
            "invalid": _("Hangi telefonun çıkarılacağı anlaşılamadı."),
            "min_value": _("Hangi telefonun çıkarılacağı anlaşılamadı."),
            "max_value": _("Hangi telefonun çıkarılacağı anlaşılamadı."),
        },
    )


class RotateJoinForm(forms.Form):
    """A new join link, after a deliberate tick: every joined phone is let go."""

    confirm = forms.BooleanField(
        label=_("Evet: katılan telefonlar çıksın, eski katılma bağlantısı çalışmasın"),
        error_messages={"required": _("Yenilemek için önce bu kutuyu işaretleyin.")},
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "join-rotate-%s")
        super().__init__(*args, **kwargs)
