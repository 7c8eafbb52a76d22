"""Writes that decide on something another request may change at the same moment, for real: a
real gunicorn on a SQLite file, or on the PostgreSQL of scripts/with-postgres.sh when it runs the
tests (the harness of tests/web/races.py, the table of seats/test_join_link_races.py), many
rounds each.

- "Yeri boşalt" while the phone on that seat sends its row: no row stays on the scorer's form.
- the tea tally's rule tapped while the match is set up at a new table: the rule tapped is the
  rule the tally uses.
- two phones saving the table's tea list at the same moment: neither's item is lost behind an
  answer that says it was kept.
"""

import re
from functools import partial

import pytest

from bench.harness import Client
from tests.web.races import at_once
from tests.web.seats.test_join_link_races import ROUNDS, Table, row_form, server  # noqa: F401

pytestmark = pytest.mark.database  # its server's database is DATABASE_URL's on the PostgreSQL leg


def test_a_row_sent_while_its_seat_is_freed_does_not_outlive_the_seat(server):  # noqa: F811
    table = Table(server.port)
    join = table.join_path()
    kept_then_cleared = 0
    for _round in range(ROUNDS):
        phone = table.new_phone(join)
        assert phone.post(join, {"seat": "1"})[0] == 302

        freed, sent = at_once(
            partial(table.scorer.post, table.edit + "paylas/yer-bosalt/", {"seat": "1"}),
            partial(phone.post, join + "satir/", row_form(1), htmx=True),
        )

        assert freed[0] == 302
        assert sent[0] == 200, (sent[0], sent[2][:300])
        kept_then_cleared += "Satırınız gönderildi" in sent[2].decode()
        assert table.rows_on_the_scorers_form() == 0, f"round {_round}: a row outlived its seat"
        assert table.phones_joined() == 0
    print(f"rows kept before the seat was freed (then cleared): {kept_then_cleared}/{ROUNDS}")


def tea_rule_shown(table: Table) -> str:
    """The rule the match's tea card says the bill follows."""
    status, _, body = table.scorer.get(table.edit + "cay/", {"HX-Request": "true"})
    assert status == 200
    html = body.decode()
    return "own" if re.search(r"Herkes kendi öder\s*\.", html) else "loser"


def test_the_tea_rule_tapped_while_the_match_joins_a_new_table_is_the_rule_of_its_bill(server):  # noqa: F811
    for _round in range(ROUNDS):
        table = Table(server.port)  # a new match, at no table

        ruled, set_up = at_once(
            partial(table.scorer.post, table.edit + "cay/kural/", {"rule": "own"}, htmx=True),
            partial(table.scorer.post, table.edit + "masa/", {"name": "Cuma"}),
        )

        assert ruled[0] == 200 and "Çay defteri: Herkes kendi öder." in ruled[2].decode()
        assert set_up[0] == 302
        assert tea_rule_shown(table) == "own", f"round {_round}: the tap was lost"


def tea_list_form(page: str, new_item: str) -> dict:
    """The table's list as its page first shows it (the default items, and the mark of the list
    the page showed), and one item more."""
    seen = re.search(r'name="seen" value="([^"]*)"', page).group(1)
    form = {"seen": seen, "rule": "loser", "name_0": "çay", "name_1": "kahve", "name_2": "su"}
    return form | {"name_new_0": new_item}


def test_two_phones_saving_the_tea_list_at_once_lose_no_item_said_to_be_kept(server):  # noqa: F811
    """The list is written whole: a save that read it before another phone's save and wrote it
    after would put its own list over the other's, both phones told "kaydedildi"."""
    for _round in range(ROUNDS):
        table = Table(server.port)
        status, headers, _ = table.scorer.post(table.edit + "masa/", {"name": "Cuma"})
        assert status == 302
        items_url = headers["location"] + "cay/"
        phones, forms = [Client(server.port), Client(server.port)], []
        for phone, item in zip(phones, ("Ayran", "Soda"), strict=True):
            phone.cookies = dict(table.scorer.cookies)
            status, _, page = phone.get(items_url)
            assert status == 200
            forms.append(tea_list_form(page.decode(), item))

        answers = at_once(
            *(partial(p.post, items_url, f) for p, f in zip(phones, forms, strict=True))
        )

        status, _, body = table.scorer.get(items_url)
        listed = body.decode()
        for (status, _, body), item in zip(answers, ("Ayran", "Soda"), strict=True):
            if status == 302:  # "Çay listesi kaydedildi."
                assert f'value="{item}"' in listed, f"round {_round}: {item} was lost"
            else:
                assert status == 409, status
                assert "Çay listesi az önce başka bir telefondan değişti" in body.decode()


def test_the_tea_rule_and_a_drink_at_the_table_tapped_at_once_are_both_kept(server):  # noqa: F811
    """The rule (on the match's page) and a drink at the table (on the table's page, into the
    match in play) take the table's and the match's rows: in the same order, or two phones at
    once would wait for each other (on PostgreSQL one is then refused, "Kaydedilemedi")."""
    table = Table(server.port)
    status, headers, _ = table.scorer.post(table.edit + "masa/", {"name": "Cuma"})
    assert status == 302
    waiting = headers["location"] + "cay/masada/"
    drink = {"place": "0", "item": "0", "action": "add", "seen": "0", "kept": "on"}
    for _round in range(ROUNDS):
        rule = ("own", "loser")[_round % 2]

        ruled, drunk = at_once(
            partial(table.scorer.post, table.edit + "cay/kural/", {"rule": rule}, htmx=True),
            partial(table.scorer.post, waiting, drink, htmx=True),
        )

        said = [note_of(answer[2].decode()) for answer in (ruled, drunk)]
        assert (ruled[0], drunk[0]) == (200, 200), said
        assert "Çay defteri:" in said[0] and "oynadığı maçta" in said[1], f"round {_round}: {said}"


def note_of(card: str) -> str:
    """The sentence a tap's answer (the tea card) says about it."""
    return re.search(r"data-tea-note>([^<]*)<", card).group(1)
