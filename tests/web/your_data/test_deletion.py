"""Deleting through the edit link: a match, a house preset, a table. What is deleted is gone
(its links answer like any unknown link, no row keeps a name) and a view link deletes nothing."""

import io
import json
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

import scoring
from cetele.models import Change, Hand, HousePreset, Match, Player, Table, TablePlayer
from cetele.sharing.links import EDIT, link_context
from cetele.your_data.deletion import delete_table
from tests.factories import make_match

pytestmark = pytest.mark.django_db

UNKNOWN = "A" * 43  # a well-formed token no match has


def key_on_the_view_page(client, match: Match) -> str:
    """The phone-side key a match's view page hands this phone's app.js."""
    page = client.get(f"/v/{match.view_token}/").content.decode()
    return re.search(r'data-match-key="(\w+)"', page).group(1)


def forget_told(client, response, what: str) -> list[str]:
    """What the page a deletion redirects to tells this phone's app.js to forget
    (data-forget-match or data-forget-preset): the keys, in order."""
    page = client.get(response["Location"]).content.decode()
    found = re.search(rf'data-forget-{what}="([^"]*)"', page)
    return found.group(1).split(",") if found else []


def test_a_forged_forget_answer_tells_this_phone_to_forget_nothing(client):
    """The view page shows the match's phone-side key to whoever holds the view link: sent to
    the scorer as /?silindi=<key>, it must not wipe the match from the scorer's phone."""
    match = make_match()
    key = key_on_the_view_page(client, match)
    house = a_house_preset()

    home = client.get(f"/?silindi={key}").content.decode()
    rules = client.get(f"/kurallar/?silindi=house:{house.view_token}").content.decode()
    altered = client.get(f"/?silindi={key}:1tEvc0:{'A' * 43}").content.decode()

    assert "data-forget-match" not in home
    assert "data-forget-preset" not in rules
    assert "data-forget-match" not in altered


def test_a_match_given_the_number_of_a_deleted_one_gets_a_phone_key_of_its_own(client):
    """A database restored from a backup hands out again the numbers of matches made after
    the backup: a phone that still lists one of those must not take the new match for it."""
    old = make_match()
    number, old_key = old.pk, key_on_the_view_page(client, old)
    old.delete()
    rules = scoring.resolve_rules("cetele-standart")
    new = Match.objects.create(pk=number, planned_hands=5, rules=rules, preset_slug="x")

    assert new.pk == number
    assert key_on_the_view_page(client, new) != old_key


def test_the_migration_keeps_the_keys_phones_already_hold():
    """Matches and tables made before phone keys were stored keep the key phones were given
    (an HMAC of the number): "Maçlarım" and waiting offline hands keep finding them."""
    from importlib import import_module

    from django.apps import apps
    from django.utils.crypto import salted_hmac

    migration = import_module("cetele.migrations.0010_phone_keys")
    match, table = make_match(), Table.objects.create(name="Eski")
    Match.objects.update(phone_key="")
    Table.objects.update(phone_key="")

    migration.keep_the_keys_phones_hold(apps, None)

    match.refresh_from_db()
    table.refresh_from_db()
    assert match.phone_key == salted_hmac("cetele.match-key", str(match.pk)).hexdigest()[:16]
    assert table.phone_key == salted_hmac("cetele.table-key", str(table.pk)).hexdigest()[:16]


def test_an_old_forget_answer_is_not_believed_either(client, monkeypatch):
    match = make_match()
    response = client.post(delete_url(match), {"confirm": "on"})
    monkeypatch.setattr("cetele.sharing.links.FORGET_MAX_AGE", -1)  # as if it were replayed later

    assert forget_told(client, response, "match") == []


def delete_url(match: Match) -> str:
    return reverse("your_data:match_delete", args=[match.edit_token])


def every_link(match: Match) -> list[str]:
    """Every page and fragment a match's two links open."""
    edit, view = match.edit_token, match.view_token
    return [
        f"/m/{edit}/",
        f"/m/{edit}/el/1/",
        f"/m/{edit}/gecmis/",
        f"/m/{edit}/oyuncular/",
        f"/m/{edit}/kurallar/",
        f"/m/{edit}/paylas/",
        f"/m/{edit}/sil/",
        f"/m/{edit}/poll/?v=0",
        f"/v/{view}/",
        f"/v/{view}/el/1/",
        f"/v/{view}/kurallar/",
        f"/v/{view}/poll/?v=0",
        f"/v/{view}/cetele.csv",
        f"/v/{view}/cetele.json",
    ]


