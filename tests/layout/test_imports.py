"""No import circle in ``cardtable/`` or ``games/``, and ``games/`` stays pure."""

from __future__ import annotations

from tests.layout.imports import cycles, graph


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
