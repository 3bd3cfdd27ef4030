"""Helpers over a RECYCLE description's forms and text, for the rules text (``describe``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from games.recycle.reading.syntax import Node

MAX_COMMENT = 1_500  # characters of a file's leading comments shown


def leading_comments(text: str) -> str:
    """Return the comment lines before a description's ``(game`` as one text ('' when none).

    Lines of only ``;`` or of a decoration (``;; ====``) end a paragraph; a comment on the
    ``(game`` line itself (CardStock's ``;; MATCH START``) is not the game's description.
    """
    paragraphs: list[list[str]] = [[]]
    for line in text.removeprefix("\ufeff").splitlines():
        stripped = line.strip()
        if not stripped:
            paragraphs.append([])
            continue
        if not stripped.startswith(";"):
            break
        words = stripped.lstrip(";").strip()
        if not words or not re.search(r"[A-Za-z0-9]", words):
            paragraphs.append([])
        else:
            paragraphs[-1].append(words)
    out = "\n".join(" ".join(p) for p in paragraphs if p)
    return out if len(out) <= MAX_COMMENT else out[: MAX_COMMENT - 1].rsplit(" ", 1)[0] + "…"


def walk(node: object) -> Iterator[Node]:
    """Yield ``node`` and every form inside it, depth first."""
    if isinstance(node, Node):
        yield node
        for arg in node.args:
            yield from walk(arg)


def walk_scoped(node: object, scope: dict[str, Node]) -> Iterator[tuple[Node, dict[str, Node]]]:
    """Yield every form with what each variable in scope there stands for (``all``, ``any``,
    ``let`` and ``filter`` bind one)."""
    if not isinstance(node, Node):
        return
    yield node, scope
    if node.kind == "agg":
        _, over, var, body = node.args
        yield from walk_scoped(over, scope)
        yield from walk_scoped(body, {**scope, var: over})
    elif node.kind == "let":
        value, var, body = node.args
        yield from walk_scoped(value, scope)
        yield from walk_scoped(body, {**scope, var: value})
    else:
        for arg in node.args:
            yield from walk_scoped(arg, scope)


def sentence(text: str) -> str:
    """Return ``text`` as a sentence: a capital first, a full stop last."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "…", "?", "!")) else text + "."


def is_kind(node: object, *kinds: str) -> bool:
    """Return whether ``node`` is a form of one of ``kinds``."""
    return isinstance(node, Node) and node.kind in kinds
