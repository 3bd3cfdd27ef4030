"""What to write instead, for the mistakes CardStock's own files make.

CardStock's reader (ANTLR) recovers from some errors and plays on; none of its
files' errors recover into the game their authors meant (docs/recycle.md,
"Coverage"), so they are refused, and the refusal says what to write. ``advice``
looks at the text where the parser stopped and returns that sentence, or ''.
"""

from __future__ import annotations

import re

_KINDS = ("str", "sto", "points", "iloc", "vloc", "hloc", "oloc", "mem")


def advice(text: str, line: int | None, column: int | None, got: str) -> str:
    """Return what to write instead of the form the parser stopped at ('' when nothing known fits).

    ``got`` is the word or character found there (``'str'``, ``'('``, ``loc``).
    """
    if line is None or column is None:
        return ""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    before = "\n".join([*lines[: line - 1], lines[line - 1][: column - 1]])
    after = lines[line - 1][column - 1 :]
    rules = (_attribute_as_value, _string_as_place, _owner_without_brackets, _loose_guard, _nested_choice)
    for rule in rules:
        said = rule(before, after, got)
        if said:
            return said
    if got == "loc":
        return "`loc` is CardStock 0.3's: write the kind, iloc (its owner sees it), vloc (face up), hloc"
    return ""


def _attribute_as_value(before: str, after: str, got: str) -> str:
    """``(set (game sto S) (SUIT (HEARTS)))``: 0.4's attribute form where a value goes."""
    head = re.search(r"\(\s*([A-Z][A-Z0-9]*)\s*$", before)
    value = re.match(r"\(\s*([A-Z][A-Z0-9]*)\s*\)", after)
    if not (head and value):
        return ""
    attribute, name = head.group(1), value.group(1)
    owner = r"(game|'[A-Z]+|\([a-z]+ (?:player|team)\))"
    kept = re.search(rf"\(\s*set\s+\(\s*{owner}\s+sto\s+([A-Z0-9]+)\s*\)\s*$", before[: head.start()])
    if kept:
        owner, store = kept.groups()
        return (
            f"({attribute} ({name})) is an attribute with its values, not a value; a word is kept "
            f"as a string: write (set ({owner} str {store}) {name})"
        )
    return f"({attribute} ({name})) is an attribute with its values, not a value: write {name}"


def _string_as_place(before: str, after: str, got: str) -> str:
    """``(top (game str EIGHTSUIT))``: a stored string used as a place."""
    if got != "'str'" or not re.search(r"\(\s*(top|bottom|\d+)\s+\(\s*[^()]*$", before):
        return ""
    owner = re.search(r"\(\s*([^()]*)$", before)
    name = re.match(r"str\s+([A-Z0-9]+)", after)
    stored = f"({owner.group(1).strip()} str {name.group(1)})" if owner and name else "(WHO str NAME)"
    return f"a stored string is not a place to take a card from: write {stored} itself where the word goes"


def _owner_without_brackets(before: str, after: str, got: str) -> str:
    """``(current player) str RANK``: storage or a place whose own brackets are missing."""
    if got.strip("'") not in _KINDS:
        return ""
    owner = re.search(r"(\(\s*[a-z]+\s+(?:player|team)\s*\)|'[A-Z][A-Z0-9]*|\bgame)\s*$", before)
    name = re.match(r"[a-z]+\s+([A-Z0-9]+|'[A-Z0-9]+)", after)
    if not (owner and name):
        return ""
    form = f"({owner.group(1)} {got.strip(chr(39))} {name.group(1)})"
    return f"the owner, kind and name go in brackets of their own: write {form}"


def _loose_guard(before: str, after: str, got: str) -> str:
    """``(all C 'V (CONDITION) (ACTION))``: a guard outside the brackets it shares with its action."""
    if got != "'('":
        return ""
    opened = _open_form(before)
    if not re.match(r"\(\s*(all|any)\s", opened):
        return ""
    return (
        "a condition and the action it guards share one pair of brackets: "
        "write (all COLLECTION 'V (CONDITION ACTION))"
    )


def _nested_choice(before: str, after: str, got: str) -> str:
    if got != "'choice'":
        return ""
    return (
        "a choice is a part of a stage or of the game's body, never inside a do, let, any, all or a "
        "condition (CardStock's interpreter does not run it there either): move it up to its stage"
    )


def _open_form(before: str) -> str:
    """Return the text of the innermost form still open at the end of ``before`` (comments skipped)."""
    starts: list[int] = []
    in_comment = False
    for index, char in enumerate(before):
        if char == "\n":
            in_comment = False
        elif in_comment:
            continue
        elif char == ";":
            in_comment = True
        elif char == "(":
            starts.append(index)
        elif char == ")" and starts:
            starts.pop()
    return before[starts[-1] :] if starts else ""
