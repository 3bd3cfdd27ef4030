"""Words for a RECYCLE choice's branches that name nothing: "Draw from stock", "Pass".

A branch that offers items (cards, players, names) is labelled by them on the
page; a branch offering none would read "Option 3". Its actions tell what it
does: taking the top card of one of the game's places into the current player's
is a draw; a branch that moves no card (a pass, a count changed) is a pass.
Anything else keeps no word (the page says "Option N").
"""

from __future__ import annotations

from collections.abc import Iterator

from games.recycle.names import readable
from games.recycle.program import Program
from games.recycle.syntax import Node


def branch_words(prog: Program) -> dict[int, list[str | None]]:
    """Return, per choice of ``prog``, a word for each branch (``None`` where its items label it)."""
    return {ident: [_word(branch) for branch in node.args] for ident, (_, node, _) in prog.choices.items()}


def _word(branch: Node) -> str | None:
    while isinstance(branch, Node) and branch.kind == "guarded":
        branch = branch.args[1]
    if not isinstance(branch, Node) or branch.kind == "agg":
        return None  # an "any": its items label it
    moves = [n for n in _walk(branch) if n.kind == "move"]
    for move in moves:
        source = move.args[0]
        if isinstance(source, Node) and source.kind == "top":
            place = source.args[0]
            if isinstance(place, Node) and place.kind == "game_location" and _to_current(move.args[1]):
                return f"Draw from {readable(place.args[1]).lower()}"
    if not moves:
        return "Pass"
    return None


def _to_current(target: object) -> bool:
    """Return whether a move's destination is a place of the current player."""
    return any(n.kind == "player" and n.args == ("current",) for n in _walk(target))


def _walk(node: object) -> Iterator[Node]:
    if isinstance(node, Node):
        yield node
        for arg in node.args:
            yield from _walk(arg)
    elif isinstance(node, tuple | list):
        for item in node:
            yield from _walk(item)
