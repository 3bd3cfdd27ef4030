"""docs/architecture.md names every module of the server, and every module it names exists."""

from __future__ import annotations

import re

from tests.layout.imports import ROOT

DOC = ROOT / "docs" / "architecture.md"
# A module is named by its whole path from the project root, in backticks.
NAMED = re.compile(r"`(cardtable/[\w/]+\.py)`")


def server_modules() -> set[str]:
    """Every module of ``cardtable/`` but migrations and package faces (``__init__.py``)."""
    return {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "cardtable").rglob("*.py")
        if "migrations" not in path.parts and path.name != "__init__.py"
    }


def test_every_module_of_the_server_is_named_in_the_architecture() -> None:
    named = set(NAMED.findall(DOC.read_text()))
    assert sorted(server_modules() - named) == []


def test_every_module_the_architecture_names_exists() -> None:
    named = set(NAMED.findall(DOC.read_text()))
    assert sorted(name for name in named if not (ROOT / name).is_file()) == []


def test_the_check_reads_a_named_module() -> None:
    assert NAMED.findall("| `cardtable/tables/events.py` | the seam |") == ["cardtable/tables/events.py"]
