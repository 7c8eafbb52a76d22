"""The scoring package and the tournament engine (cetele.tournaments.engine) are plain Python:
standard library only, Django never imported."""

import ast
import subprocess
import sys

from tests.scoring.support import REPO_ROOT

PACKAGE = REPO_ROOT / "scoring"
TOURNAMENT_ENGINE = REPO_ROOT / "cetele" / "tournaments" / "engine"


def loads_no_django(code: str) -> None:
    """Run `code` in a fresh interpreter, then fail if it loaded any Django module."""
    code += (
        "\nimport sys\n"
        "loaded = [name for name in sys.modules if name.split('.')[0] == 'django']\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_importing_and_using_scoring_loads_no_django():
    loads_no_django(
        "import scoring, scoring.__main__, scoring.bench\n"
        "scoring.score_json({'rules': 'om-zorlu', 'hand': {'finisher': None, "
        "'players': [{'opened': 'no'}, {'opened': 'no'}]}})\n"
    )


def imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def test_the_source_imports_only_the_standard_library_and_itself():
    allowed = set(sys.stdlib_module_names) | {"scoring", "__future__"}

    imports = {name for path in PACKAGE.glob("*.py") for name in imported_modules(path)}

    assert imports, "no imports found: is the package where the test expects it?"
    assert {name for name in imports if name.split(".")[0] not in allowed} == set()


def test_importing_and_using_the_tournament_engine_loads_no_django():
    loads_no_django(
        "from cetele.tournaments import engine\n"
        "groups = engine.draw_groups(list(range(8)), 4, seed=1)\n"
        "engine.group_schedule(groups)\n"
        "engine.tek_rounds(list(range(8)), 3)\n"
    )


def test_the_tournament_engine_imports_only_the_standard_library_and_itself():
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    own = "cetele.tournaments.engine"

    imports = {name for path in TOURNAMENT_ENGINE.glob("*.py") for name in imported_modules(path)}

    assert imports, "no imports found: is the engine where the test expects it?"
    foreign = {
        name
        for name in imports
        if name.split(".")[0] not in allowed and name != own and not name.startswith(own + ".")
    }
    assert foreign == set()
