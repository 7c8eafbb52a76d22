"""On a real SQLite file, as the app runs by default (admin off): `migrate` creates no user,
session or content-type table, a match lives and dies without them, and a deleted match's names
are gone from the file's bytes, not left behind in free pages."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# Runs in a fresh process against the file: start two matches in the browser's way, play a
# hand, delete one through its edit link.
FLOW = """
import django
django.setup()
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()  # the test client's host name, as pytest-django allows it
from cetele.models import Match

def start(names):
    data = {"preset": "cetele-standart", "cezali": "1", "planned_hands": "5"}
    data.update({f"name_{seat}": name for seat, name in enumerate(names, start=1)})
    response = Client().post("/yeni/", data)
    assert response.status_code == 302, response.status_code
    return Match.objects.get(edit_token=response["Location"].split("/")[2])

doomed = start(["Zerrin-Silinecek", "Ahmet-Silinecek"])
kept = start(["Kalan-Birinci", "Kalan-Ikinci"])
client = Client()
assert client.get(f"/m/{doomed.edit_token}/").status_code == 200
response = client.post(f"/m/{doomed.edit_token}/sil/", {"confirm": "on"})
assert response.status_code == 302, response.status_code
assert client.get(f"/m/{doomed.edit_token}/").status_code == 410  # "Bu maç silindi"
assert Client().get(f"/m/{doomed.edit_token}/").status_code == 404  # to anyone else
assert client.get(f"/m/{kept.edit_token}/").status_code == 200
print("flow ok")
"""


def run(args: list[str], database: Path) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_ADMIN_PATH": "",
    }
    result = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def file_bytes(database: Path) -> bytes:
    """The database file after a checkpoint, with whatever the WAL still holds."""
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    wal = database.with_name(database.name + "-wal")
    return database.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


def test_without_the_admin_no_user_or_session_table_and_a_deleted_match_leaves_no_name(
    tmp_path: Path,
):
    database = tmp_path / "cetele.sqlite3"
    run(["manage.py", "migrate", "--noinput", "-v", "0"], database)

    with sqlite3.connect(database) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert "cetele_match" in tables
    assert not [t for t in tables if t.startswith(("auth_", "django_admin", "django_session"))]
    assert "django_content_type" not in tables

    assert "flow ok" in run(["-c", FLOW], database).stdout

    data = file_bytes(database)
    assert b"Kalan-Birinci" in data  # the method sees names that are there
    assert b"Zerrin-Silinecek" not in data
    assert b"Ahmet-Silinecek" not in data
