"""Forms of the tea tally: a tap on "+ çay" or "−", the rule, and a table's list of items.
Every field the client writes is checked here; whether the player and the item are the
match's is checked with the match's row locked (cetele.tea.tally.change_drinks)."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from cetele.shell.names import NameField
from cetele.tea.models import RULE_WORDS
from cetele.tea.tally import MAX_ITEMS, MAX_PRICE, Item, list_mark

BAD_TAP = _("Neye dokunulduğu anlaşılamadı; çay defterinde hiçbir şey değişmedi.")
CENTS = Decimal("0.01")
NEW_ROWS = 2  # empty rows under a table's list, for new items


class DrinkForm(forms.Form):
    """One tap: add a drink to a cell (a player and an item) or take its last one back. `seen`
    is the count the page showed, so that a double tap counts once."""

    seat = forms.IntegerField(min_value=0, max_value=7, error_messages={"invalid": BAD_TAP})
    item = forms.IntegerField(min_value=0, max_value=MAX_ITEMS - 1)
    seen = forms.IntegerField(min_value=0)
    action = forms.ChoiceField(choices=[("add", "+"), ("remove", "−")])
    # A tap kept on a phone without signal (tea.js) comes with its one-time id, and `kept`: a
    # kept "+" counts whatever the count is now (it was tapped before the others it would
    # otherwise be refused for); a kept "−" still names the count it saw.
    tap = forms.RegexField(regex=r"^[A-Za-z0-9_-]{16,40}$", required=False)
    kept = forms.BooleanField(required=False)

    def seen_count(self) -> int | None:
        """The count the tap is checked against: None for a kept "+" (not checked)."""
        data = self.cleaned_data
        return None if data["kept"] and data["action"] == "add" else data["seen"]


class TableDrinkForm(DrinkForm):
    """A tap on the table's page: for the match it showed (which must be the table's)."""

    match = forms.IntegerField(min_value=1)


class WaitingDrinkForm(DrinkForm):
    """A tap on a drink at the table, before its next match: for a table player by `place`."""

    seat = None
    place = forms.IntegerField(min_value=0, max_value=99, error_messages={"invalid": BAD_TAP})


class TeaRuleForm(forms.Form):
    rule = forms.ChoiceField(
        label=_("Hesabı kim öder?"),
        choices=list(RULE_WORDS.items()),
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Hesabı kimin ödeyeceğini seçin."),
            "invalid_choice": _("Hesabı kimin ödeyeceğini seçin."),
        },
    )


def price_field() -> forms.DecimalField:
    return forms.DecimalField(
        label=_("Fiyat (₺)"),
        required=False,
        min_value=Decimal(0),
        max_value=Decimal(MAX_PRICE) / 100,
        max_digits=9,
        decimal_places=2,
        localize=True,
        error_messages={
            "min_value": _("Fiyat eksi olamaz."),
            "max_value": _("Bu fiyat çok yüksek."),
            "invalid": _("Fiyatı bir sayı olarak yazın (örneğin 15 ya da 12,50)."),
            "max_decimal_places": _("Fiyatta virgülden sonra en çok iki hane olur."),
            "max_digits": _("Bu fiyat çok yüksek."),
            "max_whole_digits": _("Bu fiyat çok yüksek."),
        },
    )


class TeaItemsForm(TeaRuleForm):
    """A table's list: each item's name and price, "listeden kaldır" for one no longer
    served (kept for the drinks already counted), empty rows for new ones; and the rule."""

    # The list the page showed (list_mark): a save from an older page is refused (`stale`).
    seen = forms.CharField(required=False, max_length=16, widget=forms.HiddenInput)

    def __init__(self, *args, items: list[Item], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.items = items
        self.initial["seen"] = list_mark(items)
        for item in items:
            self.fields[f"name_{item.place}"] = NameField(
                label=_("Ad"), max_length=20, initial=item.name, required=False
            )
            self.fields[f"price_{item.place}"] = price_field()
            self.initial[f"price_{item.place}"] = (
                None if item.price is None else (Decimal(item.price) / 100).quantize(CENTS)
            )
            self.fields[f"retired_{item.place}"] = forms.BooleanField(
                label=_("Listeden kaldır"), required=False, initial=item.retired
            )
        free = range(MAX_ITEMS - len(items))[:NEW_ROWS]
        self.new_rows = [f"new_{index}" for index in free]
        for key in self.new_rows:
            self.fields[f"name_{key}"] = NameField(label=_("Ad"), max_length=20, required=False)
            self.fields[f"price_{key}"] = price_field()

    def stale(self) -> bool:
        """Whether the page this form was posted from showed another list than the table's now
        (another phone saved it since). A form posted without the mark is not asked."""
        seen = self.data.get("seen")
        return bool(seen) and seen != list_mark(self.items)

    def rows(self) -> list[dict]:
        """The rows as the page draws them: the fields of each item, then the empty ones."""
        rows = [
            {
                "name": self[f"name_{item.place}"],
                "price": self[f"price_{item.place}"],
                "retired": self[f"retired_{item.place}"],
            }
            for item in self.items
        ]
        rows += [{"name": self[f"name_{k}"], "price": self[f"price_{k}"]} for k in self.new_rows]
        return rows

    def clean(self) -> dict:
        cleaned = super().clean()
        for item in self.items:
            if not (cleaned.get(f"name_{item.place}") or "").strip() and not self.has_error(
                f"name_{item.place}"
            ):
                self.add_error(
                    f"name_{item.place}",
                    _("Bir içeceğin adı boş kalamaz; artık yoksa “Listeden kaldır”ı seçin."),
                )
        for key in self.new_rows:
            named = (cleaned.get(f"name_{key}") or "").strip()
            if cleaned.get(f"price_{key}") is not None and not named:
                self.add_error(f"name_{key}", _("Fiyatı yazılan içeceğin adını da yazın."))
        names = [name.casefold() for name in self.names()]
        if len(names) != len(set(names)):
            raise forms.ValidationError(_("Aynı içecek listede iki kez var."))
        return cleaned

    def names(self) -> list[str]:
        keys = [
            str(item.place)
            for item in self.items
            if not self.cleaned_data.get(f"retired_{item.place}")
        ] + self.new_rows
        return [
            name.strip() for key in keys if (name := self.cleaned_data.get(f"name_{key}") or "")
        ]

    def saved_items(self) -> list[Item]:
        """The list to keep: every item at its place (names, prices, retired), then the new
        ones at the next free places."""
        data = self.cleaned_data
        kept = [
            Item(
                item.place,
                data[f"name_{item.place}"].strip(),
                kurus(data.get(f"price_{item.place}")),
                bool(data.get(f"retired_{item.place}")),
            )
            for item in self.items
        ]
        place = max((item.place for item in self.items), default=-1) + 1
        for key in self.new_rows:
            name = (data.get(f"name_{key}") or "").strip()
            if name:
                kept.append(Item(place, name, kurus(data.get(f"price_{key}"))))
                place += 1
        return kept


def kurus(price: Decimal | None) -> int | None:
    return None if price is None else int(price * 100)
