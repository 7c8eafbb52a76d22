"""Every worked example of ../shared/vectors/public.json, read from that file at test time."""

import pytest

from scoring import score_json
from tests.scoring.support import load_shared

VECTORS = load_shared("vectors/public.json")


def test_the_public_vectors_are_there():
    assert len(VECTORS) >= 20


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["name"] for vector in VECTORS])
def test_public_vector(vector):
    request, expect = vector["request"], vector["expect"]

    result = score_json(request)

    assert {key: result[key] for key in expect} == expect
