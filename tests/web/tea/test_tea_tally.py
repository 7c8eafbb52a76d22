"""The tea tally (çay defteri): one tap per drink per player, "−" takes that player's last drink
of that item back, and the bill at the end by the table's rule ("kaybeden öder": the highest
total pays all, in tek the last player, in eşli the losing team; "herkes kendi"), per person
and in total, in the summary and as a WhatsApp text. Only the edit links write.

The sample hands' scores (tests.factories.sample_inputs: the finisher −101, the next seat its
remaining tiles, the two others 202), worked out by hand:

- LOSER_DENIZ: [−101, 20, 202, 202] and [202, −101, 30, 202]: totals Ali 101, Ayşe −81,
  Can 232, Deniz 404. Tek: Deniz is last. Eşli (Ali & Can, Ayşe & Deniz): 333 against 323,
  Ali & Can lose.
- TIE: [−101, 20, 202, 202] and [202, 202, −101, 20]: totals 101, 222, 101, 222. Tek: Ayşe and
  Deniz share last place. Eşli: 202 against 444, Ayşe & Deniz lose.
"""

from urllib.parse import unquote

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cetele.models import Match
from cetele.tea.models import Drink, TeaItem
from tests.factories import add_hand, make_match, sample_inputs
from tests.web.tables.test_tables_and_rematches import start_at, table_with

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
LOSER_DENIZ = [sample_inputs(finisher=0, remaining=20), sample_inputs(finisher=1, remaining=30)]
TIE = [sample_inputs(finisher=0, remaining=20), sample_inputs(finisher=2, remaining=20)]
ALI, AYSE, CAN, DENIZ = range(4)
CAY, KAHVE, SU = range(3)


def drink_url(match: Match) -> str:
    return reverse("tea:match_drink", args=[match.edit_token])


def seen(match: Match, seat: int, item: int) -> int:
    return Drink.objects.filter(match=match, seat=seat, item=item).count()


def tap(client, match: Match, seat: int, item: int, action: str = "add", **headers):
    data = {"seat": seat, "item": item, "seen": seen(match, seat, item), "action": action}
    return client.post(drink_url(match), data, headers=headers)


def counts(match: Match) -> dict:
    found = {}
    for seat, item in Drink.objects.filter(match=match).values_list("seat", "item"):
        found[(seat, item)] = found.get((seat, item), 0) + 1
    return found


def finished_match(hands: list, *, teams: bool = False, table=None) -> Match:
    if table is not None:
        match = start_at(table, [0, 1, 2, 3], planned_hands=len(hands), teams=teams)
    else:
        match = make_match(teams=teams, planned_hands=len(hands))
    for inputs in hands:
        add_hand(match, inputs)
    return match


def priced_table(cay="15", kahve="40,50", su=""):
    """A table whose list has prices: çay 15 ₺, kahve 40,50 ₺, su without a price."""
    table = table_with()
    data = {
        "rule": "loser",
        "name_0": "çay",
        "price_0": cay,
        "name_1": "kahve",
        "price_1": kahve,
        "name_2": "su",
        "price_2": su,
    }
    return table, data


def save_list(client, table, data):
    return client.post(reverse("tea:table_tea", args=[table.edit_token]), data)


def page(client, match: Match) -> str:
    """The scorer's tally: its own page (where a phone without JavaScript taps)."""
    return client.get(drink_url(match)).content.decode()


def sheet_page(client, match: Match) -> str:
    return client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()


def view_page(client, match: Match) -> str:
    return client.get(reverse("sharing:view_match", args=[match.view_token])).content.decode()


# --- Counting ----------------------------------------------------------------------------------


def test_each_tap_is_one_drink_for_that_player_and_item(client):
    match = make_match(planned_hands=3)

    for _ in range(3):
        assert tap(client, match, ALI, CAY).status_code == 302
    tap(client, match, AYSE, KAHVE)

    assert counts(match) == {(ALI, CAY): 3, (AYSE, KAHVE): 1}
    body = page(client, match)
    assert "Çay defteri" in body
    assert 'data-tea-cell="0-0"' in body and "Toplam: 3 çay, 1 kahve" in body


def test_the_scorers_page_brings_the_card_with_htmx_or_links_to_it(client):
    match = make_match(planned_hands=3)
    tap(client, match, ALI, CAY)

    body = sheet_page(client, match)
    card = client.get(drink_url(match), headers=HTMX)

    section = body[body.index('<section id="tea"') :]
    assert f'hx-get="{drink_url(match)}" hx-trigger="load"' in section.split(">")[0] + ">"
    assert f'href="{drink_url(match)}"' in section  # without JavaScript, its page
    assert card.content.decode().lstrip().startswith('<section id="tea"')
    assert 'data-tea-cell="0-0"' in card.content.decode()
    assert "<html" not in card.content.decode()


