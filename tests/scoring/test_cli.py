"""`python -m scoring score [FILE]` and `python -m scoring presets`, as a user runs them."""

import json
import subprocess
import sys

import pytest

from tests.scoring.support import REPO_ROOT, four, hand_request, load_shared

REQUEST = load_shared("vectors/public.json")[7]


def run(*args, stdin: str | bytes = ""):
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin.encode("utf-8") if isinstance(stdin, str) else stdin,
        capture_output=True,
        cwd=REPO_ROOT,
        timeout=60,
    )


def test_score_reads_stdin_and_prints_the_result():
    done = run("score", stdin=json.dumps(REQUEST["request"]))

    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert {key: result[key] for key in REQUEST["expect"]} == REQUEST["expect"]
    assert len(result["breakdown"]) == 4


def test_score_reads_a_file(tmp_path):
    path = tmp_path / "el.json"
    path.write_text(json.dumps(REQUEST["request"]), encoding="utf-8")

    done = run("score", str(path))

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == REQUEST["expect"]["scores"]


def test_an_invalid_hand_exits_2_with_the_error_object():
    request = hand_request(four(), finisher=3)

    done = run("score", stdin=json.dumps(request))

    assert done.returncode == 2
    error = json.loads(done.stdout.decode("utf-8"))["error"]
    assert error["code"] == "finisher_not_opened"
    assert error["field"] == "hand.finisher"
    assert "açmamış" in error["message"]


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2", b"\xff\xfe{}", "[" * 100_000])
def test_malformed_json_exits_2_with_the_error_object(text):
    done = run("score", stdin=text)

    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == "invalid_json"


def test_a_missing_file_exits_2_with_the_error_object(tmp_path):
    done = run("score", str(tmp_path / "yok.json"))

    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["field"] == "request"


def test_presets_prints_exactly_the_shared_presets():
    done = run("presets")

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == load_shared("presets.json")


def test_bench_prints_a_median():
    done = run("bench", "--rounds", "3")

    assert done.returncode == 0, done.stderr
    assert b"score_json: median" in done.stdout


def test_an_unknown_command_exits_2():
    assert run("play").returncode == 2
