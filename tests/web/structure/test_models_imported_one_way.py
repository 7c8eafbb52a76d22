"""The models are the floor the rest of the app stands on: what they import never imports them
back, at the top of a module or inside a function (a cycle dodged there is still a cycle: the
order the modules happen to load in then decides whether the app starts).

Read from the source, as Python reads its imports, without importing anything.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def app_modules() -> dict[str, Path]:
    """Every module of the app and the engine, by its dotted name (migrations aside: they name
    the models' callables by the path the migration recorded)."""
    modules = {}
    for package in ("cetele", "scoring"):
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    return modules


def imports_of(path: Path, modules: dict[str, Path]) -> set[str]:
    """The app's modules that this one imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from package import module` imports the module; `from module import name`, the
            # module itself.
            found |= {owner(f"{node.module}.{alias.name}", modules) for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {owner(alias.name, modules) for alias in node.names}
    return found - {None}


def owner(dotted: str, modules: dict[str, Path]) -> str | None:
    """The module a dotted name is, or is in (None: not the app's)."""
    while dotted and dotted not in modules:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


def reachable_from(start: str, graph: dict[str, set[str]]) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    return seen


def test_nothing_the_models_import_imports_them_back():
    modules = app_modules()
    graph = {name: imports_of(path, modules) - {name} for name, path in modules.items()}
    below_the_models = reachable_from("cetele.models", graph)
    cycles = sorted(
        (module, other)
        for module in below_the_models
        for other in graph[module]
        if module in reachable_from(other, graph)
    )
    assert cycles == []