def test_minus_takes_back_that_players_last_drink_of_that_item_only(client):
    match = make_match(planned_hands=3)
    tap(client, match, ALI, CAY)
    tap(client, match, ALI, CAY)
    tap(client, match, AYSE, CAY)
    ayse = Drink.objects.get(seat=AYSE)
    last_of_ali = Drink.objects.filter(seat=ALI).order_by("-pk").first()

    response = tap(client, match, ALI, CAY, "remove")

    assert response.status_code == 302
    assert counts(match) == {(ALI, CAY): 1, (AYSE, CAY): 1}
    assert not Drink.objects.filter(pk=last_of_ali.pk).exists()
    assert Drink.objects.filter(pk=ayse.pk).exists()  # someone else's drink is never touched


def test_a_double_tap_counts_once_and_says_so(client):
    match = make_match(planned_hands=3)
    data = {"seat": ALI, "item": CAY, "seen": 0, "action": "add"}

    first = client.post(drink_url(match), data, headers=HTMX)
    second = client.post(drink_url(match), data, headers=HTMX)  # the same page, tapped again

    assert first.status_code == second.status_code == 200
    assert counts(match) == {(ALI, CAY): 1}
    assert "Ali için çay sayısı az önce değişti, şimdi 1" in second.content.decode()
    # The card it answers with shows the count as it is now, ready for the next tap.
    assert 'name="seen" value="1"' in second.content.decode()


def test_a_double_tap_on_minus_takes_back_one_drink(client):
    match = make_match(planned_hands=3)
    for _ in range(2):
        tap(client, match, ALI, CAY)
    data = {"seat": ALI, "item": CAY, "seen": 2, "action": "remove"}

    client.post(drink_url(match), data)
    client.post(drink_url(match), data)

    assert counts(match) == {(ALI, CAY): 1}


def test_minus_on_an_empty_cell_says_there_is_nothing_to_take_back(client):
    match = make_match(planned_hands=3)

    response = tap(client, match, ALI, CAY, "remove", **HTMX)

    assert response.status_code == 200
    assert "Geri alınacak içecek yok" in response.content.decode()
    assert not Drink.objects.exists()


def test_a_drink_bumps_the_version_so_every_phone_redraws_its_sheet(client):
    match = make_match(planned_hands=3)
    version = Match.objects.get(pk=match.pk).version
    assert "data-tea-counts" not in view_page(client, match)

    tap(client, match, CAN, SU)

    assert Match.objects.get(pk=match.pk).version == version + 1
    body = view_page(client, match)  # the view link's kept sheet, drawn again
    assert "data-tea-counts" in body and "Can: 1 su" in body
    assert "tea-add" not in body  # read-only: no "+ çay" on the view link


def test_the_htmx_answer_is_the_card_with_what_happened(client):
    match = make_match(planned_hands=3)

    response = tap(client, match, DENIZ, KAHVE, **HTMX)

    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="tea"')
    assert "Deniz: bir kahve daha (1)." in body


def test_without_javascript_a_tap_comes_back_to_the_page_with_its_sentence(client):
    match = make_match(planned_hands=3)

    response = tap(client, match, AYSE, CAY)

    assert response.status_code == 302
    assert response.url == drink_url(match) + "#tea"
    followed = client.get(response.url)
    assert "Ayşe: bir çay daha (1)." in followed.content.decode()
    taken_back = client.post(
        drink_url(match), {"seat": AYSE, "item": CAY, "seen": 1, "action": "remove"}, follow=True
    )
    assert "Ayşe: bir çay geri alındı (0)." in taken_back.content.decode()


# --- Bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, sentence",
    [
        ({"seat": 4, "item": 0, "seen": 0, "action": "add"}, "Bu oyuncu ya da içecek bu maçta yok"),
        ({"seat": 0, "item": 5, "seen": 0, "action": "add"}, "Bu oyuncu ya da içecek bu maçta yok"),
        ({"seat": 99, "item": 0, "seen": 0, "action": "add"}, "Neye dokunulduğu anlaşılamadı"),
        ({"seat": "x", "item": 0, "seen": 0, "action": "add"}, "Neye dokunulduğu anlaşılamadı"),
        ({"seat": 0, "item": 0, "seen": -1, "action": "add"}, "Neye dokunulduğu anlaşılamadı"),
        ({"seat": 0, "item": 0, "seen": 0, "action": "drink"}, "Neye dokunulduğu anlaşılamadı"),
        ({}, "Neye dokunulduğu anlaşılamadı"),
    ],
)
def test_an_unknown_player_or_item_or_a_garbled_tap_changes_nothing(client, data, sentence):
    match = make_match(planned_hands=3)
    version = Match.objects.get(pk=match.pk).version

    htmx = client.post(drink_url(match), data, headers=HTMX)
    plain = client.post(drink_url(match), data, follow=True)

    assert htmx.status_code == plain.status_code == 200
    assert sentence in htmx.content.decode() and sentence in plain.content.decode()
    assert not Drink.objects.exists()
    assert Match.objects.get(pk=match.pk).version == version


