"""A joined phone's row and the scorer's "Eli kaydet" sent at the same moment, for real: gunicorn
workers on a SQLite file (WAL, IMMEDIATE), or on PostgreSQL under scripts/with-postgres.sh.

Bora sends "Seri 20" while the scorer, whose form never showed it, saves Ayşe's finish. Each
round ends one of two ways, and the phone and the scorer are told which: the save waited for the
row and was refused with the row written into its form ("Bora yazdı: Seri · 20 — bakıp
kaydedin."), or the row waited for the save and its phone was told it was not used. Never both
"Satırınız gönderildi" and a saved hand without it (cetele.seats.drafts.check_rows_seen)."""

import random
import threading
import time

import pytest

from bench.harness import Client, hand_form_data
from tests.web.races import ROW, a_table, race_server

ROUNDS = 12
KEPT = "Satırınız gönderildi"
NOT_USED = "bu satır sayılmadı"
TOLD = "Bora yazdı: Seri · 20 — bakıp kaydedin."


def ayse_finished() -> dict:
    """The scorer's first hand: Ayşe finished, nobody else opened (Bora's row not shown)."""
    players = [{"opened": "series", "okeys": 0, "fake_okeys": 0, "penalties": []}]
    players += [{"opened": "no", "okeys": 0, "fake_okeys": 0, "penalties": []}] * 3
    return {"finisher": 0, "okey_finish": False, "kafa": False, "players": players}


def one_round(port: int, rng: random.Random) -> tuple[str, str, bool]:
    """The row and the save at once (either a few ms ahead): (row's answer, save's, saved)."""
    scorer, edit, phone, join = a_table(port)
    save = hand_form_data(ayse_finished()) | {"position": "1", "rows_seen": ""}
    start = threading.Barrier(2)
    answers: dict = {}

    def send(name: str, client: Client, path: str, form: dict) -> None:
        start.wait()
        time.sleep(rng.uniform(0, 0.03))
        answers[name] = client.post(path, form, htmx=True)

    threads = [
        threading.Thread(target=send, args=("row", phone, join + "satir/", ROW)),
        threading.Thread(target=send, args=("save", scorer, edit + "el/", save)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    row, saved = answers["row"], answers["save"]
    assert row[0] == 200 and saved[0] == 200, (row[0], saved[0])
    return row[2].decode(), saved[2].decode(), "cetele:hand-saved" in saved[1].get("hx-trigger", "")


@pytest.mark.database  # its server's database is DATABASE_URL's on the PostgreSQL leg
def test_a_row_racing_the_save_is_shown_to_the_scorer_or_refused_to_its_phone(
    tmp_path, static_root
):
    rng = random.Random(7)
    outcomes = []
    with race_server(tmp_path, static_root, workers=2) as server:
        for _ in range(ROUNDS):
            row, save, saved = one_round(server.port, rng)
            if saved:  # the row waited for the save: its phone is told it was not used
                assert NOT_USED in row and KEPT not in row, row
                outcomes.append("row refused")
            else:  # the save waited for the row: refused, with the row in the form
                assert KEPT in row, row
                assert TOLD in save and 'name="p1-remaining" value="20"' in save, save
                outcomes.append("save refused")
    print(f"\n{outcomes.count('save refused')} saves refused, {outcomes.count('row refused')} rows")
