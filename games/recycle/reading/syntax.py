"""Parse RECYCLE text into a tree of ``Node``s, within bounds.

The grammar is ``recycle.lark`` (Lark, LALR(1): linear time, no backtracking).
Before parsing, the text's size and bracket depth are checked, so a hostile
description costs at most ``MAX_CHARS`` characters of lexing and a tree no
deeper than ``MAX_DEPTH`` (the compiler and interpreter recurse on it).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from games.recycle.errors import RecycleError
from games.recycle.reading.hints import advice

MAX_CHARS = 200_000
MAX_DEPTH = 100


NAMED_FORMS = frozenset(
    {
        "game_location", "owned_location", "game_storage", "owned_storage",
        "game_string", "owned_string", "game_points", "owned_points",
    }
)  # fmt: skip


@dataclass(frozen=True, eq=False)
class Node:
    """One form of the description: its kind, operands, and where it starts."""

    kind: str
    args: tuple
    line: int
    column: int

    def error(self, message: str) -> RecycleError:
        """Return a ``RecycleError`` located at this form."""
        return RecycleError(message, self.line, self.column)


@cache
def _parser() -> Lark:
    grammar = (Path(__file__).parent / "recycle.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _token_value(token: Token) -> object:
    if token.type == "INT":
        return int(token)
    # Interned: the same name is one object everywhere, so the location keys and variables
    # made in play compare by identity.
    if token.type == "VAR":
        return sys.intern(str(token)[1:].lstrip())
    return sys.intern(str(token))


@v_args(meta=True)
class _Build(Transformer):
    """Turn Lark's tree into ``Node``s; tokens become str (names, keywords) or int."""

    def __default__(self, data, children, meta):  # type: ignore[override]
        args = tuple(_token_value(c) if isinstance(c, Token) else c for c in children)
        if data in NAMED_FORMS and args[-1].kind in ("name", "number"):
            # A location's or storage's NAME stays a str (the usual, constant case); a
            # variable or a string expression stays a Node, computed in play.
            args = (*args[:-1], str(args[-1].args[0]))
        line = getattr(meta, "line", 0) if not meta.empty else 0
        column = getattr(meta, "column", 0) if not meta.empty else 0
        return Node(str(data), args, line, column)

    def _word(self, meta, children):
        # One-word rules (any/all, min/max, who, ...) become the word itself.
        (child,) = children
        return _token_value(child) if isinstance(child, Token) else child

    aggq = minmax = stage_kind = cycle_which = cycle_target = who = repeat_count = runkind = topbottom = _word

    def nth(self, meta, children):
        # `(0 player)` reads as "the 0th item of player" by the grammar's shift: it is player 0.
        index, of = children
        node = self.__default__("nth", children, meta)
        if isinstance(of, Node) and of.kind in ("all_players", "all_teams"):
            kind = "player" if of.kind == "all_players" else "team_of_cycle"
            return Node(kind, (int(index),), node.line, node.column)
        return node

    def var(self, meta, children):
        return Node("var", (_token_value(children[0]),), children[0].line, children[0].column)

    def name(self, meta, children):
        return Node("name", (sys.intern(str(children[0])),), children[0].line, children[0].column)

    def number(self, meta, children):
        return Node("number", (int(children[0]),), children[0].line, children[0].column)


def _check_bounds(text: str) -> int:
    """Check the size and bracket depth; return where the game's closing bracket ends.

    Comments (``;`` to the end of the line) are skipped, so a bracket in one is not
    counted. Text after the game's closing bracket is ignored, as CardStock's reader does.
    """
    if len(text) > MAX_CHARS:
        raise RecycleError(f"the description is {len(text)} characters long; the limit is {MAX_CHARS}")
    depth = 0
    line, column = 1, 0
    in_comment = False
    for index, char in enumerate(text):
        column += 1
        if char == "\n":
            line, column, in_comment = line + 1, 0, False
        elif in_comment:
            continue
        elif char == ";":
            in_comment = True
        elif char == "(":
            depth += 1
            if depth > MAX_DEPTH:
                raise RecycleError(f"brackets nest deeper than {MAX_DEPTH}", line, column)
        elif char == ")":
            depth -= 1
            if depth < 0:
                raise RecycleError("a ')' closes nothing", line, column)
            if depth == 0:
                return index + 1
    # An unclosed '(' is left to the parser, which says where the text ended.
    return len(text)


def parse(text: str) -> Node:
    """Return the ``start`` node of ``text``; raise ``RecycleError`` (line, column) if it is not RECYCLE."""
    if not isinstance(text, str):
        raise RecycleError("a description is text")
    text = text.removeprefix("\ufeff")  # a byte-order mark, as Windows editors write
    text = text[: _check_bounds(text)]
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as error:
        word = re.match(r"[a-z]+", text[error.pos_in_stream :])
        hint = advice(text, error.line, error.column, word.group() if word else "")
        message = _unexpected(text, error.pos_in_stream) + (f": {hint}" if hint else "")
        raise RecycleError(message, error.line, error.column) from None
    except UnexpectedEOF as error:
        expected = ", ".join(sorted(_readable(e) for e in error.expected)[:6])
        lines = text.splitlines() or [""]
        raise RecycleError(
            f"the description ends too soon (expected {expected})", len(lines), len(lines[-1]) + 1
        ) from None
    except UnexpectedToken as error:
        got = "end of the description" if error.token.type == "$END" else repr(str(error.token))
        expected = ", ".join(sorted(_readable(e) for e in error.expected)[:8])
        hint = advice(text, error.line, error.column, got)  # what to write instead, where known
        message = f"unexpected {got} (expected {expected})" + (f": {hint}" if hint else "")
        raise RecycleError(message, error.line, error.column) from None
    except UnexpectedInput as error:  # pragma: no cover - the three above are every kind Lark raises
        raise RecycleError(str(error), getattr(error, "line", None), getattr(error, "column", None)) from None
    return _Build().transform(tree)


def _unexpected(text: str, pos: int) -> str:
    word = re.match(r"[a-z]+", text[pos:])
    if word:
        return f"unknown word {word.group()!r}"
    return f"unexpected character {text[pos]!r}"


_NAMES = {
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "COLON": "':'",
    "__ANON_0": "'..'",
    "NAME": "a NAME",
    "VAR": "a 'VARIABLE",
    "INT": "a number",
    "LOCKIND": "a location kind (iloc, vloc, hloc, oloc, mem)",
    "ARITH": "an operator (+ - * // % ^)",
    "COMPOP": "a comparison (== != < > <= >=)",
    "BOOLOP": "'and', 'or'",
}


def _readable(terminal: str) -> str:
    """Say a grammar terminal in the language's own words: a keyword as itself."""
    if terminal in _NAMES:
        return _NAMES[terminal]
    return repr(terminal.lower()) if terminal.isupper() else "another form"