def test_a_retired_item_takes_no_new_drink_but_keeps_its_old_ones(client):
    table, data = priced_table()
    match = start_at(table, [0, 1, 2, 3], planned_hands=3)
    tap(client, match, ALI, SU)
    save_list(client, table, {**data, "retired_2": "on"})

    response = tap(client, match, ALI, SU, **HTMX)

    assert "Bu oyuncu ya da içecek bu maçta yok" in response.content.decode()
    assert counts(match) == {(ALI, SU): 1}
    body = page(client, match)
    assert 'data-tea-cell="0-2"' in body  # still shown with its count, without buttons
    assert "+ su" not in body


@pytest.mark.parametrize(
    "price, sentence",
    [
        ("-5", "Fiyat eksi olamaz."),
        ("abc", "Fiyatı bir sayı olarak yazın"),
        ("1,234", "Fiyatta virgülden sonra en çok iki hane olur."),
        ("99999999", "Bu fiyat çok yüksek."),
    ],
)
def test_a_bad_price_gets_a_sentence_and_changes_nothing(client, price, sentence):
    table, data = priced_table(cay=price)

    response = save_list(client, table, data)

    assert response.status_code == 200
    assert sentence in response.content.decode()
    assert not TeaItem.objects.exists()


def test_an_item_without_a_name_or_a_double_name_is_refused(client):
    table, data = priced_table()

    blank = save_list(client, table, {**data, "name_1": " "})
    double = save_list(client, table, {**data, "name_new_0": "ÇAY"})
    nameless = save_list(client, table, {**data, "price_new_0": "5"})

    assert "Bir içeceğin adı boş kalamaz" in blank.content.decode()
    assert "Aynı içecek listede iki kez var." in double.content.decode()
    assert "Fiyatı yazılan içeceğin adını da yazın." in nameless.content.decode()
    assert not TeaItem.objects.exists()


def test_a_table_list_keeps_prices_in_kurus_and_adds_new_items(client):
    table, data = priced_table()

    response = save_list(client, table, {**data, "name_new_0": "oralet", "price_new_0": "12,5"})

    assert response.status_code == 302
    saved = list(TeaItem.objects.values_list("place", "name", "price", "retired"))
    assert saved == [
        (0, "çay", 1500, False),
        (1, "kahve", 4050, False),
        (2, "su", None, False),
        (3, "oralet", 1250, False),
    ]
    form = client.get(reverse("tea:table_tea", args=[table.edit_token])).content.decode()
    assert 'value="40,50"' in form  # shown again as it was written, in Turkish


# --- The bill ----------------------------------------------------------------------------------


def drinks(client, match, taps):
    for seat, item, times in taps:
        for _ in range(times):
            assert tap(client, match, seat, item).status_code == 302


def bill_of(client, match) -> str:
    body = view_page(client, match)
    assert "data-tea-bill" in body
    return body[body.index("data-tea-bill") : body.index("</section>", body.index("data-tea-bill"))]


def test_tek_the_last_player_pays_all_with_the_prices_of_the_table(client):
    table, data = priced_table()
    save_list(client, table, data)
    match = finished_match(LOSER_DENIZ, table=table)
    # Ali 2 çay (30 ₺), Ayşe 1 kahve (40,50 ₺), Can 1 çay + 1 su (15 ₺), Deniz nothing.
    drinks(client, match, [(ALI, CAY, 2), (AYSE, KAHVE, 1), (CAN, CAY, 1), (CAN, SU, 1)])

    bill = bill_of(client, match)

    assert "Kaybeden öder: Deniz" in bill
    assert "Toplam: 3 çay, 1 kahve, 1 su — 85,50\u00a0₺" in bill
    assert "Deniz: –" in bill  # drank nothing, pays everything
    assert "<strong>85,50\u00a0₺</strong>" in bill
    assert bill.count("<strong>0,00\u00a0₺</strong>") == 3
    text = bill[bill.index("data-tea-text>") :]
    assert "Ali: 2 çay (30,00\u00a0₺)" in text and "Ayşe: 1 kahve (40,50\u00a0₺)" in text
    assert "Can: 1 çay, 1 su (15,00\u00a0₺)" in text


def test_esli_the_losing_team_pays_all_in_two_equal_shares(client):
    table, data = priced_table(cay="15,25")
    save_list(client, table, data)
    match = finished_match(LOSER_DENIZ, teams=True, table=table)  # Ali & Can lose, 333 to 323
    drinks(client, match, [(AYSE, CAY, 1), (DENIZ, CAY, 2)])  # 45,75 ₺

    bill = bill_of(client, match)

    assert "Kaybeden öder: Ali ve Can" in bill
    assert "Toplam: 3 çay — 45,75\u00a0₺" in bill
    # 4,575 kuruş in two: the kuruş left over to the first in seat order.
    assert "<strong>22,88\u00a0₺</strong>" in bill and "<strong>22,87\u00a0₺</strong>" in bill
    assert "(kişi başı 22,88\u00a0₺)" in bill


def test_tek_players_tied_for_last_share_the_bill(client):
    table, data = priced_table(cay="10")
    save_list(client, table, data)
    match = finished_match(TIE, table=table)  # Ayşe and Deniz both 222
    drinks(client, match, [(ALI, CAY, 3)])

    bill = bill_of(client, match)

    assert "Kaybeden öder: Ayşe ve Deniz" in bill
    assert bill.count("<strong>15,00\u00a0₺</strong>") == 2


