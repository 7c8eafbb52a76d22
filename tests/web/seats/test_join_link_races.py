"""Races around the join link, for real: phones and the scorer's page sending at the same moment
to a real gunicorn (several workers) on a SQLite file, or on the PostgreSQL of
scripts/with-postgres.sh when it runs the tests. Each race runs for many rounds: a round lost to
the race shows in what the scorer's pages show afterwards, and every answer is a page or a
sentence, never an error.

- "Katılma bağlantısını yenile" while a phone picks its name through the old link: the phone
  ends with no seat (rotation lets every phone go, whichever came first).
- the same rotation while a joined phone sends its row: no row is left on the scorer's form.
- one phone tapping two names at once: it holds one seat, and so do both of its answers.
"""

import re
from functools import partial

import pytest

from bench.harness import Client
from tests.web.races import at_once, race_server, same_phone

ROUNDS = 30
ANSWERED = {200, 302, 409, 410}  # a page, a redirect, a sentence: never a 500

pytestmark = pytest.mark.database  # its server's database is DATABASE_URL's on the PostgreSQL leg


@pytest.fixture(scope="module")
def server(tmp_path_factory, static_root):
    """One server for the module's tests, each at a match of its own: starting a server cost
    about 2 s of CPU."""
    with race_server(tmp_path_factory.mktemp("races"), static_root, workers=4) as running:
        yield running


class Table:
    """The scorer's phone at a new match, and what its share page shows of the join link."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.scorer = Client(port)
        self.edit = self.scorer.start_match()

    def share_page(self) -> str:
        status, _, body = self.scorer.get(self.edit + "paylas/")
        assert status == 200
        return body.decode()

    def join_path(self) -> str:
        """The join link the share page shows now."""
        return re.search(r"/k/[A-Za-z0-9_-]+/", self.share_page()).group(0)

    def phones_joined(self) -> int:
        """How many players the share page says have a phone."""
        return self.share_page().count("telefonu var")

    def rotate(self) -> tuple[int, dict, bytes]:
        return self.scorer.post(self.edit + "paylas/katil-yenile/", {"confirm": "on"})

    def rows_on_the_scorers_form(self) -> int:
        """The rows the scorer's page would take into its hand form (asked as a new page)."""
        status, _, body = self.scorer.get(self.edit + "satirlar/?v=-1&d=-1", {"HX-Request": "true"})
        assert status == 200, status
        return body.decode().count("data-row=")

    def new_phone(self, join: str) -> Client:
        """A phone that opened the join link: its pick page, and the cookies it set."""
        phone = Client(self.port)
        status, _, _ = phone.get(join)
        assert status == 200
        return phone


def row_form(position: int) -> dict:
    return {
        "position": str(position),
        "row-opened": "series",
        "row-remaining": "12",
        "row-okeys": "0",
        "row-fake_okeys": "0",
    }


def test_a_name_picked_through_the_old_link_while_it_is_renewed_keeps_no_seat(server):
    table = Table(server.port)
    seated_then_freed = 0
    for _round in range(ROUNDS):
        old = table.join_path()
        phone = table.new_phone(old)

        rotated, picked = at_once(table.rotate, partial(phone.post, old, {"seat": "2"}))

        assert rotated[0] == 302
        assert picked[0] in {302, 410}, (picked[0], picked[2][:300])
        seated_then_freed += picked[0] == 302
        assert table.phones_joined() == 0, f"round {_round}: a phone kept its seat"
        assert phone.get(old)[0] == 410  # the old link says it changed
    print(f"picked before the rotation (then freed): {seated_then_freed}/{ROUNDS}")


def test_a_row_sent_while_the_join_link_is_renewed_does_not_outlive_it(server):
    table = Table(server.port)
    kept_then_cleared = 0
    for _round in range(ROUNDS):
        old = table.join_path()
        phone = table.new_phone(old)
        assert phone.post(old, {"seat": "1"})[0] == 302

        rotated, sent = at_once(
            table.rotate, partial(phone.post, old + "satir/", row_form(1), htmx=True)
        )

        assert rotated[0] == 302
        assert sent[0] in {200, 410}, (sent[0], sent[2][:300])
        kept_then_cleared += "Satırınız gönderildi" in sent[2].decode()
        assert table.rows_on_the_scorers_form() == 0, f"round {_round}: a row outlived it"
        assert table.phones_joined() == 0
    print(f"rows kept before the rotation (then cleared): {kept_then_cleared}/{ROUNDS}")


def test_one_phone_tapping_two_names_at_once_holds_one_seat(server):
    table = Table(server.port)
    for _round in range(ROUNDS):
        join = table.join_path()
        phone = table.new_phone(join)
        other_tap = same_phone(phone)

        answers = at_once(
            partial(phone.post, join, {"seat": "0"}), partial(other_tap.post, join, {"seat": "3"})
        )

        assert [status for status, _, _ in answers] == [302, 302], [a[0] for a in answers]
        assert table.phones_joined() == 1, f"round {_round}: one phone holds two seats"
        # Whichever answer the phone kept last, its page is the seat it holds.
        pages = [tap.get(join) for tap in (phone, other_tap)]
        assert all(status == 200 for status, _, _ in pages)
        named = {re.search(r'data-phone-of="(\d)"', body.decode()).group(1) for _, _, body in pages}
        assert len(named) == 1, named
        assert table.rotate()[0] == 302  # the next round starts with every seat free