def a_house_preset(name: str = "Bizim masa") -> HousePreset:
    return HousePreset.objects.create(
        name=name, rules=scoring.resolve_rules("cetele-standart"), base_slug="cetele-standart"
    )


def dump_everything() -> str:
    out = io.StringIO()
    call_command("dumpdata", stdout=out)
    return out.getvalue()


# --- A match ------------------------------------------------------------------------------


def test_the_confirmation_names_the_match_and_deletes_nothing(client):
    match = make_match(hands=3)

    response = client.get(delete_url(match))

    html = response.content.decode()
    assert response.status_code == 200
    assert "Ali, Ayşe, Can, Deniz" in html
    assert "3 / 13 el oynandı" in html
    assert 'name="confirm"' in html
    assert (
        response["Cache-Control"].startswith("max-age=0") or "no-store" in response["Cache-Control"]
    )
    assert Match.objects.filter(pk=match.pk).exists()


def test_the_match_page_offers_deletion_on_the_edit_side_only(client):
    match = make_match()

    editor = client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()
    viewer = client.get(reverse("sharing:view_match", args=[match.view_token])).content.decode()

    assert delete_url(match) in editor
    assert "/sil/" not in viewer
    assert "Maçı sil" not in viewer


def test_deleting_without_the_deliberate_tick_deletes_nothing(client):
    match = make_match(hands=2)

    response = client.post(delete_url(match), {})

    assert response.status_code == 200
    assert "Silmek için önce bu kutuyu işaretleyin." in response.content.decode()
    assert Match.objects.filter(pk=match.pk).exists()
    assert Hand.objects.filter(match=match).count() == 2


def test_deleting_a_match_removes_it_with_its_players_hands_and_history(client):
    match = make_match(hands=3)
    match.rename_players(["Zerrin", "Ayşe", "Can", "Deniz"])
    other = make_match(hands=1)
    key = link_context(match, EDIT)["match_key"]

    response = client.post(delete_url(match), {"confirm": "on"})

    assert response.status_code == 302
    assert forget_told(client, response, "match") == [key]
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not Player.objects.filter(match_id=match.pk).exists()
    assert not Hand.objects.filter(match_id=match.pk).exists()
    assert not Change.objects.filter(match_id=match.pk).exists()
    # Nothing anywhere in the database still holds the names only this match had.
    everything = dump_everything()
    assert "Zerrin" not in everything
    assert Match.objects.filter(pk=other.pk).exists()
    assert Hand.objects.filter(match=other).count() == 1


def test_after_deletion_the_home_page_tells_this_phone_to_forget_the_match(client):
    match = make_match()
    key = link_context(match, EDIT)["match_key"]

    response = client.post(delete_url(match), {"confirm": "on"}, follow=True)

    html = response.content.decode()
    assert f'data-forget-match="{key}"' in html
    assert "Maç silindi" in html


def test_a_deleted_match_answers_every_link_with_the_ordinary_404(client):
    """To anyone who had not opened it (the scorer's phone is told: see further down)."""
    match = make_match(hands=1)
    links = every_link(match)
    unknown = client.get(f"/m/{UNKNOWN}/")
    Client().post(delete_url(match), {"confirm": "on"})

    for url in links:
        response = client.get(url)
        assert response.status_code == 404, url
        assert response.content == unknown.content, url


def test_the_view_link_cannot_delete_anything(client):
    match = make_match(hands=1)
    house = a_house_preset()

    attempts = [
        client.post(f"/v/{match.view_token}/sil/", {"confirm": "on"}),
        client.post(f"/m/{match.view_token}/sil/", {"confirm": "on"}),
        client.post(f"/ev/{house.view_token}/sil/", {"confirm": "on"}),
        client.post(f"/ev/{house.view_token}/duzenle/sil/", {"confirm": "on"}),
    ]

    assert [response.status_code for response in attempts] == [404, 404, 404, 404]
    assert Match.objects.filter(pk=match.pk).exists()
    assert Hand.objects.filter(match=match).count() == 1
    assert HousePreset.objects.filter(pk=house.pk).exists()


