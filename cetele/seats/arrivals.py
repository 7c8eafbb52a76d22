"""Rows that reached the server after the scorer's form last showed them: the save is refused
(cetele.seats.drafts.check_rows_seen) and its form comes back brought up to date, saying what
arrived ("Bora yazdı: Seri · 20 — bakıp kaydedin."), so the scorer stays the one who saves and
sees what changed before tapping again.

Why refuse rather than take the rows into the save: a row can say something the scorer has
already settled otherwise (another finisher, a sum counted on the table), and a save is what
every phone then reads as the hand. Shown first, it is one more tap; taken in silence, a score
nobody looked at.
"""

from django.http import QueryDict
from django.utils.translation import gettext, ngettext

from cetele.hand_form.forms import OPENED_CHOICES, SEAT_PREFIX
from cetele.seats.drafts import RowsArrived, SeatState, rows_seen

OPENED_WORDS = dict(OPENED_CHOICES)  # "Seri", "Çift", "Açmadı": as the hand form says them


def row_words(state: SeatState) -> str:
    """What a row says, as the rows' list shows it (seats/_rows.html): "Seri · 20 · 1 okey"."""
    row = state.row
    if row.finished:
        return gettext("Bitirdi")
    values = row.values
    words = [str(OPENED_WORDS.get(values.get("opened"), OPENED_WORDS["no"]))]
    if values.get("remaining") is not None:
        words.append(str(values["remaining"]))
    if values.get("okeys"):
        words.append(gettext("%(okeys)s okey") % {"okeys": values["okeys"]})
    if values.get("fake_okeys"):
        words.append(gettext("%(fakes)s sahte okey") % {"fakes": values["fake_okeys"]})
    return " · ".join(words)


def arrived_notices(arrived: list[SeatState]) -> list[str]:
    """Why the hand was not saved, then each row that came, one line each."""
    lines = [
        ngettext(
            "El kaydedilmedi: siz kaydederken bir telefondan satır geldi ve forma yazıldı.",
            "El kaydedilmedi: siz kaydederken telefonlardan satırlar geldi ve forma yazıldı.",
            len(arrived),
        )
    ]
    for state in arrived:
        lines.append(
            gettext("%(name)s yazdı: %(row)s — bakıp kaydedin.")
            % {"name": state.name, "row": row_words(state)}
        )
    return lines


def brought_up_to_date(
    data: QueryDict, arrived: RowsArrived, position: int, partner_zero: bool
) -> QueryDict:
    """The posted form with the rows that arrived written into their players' fields, as
    seats.js fills a row in: the phone's row is the newest word on that seat. Who finished
    stays as the scorer chose (a save has always chosen): a phone's "Bitirdim" is said in its
    line. The form now names every row it shows (rows_seen), and the place the save was for."""
    data = data.copy()
    finisher = data.get("finisher", "")
    finisher_seat = int(finisher) if finisher.isdigit() else None
    for state in arrived.arrived:
        holds_none = finisher_seat is not None and (
            state.seat == finisher_seat or (partner_zero and (finisher_seat + 2) % 4 == state.seat)
        )
        for name, value in seat_fields(state, holds_none).items():
            key = f"{SEAT_PREFIX.format(seat=state.seat)}-{name}"
            if value is None:
                data.pop(key, None)  # an unticked box is not sent
            else:
                data[key] = value
    data["rows_seen"] = rows_seen(arrived.written)
    data["position"] = str(position)
    return data


def seat_fields(state: SeatState, holds_none: bool) -> dict[str, str | None]:
    """A row as its player's fields of the hand form hold it (seats.js `wanted`). `holds_none`:
    the finisher's row, or the finisher's partner's where that one writes 0, keeps no sum and
    no okey, whatever the phone wrote before it knew who finished."""
    values = state.row.values
    remaining = values.get("remaining")
    fields: dict[str, str | None] = {
        "opened": values.get("opened") or "no",
        "remaining": "" if holds_none or remaining is None else str(remaining),
        "okeys": "0" if holds_none else str(values.get("okeys") or 0),
        "fake_okeys": "0" if holds_none else str(values.get("fake_okeys") or 0),
    }
    if "opening" in values:
        fields["opening"] = "" if values["opening"] is None else str(values["opening"])
    if "cifte_devam" in values:
        fields["cifte_devam"] = "on" if values["cifte_devam"] else None
    return fields
