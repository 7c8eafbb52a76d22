"""Issue 27, item 14, through Django's test client: a correction's own note with its "Geri al",
team columns in a team match's history, and a link rotated only after a confirmation."""

import re

import pytest
from django.urls import reverse

import scoring
from cetele.models import Change, HousePreset, Match, Table
from cetele.tables.season import create_table
from scoring.sentences import signed
from tests.factories import add_hand, form_data, make_match, sample_inputs

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def url(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.edit_token, *args])


def correction_note(html: str) -> str:
    """The note a saved correction's sheet opens with, above the sheet."""
    found = re.search(r'<div id="correction-note".*?</form>', html, re.S)
    return found.group(0) if found else ""


# --- A correction's note ----------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_saved_correction_sends_the_phone_to_the_sheet_with_its_own_geri_al(client, headers):
    match = make_match()
    add_hand(match, sample_inputs(remaining=20))
    hand = add_hand(match, sample_inputs(remaining=20))
    before = hand.inputs

    response = client.post(
        url("matches:hand_edit", match, hand.number),
        form_data(sample_inputs(remaining=35), version=hand.version),
        headers=headers,
    )

    change = match.changes.get(action=Change.Action.EDIT)
    target = response["HX-Redirect"] if headers else response["Location"]
    assert target == f"{url('matches:match_detail', match)}?duzeltildi={change.pk}"
    page = client.get(target).content.decode()
    note = correction_note(page)
    assert "2. el düzeltildi." in note
    assert f'name="change" value="{change.pk}"' in note and "Geri al" in note
    assert page.count("2. el düzeltildi.") == 1  # said once, where the page opens:
    assert page.index('id="correction-note"') < page.index('id="sheet"')  # above the sheet
    assert f'data-just-saved="{hand.number}"' in note  # whose row app.js marks

    client.post(url("matches:match_undo", match), {"change": str(change.pk)})
    hand.refresh_from_db()
    assert hand.inputs == before


def test_the_correction_note_shows_only_while_it_is_the_latest_change(client):
    match = make_match()
    hand = add_hand(match, sample_inputs(remaining=20))
    response = client.post(
        url("matches:hand_edit", match, hand.number),
        form_data(sample_inputs(remaining=35), version=hand.version),
    )
    corrected = response["Location"]
    edit = match.changes.get(action=Change.Action.EDIT)
    creation = match.changes.get(action=Change.Action.CREATE)

    add_hand(match, sample_inputs(remaining=5))  # a later change: the note would be stale
    assert "düzeltildi" not in client.get(corrected).content.decode()
    for value in (str(creation.pk), "abc", "-1", str(edit.pk) + "0", ""):
        response = client.get(f"{url('matches:match_detail', match)}?duzeltildi={value}")
        assert response.status_code == 200
        assert 'id="correction-note"' not in response.content.decode()


# --- The history of a team match ----------------------------------------------------------------


def history_rows(html: str) -> list[list[str]]:
    """Each history table's rows, as the texts of their cells."""
    return [
        re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)
    ]


def test_a_team_matchs_history_shows_the_teams_before_and_after(client):
    match = make_match(teams=True)
    hand = add_hand(match, sample_inputs(remaining=20))
    client.post(
        url("matches:hand_edit", match, hand.number),
        form_data(sample_inputs(remaining=35), version=hand.version),
    )
    change = match.changes.get(action=Change.Action.EDIT)
    before, after = change.before["result"], change.after["result"]

    rows = history_rows(client.get(url("matches:match_history", match)).content.decode())

    assert rows[0][-2:] == ["Ali & Can", "Ayşe & Deniz"]  # the correction, latest first
    assert rows[1] == ["Önce", *map(signed, before["scores"]), *map(signed, before["team_scores"])]
    assert rows[2] == ["Sonra", *map(signed, after["scores"]), *map(signed, after["team_scores"])]
    assert before["team_scores"] != after["team_scores"]