def test_deleting_again_with_the_same_link_says_the_match_was_deleted(client):
    match = make_match()
    client.post(delete_url(match), {"confirm": "on"})

    again = client.post(delete_url(match), {"confirm": "on"})
    stranger = Client().post(delete_url(match), {"confirm": "on"})

    assert again.status_code == 410 and "Bu maç silindi" in again.content.decode()
    assert stranger.status_code == 404


def test_a_change_to_a_match_deleted_meanwhile_is_a_404_not_an_error(client, monkeypatch):
    """Another phone deletes the match between this request's lookup and its write."""
    match = make_match()
    Match.objects.filter(pk=match.pk).update(touched_at=timezone.now() - timedelta(days=2))

    def deleted_meanwhile(self):
        Match.objects.filter(pk=self.pk).delete()

    monkeypatch.setattr(Match, "touch", deleted_meanwhile)

    response = client.post(
        reverse("matches:match_players", args=[match.edit_token]),
        {"seat_0": "A", "seat_1": "B", "seat_2": "C", "seat_3": "D"},
    )

    assert response.status_code == 404


def test_a_rematch_survives_the_deletion_of_the_match_it_followed(client):
    first = make_match()
    second = Match.start(
        ["Ali", "Ayşe"],
        teams=False,
        planned_hands=5,
        rules=scoring.resolve_rules("cetele-standart"),
        rematch_of=first,
    )

    client.post(delete_url(first), {"confirm": "on"})

    second.refresh_from_db()
    assert second.rematch_of is None
    assert client.get(reverse("matches:match_detail", args=[second.edit_token])).status_code == 200


# --- A house preset ------------------------------------------------------------------------


def test_a_house_preset_is_deleted_through_its_edit_link_and_its_matches_keep_their_rules(client):
    house = a_house_preset("Zerrin'in masası")
    match = make_match()
    Match.objects.filter(pk=match.pk).update(preset_slug=house.choice_value)
    edit_page = client.get(
        reverse("house_rules:house_edit", args=[house.edit_token])
    ).content.decode()
    assert reverse("your_data:house_delete", args=[house.edit_token]) in edit_page

    confirm = client.get(reverse("your_data:house_delete", args=[house.edit_token]))
    assert "Zerrin&#x27;in masası" in confirm.content.decode()
    assert "1 maç" in confirm.content.decode()
    response = client.post(
        reverse("your_data:house_delete", args=[house.edit_token]), {"confirm": "on"}
    )

    assert response.status_code == 302
    assert response["Location"].startswith("/kurallar/?")
    assert forget_told(client, response, "preset") == [f"house:{house.view_token}"]
    assert not HousePreset.objects.filter(pk=house.pk).exists()
    assert (
        client.get(reverse("house_rules:house_detail", args=[house.view_token])).status_code == 404
    )
    assert client.get(reverse("house_rules:house_edit", args=[house.edit_token])).status_code == 404
    assert client.get(reverse("matches:match_detail", args=[match.edit_token])).status_code == 200
    assert client.get(reverse("matches:match_rules", args=[match.edit_token])).status_code == 200
    assert "Zerrin" not in dump_everything()


def test_a_house_preset_needs_the_tick_too(client):
    house = a_house_preset()

    response = client.post(
        reverse("your_data:house_delete", args=[house.edit_token]), {"confirm": ""}
    )

    assert response.status_code == 200
    assert HousePreset.objects.filter(pk=house.pk).exists()


def test_the_rules_page_tells_this_phone_to_forget_a_deleted_preset(client):
    house = a_house_preset()

    response = client.post(
        reverse("your_data:house_delete", args=[house.edit_token]), {"confirm": "on"}, follow=True
    )

    assert f'data-forget-preset="house:{house.view_token}"' in response.content.decode()


# --- A table -------------------------------------------------------------------------------