def test_esli_by_the_teams_totals_not_the_players(client):
    match = finished_match(TIE, teams=True)  # 202 against 444: Ayşe & Deniz lose
    drinks(client, match, [(ALI, CAY, 1)])

    bill = bill_of(client, match)

    assert "Kaybeden öder: Ayşe ve Deniz" in bill
    assert "₺" not in bill  # a match at no table has no prices: counts only
    assert "Toplam: 1 çay" in bill


def test_everyone_pays_their_own(client):
    table, data = priced_table()
    save_list(client, table, {**data, "rule": "own"})
    match = finished_match(LOSER_DENIZ, table=table)
    drinks(client, match, [(ALI, CAY, 2), (DENIZ, KAHVE, 2)])

    bill = bill_of(client, match)

    assert "Herkes kendi" in bill and "Kaybeden öder" not in bill
    assert "<strong>30,00\u00a0₺</strong>" in bill and "<strong>81,00\u00a0₺</strong>" in bill
    assert "Herkes kendi içtiğini öder." in bill
    assert "Toplam: 2 çay, 2 kahve — 111,00\u00a0₺" in bill


def test_the_rule_of_a_match_at_no_table_is_its_own_and_changes_the_bill(client):
    match = finished_match(LOSER_DENIZ)
    drinks(client, match, [(ALI, CAY, 1)])
    assert "Kaybeden öder: Deniz" in bill_of(client, match)

    response = client.post(
        reverse("tea:match_tea_rule", args=[match.edit_token]), {"rule": "own"}, follow=True
    )

    assert "Çay defteri: Herkes kendi öder." in response.content.decode()
    assert "Kaybeden öder: Deniz" not in bill_of(client, match)
    refused = client.post(
        reverse("tea:match_tea_rule", args=[match.edit_token]), {"rule": "bedava"}, headers=HTMX
    )
    assert "Hesabı kimin ödeyeceğini seçin." in refused.content.decode()
    assert Match.objects.get(pk=match.pk).tea_rule == "own"


def test_a_rematch_and_a_table_set_up_from_the_match_keep_its_rule(client):
    match = finished_match(LOSER_DENIZ)
    rule_url = reverse("tea:match_tea_rule", args=[match.edit_token])
    client.post(rule_url, {"rule": "own"})

    client.post(reverse("tables:match_rematch", args=[match.edit_token]))
    client.post(reverse("tables:match_table", args=[match.edit_token]), {"name": "Cuma"})

    assert Match.objects.get(rematch_of=match).tea_rule == "own"
    match.refresh_from_db()
    assert match.table.tea_rule == "own"


def test_the_bill_is_in_the_summary_of_every_link_with_a_whatsapp_text(client):
    match = finished_match(LOSER_DENIZ)
    drinks(client, match, [(ALI, CAY, 2), (CAN, KAHVE, 1)])
    match.refresh_from_db()
    phone = client.__class__()
    phone.post(reverse("seats:join_match", args=[match.join_token]), {"seat": "1"})

    for body in (
        sheet_page(client, match),
        view_page(client, match),
        phone.get(reverse("seats:join_match", args=[match.join_token])).content.decode(),
    ):
        summary = body[body.index('id="summary-title"') :]
        assert "data-tea-bill" in summary
        link = summary[summary.index("https://wa.me/?text=") :].split('"')[0]
        text = unquote(link.removeprefix("https://wa.me/?text="))
        assert text.splitlines() == [
            "Çay defteri: Ali, Ayşe, Can, Deniz",
            "Ali: 2 çay",
            "Can: 1 kahve",
            "Toplam: 2 çay, 1 kahve",
            "Kaybeden öder: Deniz",
        ]


def test_no_bill_before_the_end_and_none_without_drinks(client):
    playing = make_match(planned_hands=3)
    tap(client, playing, ALI, CAY)
    assert "data-tea-bill" not in view_page(client, playing)
    assert "data-tea-bill" not in view_page(client, finished_match(LOSER_DENIZ))


def test_a_tap_after_the_end_brings_the_new_bill_with_the_card(client):
    match = finished_match(LOSER_DENIZ)
    sheet = "http://testserver" + reverse("matches:match_detail", args=[match.edit_token])

    response = tap(client, match, ALI, CAY, **HTMX, **{"HX-Current-URL": sheet})
    elsewhere = tap(client, match, ALI, CAY, **HTMX, **{"HX-Current-URL": sheet + "cay/"})

    body = response.content.decode()
    assert '<section id="sheet"' in body and 'hx-swap-oob="true"' in body
    assert "Toplam: 1 çay" in body[body.index("data-tea-bill") :]
    # The tally's own page has no sheet to swap: the card alone.
    assert '<section id="sheet"' not in elsewhere.content.decode()
    assert counts(match) == {(ALI, CAY): 2}


# --- At a table --------------------------------------------------------------------------------


