"""The import graph of the project's packages, read from the source (no module is run).

Every ``import`` counts, those inside a function included: a circle hidden in a
function is still a circle. ``from a import b`` is an edge to ``a.b`` when that is
a module, else to ``a``. A package's ``__init__`` is not implied by importing one
of its modules (Python runs it first, but that is no circle of ours).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def modules(package: str) -> dict[str, Path]:
    """Return every module of ``package`` (a folder under the project root) by dotted name."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if "migrations" in parts:
            continue
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def graph(packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Return each module's imports of modules in ``packages``."""
    known: dict[str, Path] = {}
    for package in packages:
        known.update(modules(package))
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    here = here[: len(here) - (node.level - 1)]
                    base = ".".join([*here, base] if base else here)
                targets = [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                # ``import a.b.c`` names a.b.c; keep the longest prefix that is one of ours.
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges[name].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected groups of more than one module (each an import circle)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                item = stack.pop()
                on_stack.discard(item)
                group.append(item)
                if item == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found