def a_table_with_matches(count: int = 2) -> tuple[Table, list[Match]]:
    table = Table.objects.create(name="Perşembe masası")
    TablePlayer.objects.bulk_create(
        TablePlayer(table=table, place=place, name=name)
        for place, name in enumerate(["Zerrin", "Ayşe", "Can", "Deniz"])
    )
    matches = []
    for _ in range(count):
        match = make_match(hands=1)
        Match.objects.filter(pk=match.pk).update(table=table)
        matches.append(match)
    return table, matches


@pytest.mark.parametrize("with_matches", [False, True])
def test_deleting_a_table_keeps_or_deletes_its_matches(with_matches):
    table, matches = a_table_with_matches()
    elsewhere = make_match()

    deleted = delete_table(table, with_matches=with_matches)

    assert not Table.objects.filter(pk=table.pk).exists()
    assert not TablePlayer.objects.filter(table_id=table.pk).exists()
    left = Match.objects.filter(pk__in=[m.pk for m in matches])
    if with_matches:
        assert deleted == 2
        assert not left.exists()
    else:
        assert deleted == 0
        assert left.count() == 2
        assert set(left.values_list("table", flat=True)) == {None}
    assert Match.objects.filter(pk=elsewhere.pk).exists()


def test_the_table_page_asks_what_becomes_of_its_matches(client):
    table, _matches = a_table_with_matches()
    url = reverse("your_data:table_delete", args=[table.edit_token])

    page = client.get(url).content.decode()
    only_ticked = client.post(url, {"confirm": "on"})

    assert "Perşembe masası" in page
    assert 'name="matches"' in page
    assert "Maçlara ne olacağını seçin." in only_ticked.content.decode()
    assert Table.objects.filter(pk=table.pk).exists()


@pytest.mark.parametrize(("choice", "left"), [("keep", 2), ("delete", 0)])
def test_a_table_is_deleted_through_its_edit_link(client, choice, left):
    table, matches = a_table_with_matches()

    response = client.post(
        reverse("your_data:table_delete", args=[table.edit_token]),
        {"confirm": "on", "matches": choice},
    )

    assert response.status_code == 302
    assert not Table.objects.filter(pk=table.pk).exists()
    assert Match.objects.filter(pk__in=[m.pk for m in matches]).count() == left
    assert client.get(reverse("your_data:table_delete", args=[table.edit_token])).status_code == 404
    assert client.get(reverse("tables:table_detail", args=[table.edit_token])).status_code == 404
    assert client.get(reverse("tables:view_table", args=[table.view_token])).status_code == 404
    # This phone's "Maçlarım" drops the table, and the matches that went with it.
    gone = [m.phone_key for m in matches] if choice == "delete" else []
    assert forget_told(client, response, "match") == [table.phone_key, *gone]


def test_the_table_page_offers_deletion_to_its_edit_link_only(client):
    table, _matches = a_table_with_matches()

    editor = client.get(reverse("tables:table_detail", args=[table.edit_token])).content.decode()
    viewer = client.get(reverse("tables:view_table", args=[table.view_token])).content.decode()

    assert reverse("your_data:table_delete", args=[table.edit_token]) in editor
    assert "/sil/" not in viewer


def test_a_table_view_link_cannot_delete_it(client):
    table, _matches = a_table_with_matches()

    response = client.post(
        reverse("your_data:table_delete", args=[table.view_token]),
        {"confirm": "on", "matches": "delete"},
    )

    assert response.status_code == 404
    assert Table.objects.filter(pk=table.pk).exists()
    assert Match.objects.filter(table=table).count() == 2


# --- Touched: what `forget_unused` looks at --------------------------------------------------


def days_ago(days: int):
    return timezone.now() - timedelta(days=days)


def test_opening_a_match_records_the_visit_at_most_once_a_day(client):
    match = make_match()
    Match.objects.filter(pk=match.pk).update(touched_at=days_ago(30))
    url = reverse("sharing:view_match", args=[match.view_token])

    client.get(url)
    first = Match.objects.get(pk=match.pk).touched_at
    with CaptureQueriesContext(connection) as queries:
        client.get(url)

    assert first > days_ago(1)
    assert not any("UPDATE" in query["sql"] for query in queries.captured_queries)
    assert Match.objects.get(pk=match.pk).touched_at == first


