"""cetele.prepared: a queryset compiled once per connection gives, for any values, the rows
the queryset itself gives (on SQLite and on
PostgreSQL: the test run has a leg for each)."""

import pytest

from cetele.models import Hand
from cetele.prepared import prepared
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