def table_drink(client, table, match, seat, item, action="add", **headers):
    data = {
        "match": match.pk,
        "seat": seat,
        "item": item,
        "seen": seen(match, seat, item),
        "action": action,
    }
    return client.post(reverse("tea:table_drink", args=[table.edit_token]), data, headers=headers)


def test_at_a_table_the_taps_go_to_its_latest_match_by_seat(client):
    table = table_with(("Ali", "Ayşe", "Can", "Deniz", "Ece"))
    start_at(table, [0, 1, 2, 3], planned_hands=3)
    latest = start_at(table, [4, 0, 1, 2], planned_hands=3)  # Ece at seat 0

    response = table_drink(client, table, latest, 0, CAY)
    table_drink(client, table, latest, 0, CAY)
    table_drink(client, table, latest, 0, CAY, "remove")

    assert response.url == reverse("tables:table_detail", args=[table.edit_token]) + "#tea"
    assert counts(latest) == {(0, CAY): 1}
    body = client.get(reverse("tables:table_detail", args=[table.edit_token])).content.decode()
    card = body[body.index('id="tea"') :]
    assert card.index("Ece") < card.index("Ali")  # the latest match's players, by seat
    assert "Toplam: 1 çay." in card


def test_a_table_tap_for_another_tables_match_changes_nothing(client):
    table, other = table_with(), table_with()
    foreign = start_at(other, [0, 1, 2, 3], planned_hands=3)
    start_at(table, [0, 1, 2, 3], planned_hands=3)

    response = table_drink(client, table, foreign, 0, CAY, **HTMX)

    assert "Bu maç bu masanın değil" in response.content.decode()
    assert not Drink.objects.exists()


def test_a_table_tap_before_any_match_or_on_a_past_season_changes_nothing(client):
    table = table_with()
    url = reverse("tea:table_drink", args=[table.edit_token])
    data = {"match": 1, "seat": 0, "item": 0, "seen": 0, "action": "add"}

    htmx = client.post(url, data, headers=HTMX)
    plain = client.post(url, data, follow=True)

    assert htmx.status_code == plain.status_code == 200
    assert "Bu maç bu masanın değil" in htmx.content.decode()
    assert "Bu maç bu masanın değil" in plain.content.decode()
    # Before the first match the card is the drinks at the table (tests below), not a match's.
    before = client.get(reverse("tables:table_detail", args=[table.edit_token])).content.decode()
    assert 'name="match"' not in before and 'name="place"' in before
    assert not Drink.objects.exists()
    # A past season's page shows no card: the tally is the latest match's.
    old = start_at(table, [0, 1, 2, 3], planned_hands=3)
    Match.objects.filter(pk=old.pk).update(created_at=old.created_at.replace(year=2020))
    start_at(table, [0, 1, 2, 3], planned_hands=3)
    past = client.get(reverse("tables:table_detail", args=[table.edit_token]), {"sezon": "2020"})
    assert 'id="tea"' not in past.content.decode()
    assert (
        'id="tea"'
        in client.get(reverse("tables:table_detail", args=[table.edit_token])).content.decode()
    )


def test_the_table_view_link_shows_the_counts_without_a_form(client):
    table = table_with()
    match = start_at(table, [0, 1, 2, 3], planned_hands=3)
    table_drink(client, table, match, 1, KAHVE)

    body = client.get(reverse("tables:view_table", args=[table.view_token])).content.decode()

    assert 'data-tea-cell="1-1"' in body and "tea-add" not in body
    assert table.edit_token not in body and match.edit_token not in body


# --- Drinks at the table, before its next match ----------------------------------------------


def waiting(table) -> dict:
    found = {}
    for place, item in Drink.objects.filter(table=table).values_list("place", "item"):
        found[(place, item)] = found.get((place, item), 0) + 1
    return found


def at_table(client, table, place, item, action="add", seen=None, **extra):
    """A tap on the table's page before its next match, as the page's form sends it."""
    if seen is None:
        seen = Drink.objects.filter(table=table, place=place, item=item).count()
    data = {"place": place, "item": item, "seen": seen, "action": action, **extra}
    headers = {key: value for key, value in extra.items() if key.startswith("HX")}
    for key in headers:
        data.pop(key)
    return client.post(
        reverse("tea:table_waiting_drink", args=[table.edit_token]), data, headers=headers
    )


def table_page(client, table, role="edit") -> str:
    if role == "edit":
        return client.get(reverse("tables:table_detail", args=[table.edit_token])).content.decode()
    return client.get(reverse("tables:view_table", args=[table.view_token])).content.decode()


