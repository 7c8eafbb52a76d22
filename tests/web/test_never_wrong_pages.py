"""Issue 27, item 14, through Django's test client: a correction's own note with its "Geri al",
team columns in a team match's history, and a link rotated only after a confirmation."""

import re

import pytest
from django.urls import reverse

from cetele.models import Change, Match
from tests.factories import add_hand, form_data, make_match, sample_inputs

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def url(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.edit_token, *args])


def saved_note(html: str) -> str:
    found = re.search(
        r'<div id="saved-note".*?</form>|<div id="saved-note"[^>]*>\s*</div>', html, re.S
    )
    return found.group(0) if found else ""


# --- A correction's note ----------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_saved_correction_sends_the_phone_to_the_sheet_with_its_own_geri_al(client, headers):
    match = make_match()
    add_hand(match, sample_inputs(remaining=20))
    hand = add_hand(match, sample_inputs(remaining=20))
    before = hand.inputs

    response = client.post(
        url("hand_edit", match, hand.number),
        form_data(sample_inputs(remaining=35), version=hand.version),
        headers=headers,
    )

    change = match.changes.get(action=Change.Action.EDIT)
    target = response["HX-Redirect"] if headers else response["Location"]
    assert target == f"{url('match_detail', match)}?duzeltildi={change.pk}"
    page = client.get(target).content.decode()
    note = saved_note(page)
    assert "2. el düzeltildi." in note
    assert f'name="change" value="{change.pk}"' in note and "Geri al" in note
    assert "messages" not in page.split('id="saved-note"')[0].split("<main")[1]  # said once

    client.post(url("match_undo", match), {"change": str(change.pk)})
    hand.refresh_from_db()
    assert hand.inputs == before


def test_the_correction_note_shows_only_while_it_is_the_latest_change(client):
    match = make_match()
    hand = add_hand(match, sample_inputs(remaining=20))
    response = client.post(
        url("hand_edit", match, hand.number),
        form_data(sample_inputs(remaining=35), version=hand.version),
    )
    corrected = response["Location"]
    edit = match.changes.get(action=Change.Action.EDIT)
    creation = match.changes.get(action=Change.Action.CREATE)

    add_hand(match, sample_inputs(remaining=5))  # a later change: the note would be stale
    assert "düzeltildi" not in saved_note(client.get(corrected).content.decode())
    for value in (str(creation.pk), "abc", "-1", str(edit.pk) + "0", ""):
        response = client.get(f"{url('match_detail', match)}?duzeltildi={value}")
        assert response.status_code == 200
        assert "Geri al" not in saved_note(response.content.decode())
