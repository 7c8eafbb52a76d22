"""Generated garbage posted to every form endpoint: never a 500, never a half-saved hand."""

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cetele.models import Change, Hand, Match, Player
from tests.factories import make_match

pytestmark = pytest.mark.django_db

FIELD_NAMES = [
    "finisher", "okey_finish", "kafa", "okey_number", "request_token", "version", "action",
    "p0-opened", "p0-remaining", "p0-okeys", "p0-fake_okeys", "p0-penalty_count",
    "p1-opened", "p1-remaining", "p1-okeys", "p1-fake_okeys", "p1-penalty_count",
    "p1-pen0-kind", "p1-pen0-tile", "p1-pen0-by", "p1-pen0-points", "p1-pen0-taken",
    "p2-opening", "p3-cifte_devam", "name_1", "name_2", "name_3", "name_4", "teams",
    "preset", "cezali", "planned_hands", "seat_0", "seat_1",
]  # fmt: skip
VALUES = st.one_of(
    st.text(max_size=30),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.sampled_from(["", "on", "none", "series", "pairs", "no", "save", "preview",
                     "add-penalty-1", "remove-penalty-1-0", "add-penalty-99", "custom",
                     "islek_discard", "okey_taken", "1e9", "NaN", "\x00", "0" * 400]),
)  # fmt: skip
FORM_DATA = st.dictionaries(st.sampled_from(FIELD_NAMES), VALUES, max_size=len(FIELD_NAMES))
HEADERS = st.sampled_from(
    [{}, {"HX-Request": "true"}, {"HX-Request": "true", "HX-Target": "hand-preview"}]
)

ENDPOINTS = [
    ("hand_create", False),
    ("hand_edit", True),
    ("hand_delete", True),
    ("match_players", False),
    ("match_undo", False),
]


def snapshot() -> tuple:
    return (
        Match.objects.count(),
        sorted(Hand.objects.values_list("match_id", "number", "version")),
        Change.objects.count(),
        sorted(Player.objects.values_list("name", flat=True)),
    )


@pytest.mark.parametrize(("name", "takes_hand"), ENDPOINTS)
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=FORM_DATA, headers=HEADERS)
def test_garbage_posted_to_a_match_form_never_breaks_anything(
    client, name, takes_hand, data, headers
):
    match = Match.objects.first() or make_match(hands=1)
    args = [match.edit_token, 1] if takes_hand else [match.edit_token]
    before = snapshot()

    response = client.post(reverse(name, args=args), data, headers=headers)

    assert response.status_code < 500
    re_rendered_form = name in {"hand_create", "hand_edit"} and response.status_code == 200
    if re_rendered_form and data.get("action") != "save":
        # Only "save" may store anything; every other button re-renders the form.
        assert snapshot() == before
    if name == "match_players" and response.status_code == 200:
        assert snapshot() == before
    # Whatever was stored is a whole hand that the engine scores exactly as recorded.
    for hand in Hand.objects.select_related("match"):
        assert hand.match.score(hand.inputs) == hand.result


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=FORM_DATA)
def test_garbage_posted_to_new_match_never_breaks_anything(client, data):
    before = Match.objects.count()

    response = client.post(reverse("match_create"), data)

    assert response.status_code in {200, 302}
    if response.status_code == 200:
        assert Match.objects.count() == before
