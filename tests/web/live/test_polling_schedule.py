"""Polling less where nobody would notice: the schedule (cetele/live/schedule.py) and what the
sheet tells app.js about it. The browser side (app.js letting htmx's ticks through on this
schedule) is tests/browser/live/test_live_view.py."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from cetele.live.schedule import (
    POLL_SCHEDULE,
    poll_every,
    quiet_seconds,
    rows_every,
    schedule_attribute,
)
from cetele.models import Match
from tests.factories import add_hand, make_match, sample_inputs

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    ("quiet", "every"),
    [(0, 16), (119, 16), (120, 8), (899, 8), (900, 32), (3599, 32), (3600, 120), (10**7, 120)],
)
def test_the_schedule_asks_every_8_s_while_a_table_plays_and_less_otherwise(quiet, every):
    assert poll_every(quiet) == every


def test_a_viewer_of_a_playing_table_sees_a_save_within_5_s_on_the_median():
    """A save comes minutes after the last one; it shows at the next poll, on average half an
    interval later (the load test measures it: bench/loadtest/)."""
    assert poll_every(300) / 2 <= 5


def test_every_interval_is_a_whole_number_of_htmx_ticks():
    """htmx ticks every 4 s (match.html#sheet) and app.js lets a tick through when a poll is due:
    an interval between ticks would wait for the next one."""
    assert all(every % 4 == 0 for _, every in POLL_SCHEDULE)
    assert POLL_SCHEDULE[-1][0] is None


def test_the_schedule_as_the_sheet_gives_it_to_app_js():
    assert schedule_attribute() == "120:16,900:8,3600:32,0:120"


def test_quiet_is_whole_seconds_since_the_last_change_never_negative():
    now = timezone.now()
    assert quiet_seconds(now - timedelta(seconds=90, milliseconds=700), now) == 90
    assert quiet_seconds(now + timedelta(seconds=5), now) == 0  # another server's clock


@pytest.mark.parametrize("route", ["matches:match_detail", "sharing:view_match"])
def test_the_sheet_says_how_long_the_match_has_been_quiet(client, route):
    match = make_match(hands=1)
    Match.objects.filter(pk=match.pk).update(touched_at=timezone.now() - timedelta(hours=2))
    token = match.edit_token if route == "matches:match_detail" else match.view_token

    html = client.get(reverse(route, args=[token])).content.decode()

    quiet = int(re.search(r'data-quiet="(\d+)"', html)[1])
    assert 7200 <= quiet <= 7205
    assert 'data-poll-schedule="120:16,900:8,3600:32,0:120"' in html


def test_the_sheet_a_poll_brings_after_a_save_says_the_match_just_changed(client):
    match = make_match(hands=1)
    Match.objects.filter(pk=match.pk).update(touched_at=timezone.now() - timedelta(hours=2))
    match.refresh_from_db()
    shown = match.version
    add_hand(match, sample_inputs(finisher=2, remaining=33))

    response = client.get(reverse("sharing:view_poll", args=[match.view_token]) + f"?v={shown}")

    assert response.status_code == 200
    assert int(re.search(r'data-quiet="(\d+)"', response.content.decode())[1]) <= 5


def test_the_sheet_asked_for_after_a_save_has_just_changed(client):
    match = make_match(hands=0)
    Match.objects.filter(pk=match.pk).update(touched_at=timezone.now() - timedelta(hours=2))
    from bench.harness import hand_form_data

    form = hand_form_data(sample_inputs(finisher=1, remaining=20))
    shown = match.version
    client.post(reverse("matches:hand_create", args=[match.edit_token]), form, headers=HTMX)

    # The page asks for the sheet once saved (static/cetele/app.js): it has just changed.
    poll = reverse("sharing:match_poll", args=[match.edit_token]) + f"?v={shown}"
    html = client.get(poll, headers=HTMX).content.decode()
    assert int(re.search(r'data-quiet="(\d+)"', html)[1]) <= 5


@pytest.mark.parametrize(("speedup", "every"), [(1, 4), (4, 1), (16, 1)])
def test_the_rows_pace_only_gets_sooner_with_the_tests_speedup(settings, speedup, every):
    """CETELE_ROWS_POLL_SPEEDUP (1 in production, 8 in tests/settings.py) divides the rows'
    interval, never below a second: the browser tests follow the same pace, sooner. Every page
    of the table that asks for rows asks every 4 s, the scorer's before any phone has joined
    too (tests/web/seats/test_joining_the_table.py, tests/browser/live/test_live_view.py)."""
    settings.CETELE_ROWS_POLL_SPEEDUP = speedup

    assert rows_every() == every
