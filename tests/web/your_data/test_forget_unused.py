"""`manage.py forget_unused`: what nobody has used for --days days goes, the rest stays; it
prints what went without a name; it is safe to run again; on SQLite the file shrinks."""

import io
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

import scoring
from cetele.models import (
    Change,
    Hand,
    HousePreset,
    Match,
    MissCount,
    Player,
    Table,
    TablePlayer,
)
from cetele.shell.wrong_passwords import current_window
from cetele.your_data import deletion
from cetele.your_data.deletion import database_bytes
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def aged(obj, days: float):
    """Pretend `obj` was last used `days` ago."""
    type(obj).objects.filter(pk=obj.pk).update(touched_at=timezone.now() - timedelta(days=days))
    return obj


def forget(*args: str) -> str:
    out = io.StringIO()
    call_command("forget_unused", *args, stdout=out)
    return out.getvalue()


def a_house_preset(name: str) -> HousePreset:
    return HousePreset.objects.create(
        name=name, rules=scoring.resolve_rules("cetele-standart"), base_slug="cetele-standart"
    )


def a_table(name: str, *matches: Match) -> Table:
    table = Table.objects.create(name=name)
    TablePlayer.objects.create(table=table, place=0, name=name + " oyuncusu")
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(table=table)
    return table


def exists(obj) -> bool:
    return type(obj).objects.filter(pk=obj.pk).exists()


def test_matches_on_both_sides_of_the_threshold():
    old = aged(make_match(hands=3), 366)
    recent = aged(make_match(hands=2), 364)
    today = make_match(hands=1)

    output = forget("--days", "365", "--no-vacuum")

    assert not exists(old)
    assert not Hand.objects.filter(match_id=old.pk).exists()
    assert not Player.objects.filter(match_id=old.pk).exists()
    assert not Change.objects.filter(match_id=old.pk).exists()
    assert exists(recent) and exists(today)
    assert Hand.objects.filter(match=recent).count() == 2
    assert f"removed match #{old.pk}: 3/13 hands" in output
    assert "removed 1 matches (3 hands), 0 tables, 0 house presets" in output


def test_the_default_is_one_year():
    old = aged(make_match(), 366)
    kept = aged(make_match(), 300)

    forget("--no-vacuum")

    assert not exists(old)
    assert exists(kept)


def test_a_shorter_time_can_be_chosen():
    month_old = aged(make_match(), 31)
    week_old = aged(make_match(), 7)

    forget("--days", "30", "--no-vacuum")

    assert not exists(month_old)
    assert exists(week_old)


def test_house_presets_on_both_sides_of_the_threshold_and_their_matches_keep_their_rules():
    old = aged(a_house_preset("Eski kural"), 400)
    recent = aged(a_house_preset("Yeni kural"), 10)
    match = make_match()
    Match.objects.filter(pk=match.pk).update(preset_slug=old.choice_value)

    output = forget("--no-vacuum")

    assert not exists(old)
    assert exists(recent)
    assert exists(match)
    assert Match.objects.get(pk=match.pk).rules == scoring.resolve_rules("cetele-standart")
    assert f"removed house preset #{old.pk}" in output


def test_a_table_goes_when_it_and_all_its_matches_are_untouched():
    old_match = aged(make_match(), 400)
    old_table = aged(a_table("Eski masa", old_match), 400)
    played_lately = make_match()
    quiet_table = aged(a_table("Sessiz masa", played_lately), 400)
    new_table = a_table("Yeni masa")

    output = forget("--no-vacuum")

    assert not exists(old_table) and not exists(old_match)
    assert not TablePlayer.objects.filter(table_id=old_table.pk).exists()
    # Its own page unopened for a year, but its matches are in use: it stays.
    assert exists(quiet_table) and exists(played_lately)
    assert exists(new_table)
    assert "1 tables" in output


def test_what_it_prints_names_nobody():
    aged(make_match(), 400)  # players Ali, Ayşe, Can, Deniz
    aged(a_house_preset("Zerrin'in kuralı"), 400)
    aged(a_table("Zerrin'in masası"), 400)

    output = forget("--no-vacuum")

    for name in ("Ali", "Ayşe", "Can", "Deniz", "Zerrin"):
        assert name not in output
    assert "removed 1 matches (0 hands), 1 tables, 1 house presets" in output


def test_a_dry_run_lists_and_deletes_nothing():
    old = aged(make_match(hands=1), 400)
    table = aged(a_table("Eski masa", old), 400)

    output = forget("--dry-run")

    assert exists(old) and exists(table)
    assert f"would remove match #{old.pk}" in output
    assert f"would remove table #{table.pk}" in output


def test_running_it_again_removes_nothing_more():
    aged(make_match(), 400)
    kept = make_match()
    forget("--no-vacuum")

    output = forget("--no-vacuum")

    assert "removed 0 matches (0 hands), 0 tables, 0 house presets" in output
    assert exists(kept)


def test_more_than_one_batch(monkeypatch):
    olds = [aged(make_match(players=2), 400) for _ in range(3)]
    kept = make_match(players=2)
    monkeypatch.setattr(deletion, "BATCH", 2)

    output = forget("--no-vacuum")

    assert not Match.objects.filter(pk__in=[m.pk for m in olds]).exists()
    assert exists(kept)
    assert "removed 3 matches" in output


@pytest.mark.parametrize("days", ["0", "-5"])
def test_a_time_below_one_day_is_refused(days):
    match = aged(make_match(), 400)

    with pytest.raises(CommandError, match="at least 1"):
        forget("--days", days)

    assert exists(match)


@pytest.mark.django_db(transaction=True)
def test_on_sqlite_the_space_is_given_back():
    """VACUUM cannot run inside a transaction, hence a transactional test."""
    olds = [aged(make_match(hands=13), 400) for _ in range(40)]
    kept = make_match(hands=1)
    before = database_bytes() if connection.vendor == "sqlite" else None

    first = forget("--no-vacuum")
    unchanged = database_bytes() if connection.vendor == "sqlite" else None
    second = forget()  # nothing left to delete, but the free pages are given back
    third = forget()  # and once they are, there is nothing to do

    assert not Match.objects.filter(pk__in=[m.pk for m in olds]).exists()
    assert exists(kept)
    assert "removed 40 matches" in first and "removed 0 matches" in second
    if connection.vendor == "sqlite":
        assert unchanged == before
        assert "SQLite database:" in second
        assert database_bytes() < before
        assert "SQLite" not in third
    else:  # PostgreSQL's autovacuum reuses the space: nothing to do, nothing printed
        assert "SQLite" not in first + second + third


def test_link_guessing_counts_of_past_windows_leave_the_database():
    """They are keyed by client address: a row would otherwise stay until that address missed
    again."""
    window, _left = current_window()
    MissCount.objects.create(counter="links:203.0.113.7", window=window - 1, count=20)
    MissCount.objects.create(counter="links:203.0.113.8", window=window, count=3)

    output = forget("--no-vacuum")

    assert list(MissCount.objects.values_list("counter", "count")) == [("links:203.0.113.8", 3)]
    assert "removed 1 expired link-guessing counts." in output


def test_a_dry_run_leaves_the_cache_alone(monkeypatch):
    calls = []
    monkeypatch.setattr(
        "cetele.management.commands.forget_unused.forget_expired_miss_counts",
        lambda: calls.append(1) or 0,
    )

    forget("--dry-run")

    assert calls == []
