"""Every worked example of ../shared/vectors/public.json and extensions.json (the house-rule
extensions), read from those files at test time."""

import pytest

from scoring import InvalidHand, score_json
from tests.scoring.support import load_shared

PUBLIC = load_shared("vectors/public.json")
EXTENSIONS = load_shared("vectors/extensions.json")
VECTORS = PUBLIC + EXTENSIONS


def test_the_vectors_are_there():
    assert len(PUBLIC) >= 20
    assert len(EXTENSIONS) >= 11


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["name"] for vector in VECTORS])
def test_vector(vector):
    request, expect = vector["request"], vector["expect"]

    if expect == "error":
        with pytest.raises(InvalidHand):
            score_json(request)
        return
    result = score_json(request)

    assert {key: result[key] for key in expect} == expect