def test_before_the_first_match_each_table_player_gets_a_tap_and_minus_undoes_it(client):
    table = table_with(("Ali", "Ayşe", "Can", "Deniz", "Ece"))
    page_before = table_page(client, table)

    response = at_table(client, table, 4, CAY)  # Ece, the fifth at the table
    at_table(client, table, 4, CAY)
    at_table(client, table, 1, KAHVE)
    undone = at_table(client, table, 4, CAY, "remove")

    assert 'data-tea-cell="4-0"' in page_before and "Ece" in page_before
    assert response.url == reverse("tables:table_detail", args=[table.edit_token]) + "#tea"
    assert waiting(table) == {(4, CAY): 1, (1, KAHVE): 1}
    assert not Drink.objects.filter(match__isnull=False).exists()
    body = client.get(undone.url).content.decode()  # without JavaScript: the page again
    assert "Ece: bir çay geri alındı (1)." in body
    assert "Toplam: 1 çay, 1 kahve." in body


def test_the_waiting_drinks_move_into_the_next_match_at_their_players_seats(client):
    table = table_with(("Ali", "Ayşe", "Can", "Deniz", "Ece"))
    at_table(client, table, 4, CAY)  # Ece
    at_table(client, table, 4, CAY)
    at_table(client, table, 0, KAHVE)  # Ali, who sits this one out
    at_table(client, table, 2, SU)  # Can

    match = start_at(table, [4, 1, 2, 3], planned_hands=3)  # Ece at seat 0, Can at seat 2

    assert counts(match) == {(0, CAY): 2, (2, SU): 1}
    assert waiting(table) == {(0, KAHVE): 1}  # Ali's waits for the next match he plays
    body = table_page(client, table)
    card = body[body.index('id="tea"') :]
    assert 'name="match"' in card and "Toplam: 2 çay, 1 su." in card
    for hand in LOSER_DENIZ:
        add_hand(match, hand)
    later = start_at(table, [0, 1, 2, 3], planned_hands=3)
    assert counts(later) == {(0, KAHVE): 1} and not waiting(table)


def test_the_bill_of_the_next_match_counts_the_drinks_from_before_it(client):
    table, data = priced_table()
    save_list(client, table, data)
    at_table(client, table, ALI, CAY)
    at_table(client, table, AYSE, KAHVE)

    match = finished_match(LOSER_DENIZ, table=table)

    bill = bill_of(client, match)
    assert "Ali: 1 çay (15,00" in bill and "Ayşe: 1 kahve (40,50" in bill
    assert "Kaybeden öder: Deniz" in bill


def test_a_tap_at_the_table_while_a_match_is_played_goes_into_it(client):
    """A page drawn before the match started, or a tap kept on a phone without signal."""
    table = table_with(("Ali", "Ayşe", "Can", "Deniz", "Ece"))
    match = start_at(table, [4, 1, 2, 3], planned_hands=3)

    into = at_table(client, table, 4, CAY, **HTMX)
    sat_out = at_table(client, table, 0, CAY)  # Ali does not play it: his waits

    assert "Ece: bir çay daha, oynadığı maçta (1)." in into.content.decode()
    assert 'name="match"' in into.content.decode()  # the answer is the match's card
    assert counts(match) == {(0, CAY): 1}
    assert waiting(table) == {(0, CAY): 1} and sat_out.status_code == 302


def test_once_the_latest_match_is_over_the_card_is_the_table_again(client):
    table = table_with()
    match = finished_match(LOSER_DENIZ, table=table)

    body = table_page(client, table)
    at_table(client, table, DENIZ, CAY)

    assert 'name="place"' in body and 'name="match"' not in body
    assert waiting(table) == {(DENIZ, CAY): 1} and not counts(match)


@pytest.mark.parametrize(
    ("data", "sentence"),
    [
        ({"place": 9, "item": 0, "seen": 0, "action": "add"}, "bu masada yok"),
        ({"place": 0, "item": 6, "seen": 0, "action": "add"}, "bu masada yok"),
        ({"place": "x", "item": 0, "seen": 0, "action": "add"}, "anlaşılamadı"),
        ({"place": 0, "item": 0, "seen": 0, "action": "drop"}, "anlaşılamadı"),
        ({"place": 0, "item": 0, "action": "add"}, "anlaşılamadı"),
        ({"place": 0, "item": 0, "seen": 0, "action": "remove"}, "Geri alınacak içecek yok"),
        ({"place": 0, "item": 0, "seen": 3, "action": "add"}, "az önce değişti, şimdi 0"),
        ({"place": 0, "item": 0, "seen": 0, "action": "add", "tap": "short"}, "anlaşılamadı"),
    ],
)
def test_a_bad_tap_at_the_table_changes_nothing_and_says_so(client, data, sentence):
    table = table_with()
    url = reverse("tea:table_waiting_drink", args=[table.edit_token])

    htmx = client.post(url, data, headers=HTMX)
    plain = client.post(url, data, follow=True)

    assert htmx.status_code == plain.status_code == 200
    assert sentence in htmx.content.decode() and sentence in plain.content.decode()
    assert not Drink.objects.exists()


def test_the_view_link_shows_the_waiting_counts_and_cannot_tap(client):
    table = table_with()
    at_table(client, table, AYSE, KAHVE)

    body = table_page(client, table, role="view")
    data = {"place": 0, "item": 0, "seen": 0, "action": "add"}
    refused = client.post(reverse("tea:table_waiting_drink", args=[table.view_token]), data)

    assert 'data-tea-cell="1-1"' in body and "tea-add" not in body and 'name="place"' not in body
    assert table.edit_token not in body
    assert refused.status_code == 404 and waiting(table) == {(AYSE, KAHVE): 1}


