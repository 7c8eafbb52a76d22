"""`manage.py prepare_database`, what each app container runs before gunicorn: several started at
the same moment on a new database all succeed, and leave it migrated once. (Django's own
`migrate` started so fails in all but one: the second finds a table the first just made.)"""

import os
import subprocess
import sys
import time
import uuid

import pytest

from bench.harness import ROOT, free_port, server_env

STARTERS = 4


def start_together(env: dict, command: str) -> list[subprocess.CompletedProcess]:
    processes = [
        subprocess.Popen(
            [sys.executable, "manage.py", command, "--verbosity", "0"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(STARTERS)
    ]
    return [
        subprocess.CompletedProcess(p.args, p.wait(timeout=120), *p.communicate())
        for p in processes
    ]


def unapplied(env: dict) -> str:
    plan = subprocess.run(
        [sys.executable, "manage.py", "showmigrations", "--plan"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return "\n".join(line for line in plan.splitlines() if not line.startswith("[X]"))


@pytest.fixture
def new_postgres_database():
    """A new, empty database on the PostgreSQL server of the leg (scripts/with-postgres.sh)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        pytest.skip("the PostgreSQL leg runs this one")
    import psycopg

    name = f"cetele_start_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield url.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


def test_several_starters_at_once_on_a_new_sqlite_file_all_succeed(tmp_path):
    env = server_env(f"sqlite:///{tmp_path}/new.sqlite3", tmp_path)

    results = start_together(env, "prepare_database")

    assert [r.returncode for r in results] == [0] * STARTERS, [r.stderr[-500:] for r in results]
    assert unapplied(env) == ""


@pytest.mark.database  # a new database on DATABASE_URL's server
def test_several_starters_at_once_on_a_new_postgres_database_all_succeed(
    tmp_path, new_postgres_database
):
    env = server_env(new_postgres_database, tmp_path)

    results = start_together(env, "prepare_database")

    assert [r.returncode for r in results] == [0] * STARTERS, [r.stderr[-500:] for r in results]
    assert unapplied(env) == ""


def test_it_waits_for_a_database_that_does_not_answer_yet_then_says_so(tmp_path):
    env = server_env(f"postgres://postgres@127.0.0.1:{free_port()}/cetele", tmp_path)

    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "manage.py", "prepare_database", "--wait", "2"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )

    assert time.monotonic() - started >= 2
    assert result.returncode == 1
    assert "The database did not answer in 2 s" in result.stderr
    assert "Traceback" not in result.stderr
