"""The load test's own checks (bench/loadtest/checks.py) judge the app, so they must send what a
phone sends: a check that saves a hand without the rows the scorer's page shows is refused by the
app ("a row came first", rightly) and must not count that hand as saved, then lost."""

from types import SimpleNamespace

import pytest

from bench.loadtest.checks import check_across_servers, check_hands
from tests.web.races import ROW, a_table


@pytest.mark.django_db(transaction=True)  # the live server's requests commit
def test_the_cross_server_check_saves_once_at_a_table_whose_open_hand_holds_a_row(live_server):
    port = int(live_server.url.rsplit(":", 1)[1])
    scorer, edit, phone, join = a_table(port)
    assert "Satırınız gönderildi" in phone.post(join + "satir/", ROW, htmx=True)[2].decode()

    stack = SimpleNamespace(port=port, servers=[SimpleNamespace(port=port)], nginx=None)
    table = SimpleNamespace(
        edit_token=edit.strip("/").split("/")[1],
        phones=[SimpleNamespace(role="k", token=join.strip("/").split("/")[1])],
    )
    load = SimpleNamespace(
        csrf=scorer.csrf,
        sent=set(),
        acknowledged=[],
        corrections_sent=set(),
        corrections_acknowledged=[],
    )

    assert check_across_servers(stack, table, load) == []
    assert len(load.acknowledged) == 1
    held = check_hands(load.sent, load.acknowledged, set(), [])
    assert held["lost"] == 0 and held["duplicated"] == 0, held