def test_deleting_the_table_deletes_its_waiting_drinks(client):
    table = table_with()
    at_table(client, table, ALI, CAY)
    other = table_with()
    at_table(client, other, ALI, CAY)

    response = client.post(
        reverse("your_data:table_delete", args=[table.edit_token]),
        {"confirm": "on", "matches": "keep"},
    )

    assert response.status_code == 302

    assert not Drink.objects.filter(table_id=table.pk).exists()
    assert Drink.objects.filter(table=other).count() == 1


# --- Taps kept on a phone without signal ------------------------------------------------------

TAP_ID = "k" * 20


def test_a_kept_plus_counts_whatever_the_count_now_and_a_resend_counts_once(client):
    match = make_match()
    tap(client, match, ALI, CAY)  # another phone's çay, after this phone lost its signal
    data = {"seat": ALI, "item": CAY, "seen": 0, "action": "add", "kept": "1", "tap": TAP_ID}

    first = client.post(drink_url(match), data, headers=HTMX)
    again = client.post(drink_url(match), data, headers=HTMX)  # the answer was lost: sent again

    assert "Ali: bir çay daha (2)." in first.content.decode()
    assert "zaten sayılmıştı (2)" in again.content.decode()
    assert counts(match) == {(ALI, CAY): 2}


def test_a_kept_minus_still_names_the_count_it_saw(client):
    match = make_match()
    tap(client, match, ALI, CAY)
    tap(client, match, ALI, CAY)
    data = {"seat": ALI, "item": CAY, "seen": 1, "action": "remove", "kept": "1", "tap": TAP_ID}

    response = client.post(drink_url(match), data, headers=HTMX)

    assert "az önce değişti, şimdi 2" in response.content.decode()
    assert counts(match) == {(ALI, CAY): 2}


def test_a_kept_tap_at_the_table_sent_twice_counts_once_and_follows_its_drink(client):
    table = table_with()
    first = at_table(client, table, CAN, CAY, seen=5, kept="1", tap=TAP_ID, **HTMX)
    start_at(table, [0, 1, 2, 3], planned_hands=3)  # the drink moved into the match
    again = at_table(client, table, CAN, CAY, seen=5, kept="1", tap=TAP_ID, **HTMX)

    assert "Can: bir çay daha (1)." in first.content.decode()
    assert "zaten sayılmıştı" in again.content.decode()
    assert Drink.objects.count() == 1


def test_two_kept_taps_for_the_same_cell_are_two_drinks(client):
    table = table_with()
    for tap_id in ("a" * 20, "b" * 20):
        at_table(client, table, CAN, CAY, seen=0, kept="1", tap=tap_id)

    assert waiting(table) == {(CAN, CAY): 2}


# --- Only the edit links write ------------------------------------------------------------------


def test_the_view_and_join_links_cannot_tap_or_change_the_rule_or_the_list(client):
    table = table_with()
    match = start_at(table, [0, 1, 2, 3], planned_hands=3)
    tap(client, match, ALI, CAY)
    match.refresh_from_db()
    before = (list(Drink.objects.values()), Match.objects.get(pk=match.pk).version)
    data = {"seat": 0, "item": 0, "seen": 1, "action": "add", "match": match.pk, "rule": "own"}

    for token in (match.view_token, match.join_token):
        for name in ("tea:match_drink", "tea:match_tea_rule"):
            assert client.post(reverse(name, args=[token]), data).status_code == 404
    for name in ("tea:table_drink", "tea:table_tea", "tea:table_waiting_drink"):
        assert client.post(reverse(name, args=[table.view_token]), data).status_code == 404

    assert (list(Drink.objects.values()), Match.objects.get(pk=match.pk).version) == before
    assert not TeaItem.objects.exists()
    assert Match.objects.get(pk=match.pk).tea_rule == "loser"


# --- Queries do not grow with drinks -------------------------------------------------------------


