"""A link the app has just made or handed to this browser opens, however many misses came from
its address (another phone at the café guessing, a carrier's shared address): the redirect to a
new match, rematch, table, house preset or rotated link, and a link someone else sent too.
"""

import pytest
from django.urls import reverse

import scoring
from cetele.models import HousePreset, Match, Table
from cetele.shell import wrong_passwords
from tests.factories import make_match, new_match_data
from tests.web.house_rules.test_preset_editor import editor_data
from tests.web.tables.test_tables_and_rematches import play, start_at, table_with

pytestmark = pytest.mark.django_db


def guessing_at_the_same_address(client) -> None:
    """Another phone at the same address guesses: each miss is the plain 404, never a refusal."""
    guesser = type(client)()
    for index in range(wrong_passwords.BAD_LINK_LIMIT * 2):
        assert guesser.get(f"/m/{'Q' * 42}{index % 10}/").status_code == 404


def opened(client, *urls: str) -> None:
    """This phone opened these pages before the guessing started."""
    for url in urls:
        assert client.get(url).status_code == 200, url


def table_pages(table) -> list:
    return [("tables:table_detail", table.edit_token), ("tables:view_table", table.view_token)]


def house_pages(house) -> list:
    return [
        ("house_rules:house_edit", house.edit_token),
        ("house_rules:house_detail", house.view_token),
    ]


def lands(client, response) -> int:
    """Where the redirect goes, followed as a browser would."""
    assert response.status_code == 302, response.status_code
    return client.get(response["Location"]).status_code


def test_a_match_just_started_opens_and_so_does_a_link_someone_sent(client):
    stranger = make_match()
    guessing_at_the_same_address(client)

    response = client.post(reverse("matches:match_create"), new_match_data())

    assert lands(client, response) == 200
    assert client.get(f"/m/{stranger.edit_token}/").status_code == 200


def test_a_match_started_with_adjusted_rules_opens(client):
    guessing_at_the_same_address(client)
    data = {**new_match_data(), **editor_data(action="start")}
    data["r-hands"] = ["5"]

    response = client.post(reverse("house_rules:match_adjust"), data)

    assert lands(client, response) == 200
    assert Match.objects.count() == 1


def test_a_rematch_opens(client):
    table = table_with()
    match = play(start_at(table, [0, 1, 2, 3], planned_hands=1), [0])
    opened(client, f"/m/{match.edit_token}/")
    guessing_at_the_same_address(client)

    response = client.post(reverse("tables:match_rematch", args=[match.edit_token]))

    assert lands(client, response) == 200
    assert Match.objects.count() == 2


def test_a_match_started_at_a_table_opens(client):
    table = table_with()
    opened(client, reverse("tables:table_detail", args=[table.edit_token]))
    guessing_at_the_same_address(client)
    data = {"name_1": "0", "name_2": "1", "name_3": "2", "name_4": "3"}
    data.update(preset="cetele-standart", cezali="1", planned_hands="5")

    response = client.post(reverse("tables:table_match", args=[table.edit_token]), data)

    assert lands(client, response) == 200


def test_a_new_table_opens_and_so_does_a_table_set_up_from_a_match(client):
    match = make_match()
    opened(client, f"/m/{match.edit_token}/")
    guessing_at_the_same_address(client)
    data = {"name": "Cuma", "player_1": "Ali", "player_2": "Ayşe"}

    new = client.post(reverse("tables:table_create"), data)
    from_match = client.post(
        reverse("tables:match_table", args=[match.edit_token]), {"name": "Pazar"}
    )

    assert lands(client, new) == 200
    assert lands(client, from_match) == 200
    assert Table.objects.count() == 2


def test_the_table_of_a_match_opens_from_the_match(client):
    table = table_with()
    match = start_at(table, [0, 1, 2, 3])
    opened(client, f"/m/{match.edit_token}/")
    guessing_at_the_same_address(client)

    response = client.get(reverse("tables:match_table", args=[match.edit_token]))

    assert lands(client, response) == 200


def test_a_new_house_preset_opens(client):
    guessing_at_the_same_address(client)

    response = client.post(reverse("house_rules:preset_new"), editor_data(name="Bizim masa"))

    assert lands(client, response) == 200
    assert HousePreset.objects.count() == 1


@pytest.mark.parametrize("kind", ["edit", "view"])
def test_a_match_link_just_rotated_opens_and_the_old_one_is_told_it_changed(client, kind):
    match = make_match()
    opened(client, f"/m/{match.edit_token}/", f"/v/{match.view_token}/")
    guessing_at_the_same_address(client)

    response = client.post(
        reverse("sharing:match_rotate", args=[match.edit_token]), {"kind": kind, "confirm": "on"}
    )

    match.refresh_from_db()
    assert lands(client, response) == 200
    assert client.get(f"/m/{match.edit_token}/").status_code == 200
    assert client.get(f"/v/{match.view_token}/").status_code == 200


@pytest.mark.parametrize("kind", ["edit", "view"])
def test_a_table_link_just_rotated_opens(client, kind):
    table = table_with()
    opened(client, *(reverse(n, args=[t]) for n, t in table_pages(table)))
    guessing_at_the_same_address(client)

    response = client.post(
        reverse("tables:table_rotate", args=[table.edit_token]), {"kind": kind, "confirm": "on"}
    )

    table.refresh_from_db()
    assert lands(client, response) == 200
    for name, token in table_pages(table):
        assert client.get(reverse(name, args=[token])).status_code == 200


@pytest.mark.parametrize("kind", ["edit", "view"])
def test_a_house_preset_link_just_rotated_opens(client, kind):
    rules = scoring.resolve_rules("cetele-standart")
    house = HousePreset.objects.create(name="Ev", rules=rules, base_slug="cetele-standart")
    opened(client, *(reverse(n, args=[t]) for n, t in house_pages(house)))
    guessing_at_the_same_address(client)

    response = client.post(
        reverse("house_rules:house_rotate", args=[house.edit_token]),
        {"kind": kind, "confirm": "on"},
    )

    house.refresh_from_db()
    assert lands(client, response) == 200
    for name, token in house_pages(house):
        assert client.get(reverse(name, args=[token])).status_code == 200


def test_the_marks_of_several_links_handed_over_at_once_are_all_kept(client):
    """A rotated view link marked by the view, then the edit link by the page's guard: the
    second mark must not overwrite the first."""
    match = make_match()
    opened(client, f"/m/{match.edit_token}/")
    guessing_at_the_same_address(client)

    client.post(
        reverse("sharing:match_rotate", args=[match.edit_token]), {"kind": "view", "confirm": "on"}
    )

    match.refresh_from_db()
    assert client.get(f"/v/{match.view_token}/").status_code == 200
    assert client.get(f"/m/{match.edit_token}/").status_code == 200
