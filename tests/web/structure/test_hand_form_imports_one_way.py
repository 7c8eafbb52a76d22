"""The hand form's modules depend one way: the deal's gösterge form, which the hand form takes its
gösterge fields from, stands without the hand form (no import cycle between them, none dodged
with an import inside a function)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def modules_loaded_by(module: str) -> set[str]:
    """The project's modules a fresh process has loaded after Django's setup and `module`."""
    code = (
        "import sys, django; django.setup(); "
        f"import {module}; "
        "print('\\n'.join(name for name in sys.modules if name.startswith('cetele.')))"
    )
    env = {"DJANGO_SETTINGS_MODULE": "tests.settings", "DJANGO_SECRET_KEY": "x", "PATH": ""}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return set(done.stdout.split())


def test_the_gosterge_form_stands_without_the_hand_form():
    loaded = modules_loaded_by("cetele.deal.forms")

    assert "cetele.deal.forms" in loaded
    assert not {name for name in loaded if name.startswith("cetele.hand_form")}


def test_the_hand_forms_own_modules_load_in_one_direction():
    # forms ← inputs ← entry: the forms load without the entry or the engine's translation.
    loaded = modules_loaded_by("cetele.hand_form.forms")

    assert "cetele.hand_form.forms" in loaded
    assert "cetele.hand_form.entry" not in loaded and "cetele.hand_form.inputs" not in loaded
