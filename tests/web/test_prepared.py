"""cetele.prepared: a queryset compiled once per connection gives, for any values, the rows
the queryset itself gives, and insert_row writes the row create() writes (on SQLite and on
PostgreSQL: the test run has a leg for each)."""

import datetime

import pytest
from django.forms.models import model_to_dict
from django.utils import timezone

from cetele.models import Change, Hand
from cetele.prepared import insert_row, prepared
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def test_a_prepared_query_gives_the_querysets_rows_for_each_value_it_is_run_with():
    built = []

    def played(match_id, least):
        built.append((match_id, least))
        return Hand.objects.filter(match_id=match_id, number__gte=least).values_list(
            "number", "result__scores", "inputs__finisher", "result__finish"
        )

    query = prepared(played)
    matches = [make_match(hands=5), make_match(hands=3), make_match()]
    for match in matches:
        for least in (1, 3):
            expected = list(played(match.pk, least))
            assert query(match.pk, least) == expected
    assert len(matches[0].sheet_hands()) == 5
    assert all(isinstance(scores, list) for _, scores, _, _ in query(matches[0].pk, 1))
    # Built once for the model, once for the connection, and once per expected result above.
    assert len(built) == 2 + len(matches) * 2


def test_a_query_that_does_not_carry_its_value_as_a_parameter_is_refused():
    limited = prepared(lambda limit: Hand.objects.values_list("number")[:limit])  # in the SQL
    by_token = prepared(lambda token: Hand.objects.filter(match__edit_token=token))  # a string

    for query in (limited, by_token):
        with pytest.raises(ValueError, match="does not carry each value"):
            query(3)


def test_the_sheet_reads_its_hands_through_one_prepared_query(django_assert_num_queries):
    match = make_match(hands=4)
    expected = list(match.hands.values_list("number", *Hand.PLAYED))

    with django_assert_num_queries(1):
        assert match.sheet_hands() == expected


@pytest.mark.parametrize(
    "model, values",
    [
        (Hand, {"number": 7, "inputs": {"finisher": 1, "players": []}, "result": {"scores": [1]}}),
        (Change, {"action": "create", "hand_number": 7, "after": {"a": [1, "ş"]}}),
        (Change, {"action": "rename", "before": {"names": ["Can"]}, "after": None}),
    ],
)
def test_an_inserted_row_is_the_one_create_writes(model, values):
    match = make_match()
    made = model.objects.create(match_id=match.pk, **values)
    made_fields = model_to_dict(model.objects.get(pk=made.pk), exclude=["id", "number", "undoes"])
    if model is Hand:
        values = values | {"number": 8}

    key = insert_row(model, match_id=match.pk, **values)

    written = model.objects.get(pk=key)
    assert key != made.pk
    assert model_to_dict(written, exclude=["id", "number", "undoes"]) == made_fields
    for stamp in ("created_at", "updated_at", "at"):  # auto_now(_add): now, as create() does
        if hasattr(written, stamp):
            assert abs(getattr(written, stamp) - getattr(made, stamp)).total_seconds() < 5


@pytest.mark.parametrize("model", [Hand, Change])
def test_an_inserted_row_given_a_moment_is_dated_at_it_in_every_date_column(model):
    match = make_match()
    moment = timezone.now() - datetime.timedelta(days=3, microseconds=123457)
    values = {"number": 1, "inputs": {}, "result": {}} if model is Hand else {"action": "create"}

    written = model.objects.get(pk=insert_row(model, match_id=match.pk, at=moment, **values))

    names = [name for name in ("created_at", "updated_at", "at") if hasattr(written, name)]
    stamps = [getattr(written, name) for name in names]
    assert stamps and all(stamp == moment for stamp in stamps)


def test_an_insert_with_a_field_the_model_has_not_is_refused():
    match = make_match()
    with pytest.raises(TypeError, match="scores"):
        insert_row(Hand, match_id=match.pk, number=1, inputs={}, result={}, scores=[1])
    assert not Hand.objects.exists()