def test_a_change_to_the_sheet_touches_the_match():
    match = make_match()
    Match.objects.filter(pk=match.pk).update(touched_at=days_ago(400))

    match.rename_players(["A", "B", "C", "D"])

    assert Match.objects.get(pk=match.pk).touched_at > days_ago(1)


def test_a_poll_does_not_count_as_a_visit(client):
    match = make_match()
    Match.objects.filter(pk=match.pk).update(touched_at=days_ago(30))

    client.get(reverse("sharing:view_poll", args=[match.view_token]) + "?v=0")

    assert Match.objects.get(pk=match.pk).touched_at < days_ago(29)


def test_starting_a_match_from_a_house_preset_or_at_a_table_touches_them():
    house = a_house_preset()
    table, _matches = a_table_with_matches(0)
    HousePreset.objects.filter(pk=house.pk).update(touched_at=days_ago(400))
    Table.objects.filter(pk=table.pk).update(touched_at=days_ago(400))
    table.refresh_from_db()

    Match.start(
        ["A", "B"],
        teams=False,
        planned_hands=5,
        rules=house.rules,
        preset_slug=house.choice_value,
        table=table,
        places=[0, 1],
    )

    assert HousePreset.objects.get(pk=house.pk).touched_at > days_ago(1)
    assert Table.objects.get(pk=table.pk).touched_at > days_ago(1)


def test_opening_a_house_preset_touches_it(client):
    house = a_house_preset()
    HousePreset.objects.filter(pk=house.pk).update(touched_at=days_ago(400))

    client.get(reverse("house_rules:house_detail", args=[house.view_token]))

    assert HousePreset.objects.get(pk=house.pk).touched_at > days_ago(1)


def test_deleting_a_match_takes_as_many_queries_at_200_hands_as_at_1(client):
    def queries_to_delete(hands: int) -> int:
        match = make_match(players=2, planned_hands=200, hands=hands)
        with CaptureQueriesContext(connection) as queries:
            response = client.post(delete_url(match), {"confirm": "on"})
        assert response.status_code == 302
        return len(queries)

    assert queries_to_delete(1) == queries_to_delete(200)


# --- A phone that had the match open ----------------------------------------------------------


def test_a_phone_that_had_the_match_open_is_told_it_was_deleted(client):
    """Its poll gets 286 (htmx stops) with nothing to swap and the event app.js answers with
    "Bu maç silindi"; its other requests a 410 page saying so. It knew the match: this tells it
    nothing it did not know. (Before: the ordinary 404, whose page htmx does not swap, and a
    note that the link "may have been renewed".)"""
    match = make_match(hands=1)
    viewer, scorer = Client(), Client()
    viewer.get(f"/v/{match.view_token}/")
    scorer.get(f"/m/{match.edit_token}/")
    scorer.post(delete_url(match), {"confirm": "on"})

    poll = viewer.get(f"/v/{match.view_token}/poll/?v=1", headers={"HX-Request": "true"})
    page = viewer.get(f"/v/{match.view_token}/")
    save = scorer.post(f"/m/{match.edit_token}/el/", {}, headers={"HX-Request": "true"})

    assert poll.status_code == 286 and poll.content == b""
    assert poll["HX-Reswap"] == "none"
    assert list(json.loads(poll["HX-Trigger"])) == ["cetele:match-deleted"]
    for response in (page, save):
        assert response.status_code == 410
        assert list(json.loads(response["HX-Trigger"])) == ["cetele:match-deleted"]
        assert "Bu maç silindi" in response.content.decode()
        assert "Ali" not in response.content.decode()
    assert "no-store" in poll["Cache-Control"] and "no-store" in page["Cache-Control"]


def test_anyone_else_gets_the_ordinary_404_for_a_deleted_match(client):
    match = make_match(hands=1)
    seen = Client()
    seen.get(f"/v/{match.view_token}/")
    client.post(delete_url(match), {"confirm": "on"})
    stranger = Client()
    unknown = stranger.get(f"/v/{UNKNOWN}/")

    poll = stranger.get(f"/v/{match.view_token}/poll/?v=1", headers={"HX-Request": "true"})
    other_link = seen.get(f"/m/{match.edit_token}/")  # it had only the view link open

    for response in (poll, other_link):
        assert response.status_code == 404
        assert response.content == unknown.content