def test_a_team_result_stored_without_team_scores_is_added_up_by_scoring(client):
    match = make_match(teams=True)
    add_hand(match, sample_inputs(remaining=20))
    change = match.changes.get()
    del change.after["result"]["team_scores"]  # as an older result was stored
    change.save()
    scores = change.after["result"]["scores"]

    rows = history_rows(client.get(url("matches:match_history", match)).content.decode())

    teams = [scores[0] + scores[2], scores[1] + scores[3]]
    assert rows[1] == ["Sonra", *map(signed, scores), *map(signed, teams)]


def test_a_singles_history_has_no_team_columns(client):
    match = make_match()
    add_hand(match, sample_inputs(remaining=20))

    rows = history_rows(client.get(url("matches:match_history", match)).content.decode())

    assert len(rows[0]) == 5 and len(rows[1]) == 5  # the label and four players


# --- Rotating a link asks first ------------------------------------------------------------------

CONFIRM = "Evet, eski bağlantı çalışmasın"
REFUSED = "Yenilemek için önce bu kutuyu işaretleyin."


def rotation(kind_of_object: str):
    """(the rotate URL, the page its form is on, the object's tokens now) for a match, a table
    or a house preset."""
    if kind_of_object == "match":
        match = make_match()
        return (
            url("sharing:match_rotate", match),
            url("sharing:match_share", match),
            lambda: Match.objects.values_list("edit_token", "view_token").get(),
        )
    if kind_of_object == "table":
        table = create_table("Köşe masası", ["Ali", "Ayşe", "Can", "Deniz"])
        return (
            reverse("tables:table_rotate", args=[table.edit_token]),
            reverse("tables:table_detail", args=[table.edit_token]),
            lambda: Table.objects.values_list("edit_token", "view_token").get(),
        )
    house = HousePreset.objects.create(
        name="Bizim masa",
        rules=scoring.resolve_rules("cetele-standart") | {"name": "Bizim masa"},
        base_slug="cetele-standart",
    )
    return (
        reverse("house_rules:house_rotate", args=[house.edit_token]),
        reverse("house_rules:house_edit", args=[house.edit_token]),
        lambda: HousePreset.objects.values_list("edit_token", "view_token").get(),
    )


KINDS = ["match", "table", "house"]


@pytest.mark.parametrize("thing", KINDS)
def test_the_rotation_form_asks_for_a_tick(client, thing):
    rotate, page, _ = rotation(thing)

    html = client.get(page).content.decode()

    form = html[html.index(f'action="{rotate}"') :]
    form = form[: form.index("</form>")]
    assert CONFIRM in form and 'type="checkbox" name="confirm"' in form
    assert 'name="kind" value="view"' in form and 'name="kind" value="edit"' in form


@pytest.mark.parametrize("kind", ["view", "edit"])
@pytest.mark.parametrize("thing", KINDS)
def test_a_rotation_without_the_tick_changes_nothing_and_shows_the_form_again(client, thing, kind):
    rotate, _, tokens = rotation(thing)
    before = tokens()

    response = client.post(rotate, {"kind": kind})

    assert tokens() == before  # both links still open
    assert response.status_code == 200
    html = response.content.decode()
    assert REFUSED in html and CONFIRM in html and f'action="{rotate}"' in html


@pytest.mark.parametrize("kind", ["view", "edit"])
@pytest.mark.parametrize("thing", KINDS)
def test_a_rotation_with_the_tick_gives_the_link_a_new_token(client, thing, kind):
    rotate, _, tokens = rotation(thing)
    before = dict(zip(["edit", "view"], tokens(), strict=True))

    response = client.post(rotate, {"kind": kind, "confirm": "on"})

    after = dict(zip(["edit", "view"], tokens(), strict=True))
    assert response.status_code == 302
    assert after[kind] != before[kind]
    other = "view" if kind == "edit" else "edit"
    assert after[other] == before[other]