def queries_of(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_match_and_table_page_queries_do_not_grow_with_drinks(client):
    found = []
    for number in (0, 5, 60):
        table = table_with()
        match = start_at(table, [0, 1, 2, 3], planned_hands=3)
        Drink.objects.bulk_create(
            Drink(match=match, seat=index % 4, item=index % 3) for index in range(number)
        )
        match.refresh_from_db()
        found.append(
            (
                queries_of(client, reverse("matches:match_detail", args=[match.edit_token])),
                queries_of(client, drink_url(match)),  # the card, asked by the page
                queries_of(client, reverse("sharing:view_match", args=[match.view_token])),
                queries_of(client, reverse("tables:table_detail", args=[table.edit_token])),
            )
        )
    assert found[0] == found[1] == found[2], found


def test_a_table_page_with_drinks_at_the_table_does_not_grow_with_them(client):
    found = []
    for number in (0, 5, 60):
        table = table_with()
        Drink.objects.bulk_create(
            Drink(table=table, place=index % 4, item=index % 3) for index in range(number)
        )
        found.append(
            (
                queries_of(client, reverse("tables:table_detail", args=[table.edit_token])),
                queries_of(client, reverse("tables:view_table", args=[table.view_token])),
            )
        )
    assert found[0] == found[1] == found[2], found


# --- English -----------------------------------------------------------------------------------


def test_the_tally_and_the_bill_in_english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    table, data = priced_table(kahve="40.50")  # as an English phone writes it
    assert save_list(client, table, data).status_code == 302  # names stay as they were typed
    match = finished_match(LOSER_DENIZ, table=table)
    drinks(client, match, [(ALI, CAY, 2)])
    plain = make_match(planned_hands=3)

    answer = tap(client, plain, AYSE, KAHVE, **HTMX).content.decode()
    bill = bill_of(client, match)

    assert "Tea tally" in answer and "+ coffee" in answer and "+ tea" in answer
    assert "Ayşe: one more coffee (1)." in answer
    assert "The loser pays: Deniz" in bill
    assert "Total: 2 çay — 30.00\u00a0₺" in bill
    items = client.get(reverse("tea:table_tea", args=[table.edit_token])).content.decode()
    assert "Price (₺)" in items and 'value="40.50"' in items


def test_the_drinks_at_the_table_and_a_kept_tap_in_english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    table = table_with()

    page = table_page(client, table)
    first = at_table(client, table, CAN, CAY, kept="1", tap=TAP_ID, **HTMX).content.decode()
    again = at_table(client, table, CAN, CAY, seen=0, kept="1", tap=TAP_ID, **HTMX)

    assert "Tea tally · at the table" in page and "In the next match" in page
    assert 'data-tea-kept-word="waiting"' in page
    assert "Can: one more tea (1)." in first
    assert "Can: this tea was already counted (1)" in again.content.decode()


# --- A double tap that really races (PostgreSQL, threads) ----------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks between threads need PostgreSQL"
)
def test_a_tap_waiting_for_another_taps_lock_sees_its_drink_and_counts_nothing():
    """The second tap of a double tap arrives while the first holds the match's lock: it waits,
    then finds the count it showed gone and says so (fails if the cell is counted before the
    lock, or in the statement that waited)."""
    import threading

    from django.db import transaction
    from django.test import Client

    match = make_match(planned_hands=3)
    data = {"seat": ALI, "item": CAY, "seen": 0, "action": "add"}
    locked, answer = threading.Event(), {}

    def second_tap() -> None:
        locked.wait(10)
        try:
            answer["response"] = Client().post(drink_url(match), data, headers=HTMX)
        finally:
            connection.close()

    thread = threading.Thread(target=second_tap)
    thread.start()
    with transaction.atomic():  # the first tap, holding the lock while the second arrives
        Match.objects.select_for_update().get(pk=match.pk)
        locked.set()
        thread.join(1.5)  # the second tap is now waiting for the lock
        Drink.objects.create(match=match, seat=ALI, item=CAY)
    thread.join(30)

    assert "Ali için çay sayısı az önce değişti, şimdi 1" in answer["response"].content.decode()
    assert counts(match) == {(ALI, CAY): 1}


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks between threads need PostgreSQL"
)
def test_a_tap_at_the_table_while_the_match_starts_goes_into_it_not_left_waiting():
    """A "+" at the table arrives while the next match is being started (it holds the table's
    lock): it waits, then finds the match in play and goes into it (fails if the tap does not
    take the table's lock, or Match.start moves the drinks without it)."""
    import threading

    from django.test import Client

    table = table_with()
    data = {"place": CAN, "item": CAY, "seen": 0, "action": "add"}
    url = reverse("tea:table_waiting_drink", args=[table.edit_token])
    started, answer = threading.Event(), {}

    def tap_at_the_table() -> None:
        started.wait(10)
        try:
            answer["response"] = Client().post(url, data, headers=HTMX)
        finally:
            connection.close()

    thread = threading.Thread(target=tap_at_the_table)
    thread.start()
    with transaction.atomic():  # the match starting, holding the table's lock
        match = start_at(table, [0, 1, 2, 3], planned_hands=3)
        started.set()
        thread.join(1.5)  # the tap is now waiting for the lock
    thread.join(30)

    assert "Can: bir çay daha, oynadığı maçta (1)." in answer["response"].content.decode()
    assert counts(match) == {(CAN, CAY): 1} and not waiting(table)


@pytest.mark.parametrize(
    "fields",
    [
        {},  # neither at a match nor at a table
        {"seat": 0, "place": 0},  # a seat without its match, a place without its table
    ],
)
def test_a_drink_is_at_a_seat_of_a_match_or_waiting_at_a_table_never_neither_nor_both(fields):
    from django.db import IntegrityError

    match = make_match()
    with pytest.raises(IntegrityError), transaction.atomic():
        Drink.objects.create(item=0, **fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        Drink.objects.create(match=match, seat=0, table=table_with(), place=0, item=0)
    assert not Drink.objects.exists()
