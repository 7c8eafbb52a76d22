"""Views never import views: a page's context is built once, in a module of its concept
(cetele/<concept>/pages.py, cetele/tea/card.py), which the views of every link role import.
A view module importing another one is how the cycles seats <-> deal <-> sharing came back,
and an import inside a function is how they were hidden."""

import ast
from pathlib import Path

CETELE = Path(__file__).resolve().parents[3] / "cetele"


def cetele_imports(path: Path):
    """(the module named, whether the import is inside a function) for each import of ours."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside = {
        id(node)
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(function)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # `from cetele.seats import views` names a view module too.
            named = [f"{node.module}.{alias.name}" for alias in node.names]
            names = [next((name for name in named if name.endswith(".views")), node.module)]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] == "cetele":
                yield name, id(node) in inside


def view_and_page_modules(root: Path) -> list[Path]:
    return sorted(
        path
        for pattern in ("*/views.py", "*/pages.py", "tea/card.py")
        for path in root.glob(pattern)
    )


def views_importing_views(root: Path) -> list[str]:
    return [
        f"{path.relative_to(root)} imports {name}"
        for path in sorted(root.glob("*/views.py"))
        for name, _ in cetele_imports(path)
        if name.endswith(".views")
    ]


def imports_inside_functions(root: Path) -> list[str]:
    return [
        f"{path.relative_to(root)} imports {name} inside a function"
        for path in view_and_page_modules(root)
        for name, inside in cetele_imports(path)
        if inside
    ]


def test_no_view_module_imports_another():
    assert len(list(CETELE.glob("*/views.py"))) >= 9, "are the views where the test expects?"

    assert views_importing_views(CETELE) == []


def test_no_view_or_page_module_hides_an_import_inside_a_function():
    assert imports_inside_functions(CETELE) == []
