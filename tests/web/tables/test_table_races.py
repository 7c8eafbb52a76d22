"""A table's players changed from two taps at once, for real (threads, both databases): the
names are checked where they are written, under the table's lock, not only in the form read
before it. On SQLite every writer waits for the database; the form's check still ran before
either wrote, so the race is the same."""

import pytest
from django.test import Client
from django.urls import reverse

from cetele.models import Table, TablePlayer
from cetele.tables.season import MAX_TABLE_PLAYERS
from tests.web.seats.test_seat_races import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def table_with(names: list[str]) -> Table:
    table = Table.objects.create(name="Cuma")
    TablePlayer.objects.bulk_create(
        TablePlayer(table=table, place=place, name=name) for place, name in enumerate(names)
    )
    return table


def post_both(table: Table, first: dict, second: dict) -> list:
    url = reverse("tables:table_players", args=[table.edit_token])
    return at_once(lambda: Client().post(url, first), lambda: Client().post(url, second))


def test_a_double_tap_adding_a_newcomer_seats_them_once():
    for _attempt in range(5):
        table = table_with(["Ali", "Ayşe"])
        data = {"place_0": "Ali", "place_1": "Ayşe", "new_0": "Can", "new_1": ""}

        answers = post_both(table, data, data)

        assert [answer.status_code for answer in answers] == [302, 302]
        assert list(table.players.values_list("name", flat=True)) == ["Ali", "Ayşe", "Can"]


def test_a_rename_and_a_newcomer_of_the_same_name_at_once_leave_one_of_them():
    """Whichever is written second finds the name taken: a rename is refused with a sentence, a
    newcomer of a name already seated is taken for a double tap and not seated twice."""
    for _attempt in range(5):
        table = table_with(["Ali", "Ayşe"])
        rename = {"place_0": "Can", "initial-place_0": "Ali", "place_1": "Ayşe"}
        newcomer = {"place_0": "Ali", "initial-place_0": "Ali", "place_1": "Ayşe", "new_0": "Can"}

        answers = post_both(table, rename, newcomer)

        names = list(table.players.values_list("name", flat=True))
        assert [name.casefold() for name in names].count("can") == 1, names
        for answer in answers:
            assert answer.status_code == 302 or (
                "Masada aynı adla iki oyuncu olamaz." in answer.content.decode()
            )


def test_two_phones_adding_past_the_last_place_at_once_seat_no_one_too_many():
    for _attempt in range(5):
        names = [f"Oyuncu {n}" for n in range(MAX_TABLE_PLAYERS - 2)]
        table = table_with(names)
        kept = {f"place_{place}": name for place, name in enumerate(names)}

        answers = post_both(
            table,
            kept | {"new_0": "Can", "new_1": "Cem"},
            kept | {"new_0": "Deniz", "new_1": "Derya"},
        )

        assert table.players.count() == MAX_TABLE_PLAYERS
        refused = [answer for answer in answers if answer.status_code == 200]
        assert len(refused) == 1, [answer.status_code for answer in answers]
        assert "Masada en çok" in refused[0].content.decode()


def test_a_rename_and_a_newcomer_at_once_keep_both():
    for _attempt in range(5):
        table = table_with(["Ali", "Ayşe"])
        seen = {"initial-place_0": "Ali", "initial-place_1": "Ayşe"}  # the page's hidden names
        rename = seen | {"place_0": "Ali Rıza", "place_1": "Ayşe"}
        newcomer = seen | {"place_0": "Ali", "place_1": "Ayşe", "new_0": "Can"}

        answers = post_both(table, rename, newcomer)

        assert [answer.status_code for answer in answers] == [302, 302]
        assert list(table.players.values_list("name", flat=True)) == ["Ali Rıza", "Ayşe", "Can"]
