"""No import circle in ``cardtable/`` or ``games/``, and ``games/`` stays pure."""

from __future__ import annotations

import ast

from tests.layout.imports import ROOT, cycles, graph


def test_there_is_no_import_circle() -> None:
    assert cycles(graph(("cardtable", "games"))) == []


def test_the_checker_sees_a_circle_hidden_in_a_function() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]


def test_the_games_import_nothing_of_the_server() -> None:
    edges = graph(("cardtable", "games"))
    for module, targets in edges.items():
        if module.split(".")[0] == "games":
            assert not any(t.startswith("cardtable") for t in targets), module


# The only imports of the project's own modules made inside a function, each for a
# reason that is not a circle: Django loads an app's modules only once the apps
# are ready; `make run` configures Django before the ASGI app is loaded; psycopg
# is loaded on PostgreSQL only.
LATE_IMPORTS_ALLOWED = {
    ("cardtable/tables/apps.py", "ready"),
    ("cardtable/dashboard/apps.py", "ready"),
    ("cardtable/ratings/apps.py", "ready"),
    ("cardtable/reviews/apps.py", "ready"),
    ("cardtable/serve.py", "main"),
    ("cardtable/dashboard/checkchild.py", "main"),  # a job child: Django is set up first
    ("cardtable/tables/authority/known.py", "_write_known"),
}


def late_imports(source: str) -> list[tuple[str, str]]:
    """Return (function, module) for each import of a project module made inside a function."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            found += [(function.name, name) for name in names if name.split(".")[0] in ("cardtable", "games")]
    return found


def test_no_module_of_the_server_is_imported_inside_a_function() -> None:
    late = []
    for path in sorted((ROOT / "cardtable").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if "migrations" in path.parts:
            continue
        late += [(where, fn, module) for fn, module in late_imports(path.read_text())]
    assert [item for item in late if item[:2] not in LATE_IMPORTS_ALLOWED] == []


def test_the_checker_sees_an_import_inside_a_function() -> None:
    source = "import os\n\ndef f():\n    import json\n    from cardtable.tables import models\n"
    assert late_imports(source) == [("f", "cardtable.tables")]
