"""Words for a RECYCLE choice's buttons: what each branch does, and what its items are.

The page labels a move ``{"choice": [branch, item...]}`` from two things the view
carries while a choice is pending:

- ``choice_words``: per branch, what it does in a few words. A branch without
  items is labelled by them alone ("Draw from stock", "Swap your hand with the
  extra", "Pickup", "Pass"); for a branch with items they lead the items ("Bid" 3,
  "Turn up" One). Branches without items never read alike: where two would, the
  next word that tells them apart is added ("Alone · Hearts", "Alone · Spades").
- ``choice_items``: per branch, the kind of each item, outermost first
  (``player``, ``team``, ``number``, ``card``, ``cards``, ``place``, ``name``),
  so that a number bid reads "3", never a seat's name, and a place's name reads
  as the place is labelled.

Both come from the description's forms when the game is loaded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import suppress
from typing import Any

from games.recycle.compiling.program import Program
from games.recycle.reading.kinds import CARD, CARDS, INT, PLAYER, STR, TEAM
from games.recycle.reading.syntax import Node
from games.recycle.words.faces import said
from games.recycle.words.names import readable

_ITEM_KINDS = {PLAYER: "player", TEAM: "team", INT: "number", CARD: "card", CARDS: "cards", STR: "name"}


def branch_words(prog: Program, text: str = "") -> dict[int, list[str | None]]:
    """Return, per choice of ``prog``, a word for each branch (``None`` where nothing fits). A
    branch the author titled with a short comment (``;; Income``, ``;; Duke tax (take 3)``) is
    called by that title first; ``text`` is the description the program was read from."""
    lines = text.splitlines()
    out = {}
    for ident, (_, node, _) in prog.choices.items():
        branches = [_unguarded(b) for b in node.args]
        candidates = [_candidates(b) for b in branches]
        for words, branch in zip(candidates, node.args, strict=True):
            title = branch_title(lines, branch)
            if title:
                words.insert(0, title)
        out[ident] = _distinct(candidates, [_is_items(b) for b in branches])
    return out


TITLE_WORDS = 4  # a comment longer than this is a note on the branch, not its name
TITLE_CHARS = 28
# First words of a comment that explains a branch's condition or is a placeholder, not a title.
NOT_TITLES = {"if", "when", "first", "check", "etc", "todo", "note", "fixme", "else", "otherwise"}


def branch_title(lines: list[str], branch: object) -> str | None:
    """Return the short title an author's comment gives a branch: the ``;`` lines just above it
    (blank lines between allowed), up to a bracket or full stop; ``None`` for no comment, or one
    that is a sentence or a situation ("Unable to play: draw") rather than a name."""
    if not isinstance(branch, Node) or not 1 < branch.line <= len(lines):
        return None
    if lines[branch.line - 1][: branch.column - 1].strip():
        return None  # the branch shares its line with the choice: a comment above is the choice's
    index = branch.line - 2
    while index >= 0 and not lines[index].strip():
        index -= 1
    if index < 0 or not lines[index].strip().startswith(";"):
        return None
    comment = lines[index].strip().lstrip(";").strip()
    title = re.split(r"\s[(\[-]|[(.]", comment, maxsplit=1)[0].strip()
    if not re.fullmatch(r"[A-Za-z][A-Za-z' ]*", title) or len(title) > TITLE_CHARS:
        return None
    words = title.split()
    if len(words) > TITLE_WORDS or words[0].lower() in NOT_TITLES:
        return None
    if title.isupper():
        return title.capitalize()  # ;; HIT: a name in capitals, said as a word
    if any(len(word) > 2 and word.isupper() for word in words):
        return None  # ;; From STOCK: a note naming the program's places, not a title
    return title[0].upper() + title[1:]


def branch_items(prog: Program) -> dict[int, list[list[str]]]:
    """Return, per choice of ``prog``, the kinds of each branch's items, outermost first."""
    out = {}
    for ident, (_, node, _) in prog.choices.items():
        out[ident] = [_item_kinds(prog, _unguarded(b), {}) for b in node.args]
    return out


def said_at(words: dict, items: dict, choice: int | None) -> dict | None:
    """Return the words and item kinds of the choice ``choice`` (None when no choice is pending)."""
    if choice is None:
        return None
    return {"words": words.get(choice, []), "items": items.get(choice, [])}


def remember_said(st: Any, said: dict | None) -> None:
    """Keep, with the table's record, the words of the choice the last move was made at."""
    st.shown = {**st.shown, "said": said}


def last_said(st: Any, view: dict) -> None:
    """Give the view's last move the words of its choice (``last.words``, ``last.items``): the
    page then names it as it was offered, whatever choice is pending now."""
    said = st.shown.get("said")
    if view.get("last") and said and "choice" in view["last"]["move"]:  # a play names its card
        view["last"] = {**view["last"], **said}


def _unguarded(branch: object) -> object:
    while isinstance(branch, Node) and branch.kind == "guarded":
        branch = branch.args[1]
    return branch


def _is_items(branch: object) -> bool:
    return isinstance(branch, Node) and any(n.kind == "agg" and n.args[0] == "any" for n in _walk(branch))


def _item_kinds(prog: Program, node: object, scope: dict[str, str]) -> list[str]:
    """The kinds of the items the ``any`` forms of a branch bind, outermost first."""
    if not isinstance(node, Node):
        return []
    if node.kind == "agg" and node.args[0] == "any":
        _, coll, var, body = node.args
        try:
            kind = prog.item_kind(coll, scope)
        except Exception:
            kind = ""
        said_as = _ITEM_KINDS.get(kind, "name")
        if said_as == "name" and _names_place(body, var):
            said_as = "place"  # a place's name (Golf's ONE, TWO...): said as the place is labelled
        return [said_as, *_item_kinds(prog, body, {**scope, var: kind})]
    if node.kind == "let":
        value, var, body = node.args
        with suppress(Exception):  # words only: the checker found the kinds at load
            scope = {**scope, var: prog.kind(value, scope)}
        return _item_kinds(prog, body, scope)
    for arg in node.args:
        for part in arg if isinstance(arg, tuple | list) else (arg,):
            found = _item_kinds(prog, part, scope)
            if found:
                return found
    return []


def _names_place(body: object, var: str) -> bool:
    """Return whether ``var`` names a location somewhere in ``body``."""
    return any(
        n.kind in ("game_location", "owned_location") and _is_var(n.args[-1], var) for n in _walk(body)
    )


def _distinct(candidates: list[list[str]], items: list[bool]) -> list[str | None]:
    """Pick each branch's first word, adding the next word that tells apart branches that read alike."""
    words: list[str | None] = [c[0] if c else None for c in candidates]
    for _ in range(4):  # a few rounds: each adds one word to the branches still alike
        seen: dict[str, list[int]] = {}
        for i, w in enumerate(words):
            if w is not None and not items[i]:
                seen.setdefault(w, []).append(i)
        alike = [group for group in seen.values() if len(group) > 1]
        if not alike:
            break
        for group in alike:
            # The first word, after those shown, in which the branches of the group differ.
            rest = [[w for w in candidates[i] if w not in words[i].split(" · ")] for i in group]  # type: ignore[union-attr]
            for k in range(max(len(r) for r in rest)):
                column = [r[k] if k < len(r) else None for r in rest]
                if len(set(column)) > 1:
                    for i, extra in zip(group, column, strict=True):
                        if extra is not None:
                            words[i] = f"{words[i]} · {extra}"
                    break
    # Still alike (two branches doing the same thing in the same words): number them.
    count: dict[str, int] = {}
    for i, w in enumerate(words):
        if w is not None and not items[i]:
            count[w] = count.get(w, 0) + 1
            if count[w] > 1:
                words[i] = f"{w} ({count[w]})"
    return words


def _candidates(branch: object) -> list[str]:
    """Words for what a branch does, the most telling first."""
    if not isinstance(branch, Node):
        return []
    if branch.kind == "agg":
        return _item_words(branch)
    # A branch whose items an ``any`` inside a ``do`` binds (Spite and Malice's "hand to reserve")
    # is said as that ``any`` is, its card moved between its places named in the items' order.
    first = next((n for n in _walk(branch) if n.kind == "agg" and n.args[0] == "any"), None)
    between = _between(first) if first is not None else None
    out: list[str] = [between] if between else []
    moves = [n for n in _walk(branch) if n.kind == "move"]
    swap = _swap(branch)
    if swap:
        out.append(swap)
    for move in moves:
        word = _draw(move) or _put(move) or _give(move)
        if word and word not in out:
            out.append(word)
    for node in _walk(branch):
        word = _setting(node)
        if word and word not in out:
            out.append(word)
    for rep in _walk(branch):
        inner = next((n for n in _walk(rep) if n.kind == "move"), None) if rep.kind == "repeat" else None
        source, target = _ends(inner) if inner is not None else (None, None)
        if source is not None and target is not None and _current(source) and _current(target):
            out.append(
                readable(target.args[-1]) if isinstance(target.args[-1], str) else "Move"
            )  # LAMA's "Quit"
    if first is not None and not out:
        out.extend(_item_words(first))  # a card played to a place chosen, a bid set...
    if not out:  # cards moved between the game's own places alone ("Put the top stock card on the discard")
        out.extend(dict.fromkeys(word for move in moves if (word := _shift(move))))
    if not moves and not out:
        # A branch that only raises or lowers counts (Coup's income) says so; else it passes.
        out.extend(word for node in _walk(branch) if (word := _count_change(node)) and word not in out)
    if not moves and not out:
        out.append("Pass")
    return out


def _count_change(node: Node) -> str | None:
    """The mover's own count raised or lowered by a number, in words ("Coins +2"), for a branch
    doing nothing else (a game's count, such as rounds passed, is bookkeeping)."""
    if node.kind not in ("inc", "dec") or not isinstance(node.args[1], Node) or node.args[1].kind != "number":
        return None
    storage = node.args[0]
    owner = storage.args[0] if isinstance(storage, Node) and storage.kind == "owned_storage" else None
    if not (isinstance(owner, Node) and owner.kind == "player" and owner.args == ("current",)):
        return None
    name = _name(node.args[0])
    sign = "+" if node.kind == "inc" else "\u2212"
    return f"{readable(name)} {sign}{node.args[1].args[0]}" if name else None


def _item_words(agg: Node) -> list[str]:
    """Words that lead a branch's items: what the items are for ("Bid", "Turn up", "Give to")."""
    var = agg.args[2]
    body = agg.args[3]
    between = _between(agg)
    if between:
        return [between]
    for node in _walk(body):
        # A count set to the item (a bid): its name leads the number ("Bid" 3).
        if (
            node.kind in ("set", "inc")
            and _is_var(node.args[1], var)
            and node.args[0].kind.endswith("storage")
        ):
            return [readable(_name(node.args[0]))] if _name(node.args[0]) else []
    moves = [n for n in _walk(body) if n.kind == "move"]
    into = [m for m in moves if _place(m.args[1]) is not None and _uses(_place(m.args[1]), var)]
    out_of = [m for m in moves if _place(m.args[0]) is not None and _uses(_place(m.args[0]), var)]
    for move in into:
        if move in out_of:
            source, target = _ends(move)
            turned = source.args[-2] in ("hloc", "iloc") and target.args[-2] == "vloc"  # type: ignore[union-attr]
            return ["Turn up" if turned else "Move"]
    if into and out_of:
        return ["Replace"]
    if into:
        target = _place(into[0].args[1])
        if (
            isinstance(into[0].args[0], Node) and into[0].args[0].kind == "var"
        ):  # another item, a card, goes there
            return [f"Play to {'your' if _current(target) else 'the'} {_loc_words(target)}"]  # type: ignore[arg-type]
        return ["Give to" if target.kind == "owned_location" and _is_var(target.args[0], var) else "To"]  # type: ignore[union-attr]
    if out_of:
        source = _place(out_of[0].args[0])
        return ["Take from" if source.kind == "owned_location" and _is_var(source.args[0], var) else "From"]  # type: ignore[union-attr]
    # Items that are the cards moved: where they go ("Play to your side", "Play to the table").
    for move in moves:
        target = _place(move.args[1])
        if _uses(move.args[0], var) and target is not None:
            return [f"Play to {'your' if _current(target) else 'the'} {_loc_words(target)}"]
    return []


def _between(agg: Node) -> str | None:
    """``From your side to the table`` for items that are both ends of a move: the place a card
    leaves and the place it goes, said in the order the items come ("To the table from your
    side" when the place it goes is chosen first), so that the two read apart."""
    bound = [n.args[2] for n in _walk(agg) if n.kind == "agg" and n.args[0] == "any"]
    for move in (n for n in _walk(agg) if n.kind == "move"):
        source, target = _ends(move)
        if source is None or target is None:
            continue
        leaves = next((i for i, var in enumerate(bound) if _uses(source, var)), None)
        goes = next((i for i, var in enumerate(bound) if _uses(target, var)), None)
        if leaves is None or goes is None or leaves == goes:
            continue
        start = f"from {'your' if _current(source) else 'the'} {_loc_words(source)}"
        end = f"to {'your' if _current(target) else 'the'} {_loc_words(target)}"
        text = f"{start} {end}" if leaves < goes else f"{end} {start}"
        return text[0].upper() + text[1:]
    return None


def _swap(branch: Node) -> str | None:
    """``Swap your hand with the extra`` for a branch that trades all of a place of yours with another's."""
    moves = [n for n in _walk(branch) if n.kind == "repeat" and n.args[0] == "all"]
    pairs = []
    for rep in moves:
        inner = next((n for n in _walk(rep) if n.kind == "move"), None)
        if inner is None:
            return None
        pairs.append(_ends(inner))
    if len(pairs) != 3 or any(p is None for pair in pairs for p in pair):
        return None
    (a, temp), (mine, a2), (temp2, mine2) = pairs
    if _key(a) == _key(a2) and _key(temp) == _key(temp2) and _key(mine) == _key(mine2) and _current(mine):
        return f"Swap your {_loc_words(mine)} with the {_loc_words(a)}"
    return None


def _key(node: object) -> object:
    """A form without its line and column, to compare two forms."""
    if isinstance(node, Node):
        return (node.kind, tuple(_key(a) for a in node.args))
    if isinstance(node, tuple | list):
        return tuple(_key(a) for a in node)
    return node


def _draw(move: Node) -> str | None:
    source, target = _ends(move)
    if source is not None and source.kind == "game_location" and target is not None and _current(target):
        return f"Draw from {_loc_words(source)}"
    return None


def _put(move: Node) -> str | None:
    source, target = _ends(move)
    if source is None or target is None or not _current(source) or _current(target):
        return None
    if target.kind == "game_location":
        return f"Put your top {_loc_words(source)} card on the {_loc_words(target)}"
    return None


_NEIGHBOURS = {"next": "the next player", "previous": "the previous player"}


def _give(move: Node) -> str | None:
    """A card of yours moved to the next (or previous) player's place, in words (Cuckoo's pass)."""
    source, target = _ends(move)
    if source is None or target is None or not _current(source) or target.kind != "owned_location":
        return None
    owner = target.args[0]
    if not (isinstance(owner, Node) and owner.kind == "player" and owner.args[0] in _NEIGHBOURS):
        return None
    return f"Give your top {_loc_words(source)} card to {_NEIGHBOURS[owner.args[0]]}"


def _shift(move: Node) -> str | None:
    """A card moved from one of the game's places to another, in words."""
    source, target = _ends(move)
    if source is None or target is None or source.kind != "game_location" or target.kind != "game_location":
        return None
    if _key(source) == _key(target):
        return None
    end = "bottom" if isinstance(move.args[0], Node) and move.args[0].kind == "bottom" else "top"
    return f"Put the {end} {_loc_words(source)} card on the {_loc_words(target)}"


def _setting(node: Node) -> str | None:
    """The value a branch sets, in words: a string set to a name ("Pickup"), a count set."""
    if node.kind == "set" and isinstance(node.args[1], Node) and node.args[1].kind == "name":
        return said(node.args[1].args[0])
    # A count set (a flag set to 1: "Close"; a number: "Bet 2"); a count raised or lowered is
    # bookkeeping (a pass counted, chips paid) and names nothing.
    if node.kind == "set" and isinstance(node.args[1], Node) and node.args[1].kind == "number":
        name = _name(node.args[0])
        n = node.args[1].args[0]
        if not name:
            return None
        return readable(name) if n == 1 else f"{readable(name)} {n}"
    return None


def _ends(move: Node) -> tuple[Node | None, Node | None]:
    """The places a ``move`` takes its card from and puts it on (``_place`` of each)."""
    return _place(move.args[0]), _place(move.args[1])


def _place(node: object) -> Node | None:
    """The location of ``(top L)``, ``(bottom L)``, ``(N L)`` or of a location itself."""
    if not isinstance(node, Node):
        return None
    if node.kind in ("game_location", "owned_location"):
        return node
    if node.kind in ("top", "bottom") or (node.args and isinstance(node.args[-1], Node)):
        last = node.args[-1]
        if isinstance(last, Node) and last.kind in ("game_location", "owned_location"):
            return last
    return None


def _loc_words(place: Node) -> str:
    name = place.args[-1]
    if isinstance(name, str):
        return readable(name).lower()
    return "side" if _current(place) else "table"  # a name computed in play (Lost Cities' colour)


def _name(storage: object) -> str | None:
    if isinstance(storage, Node) and storage.args and isinstance(storage.args[-1], str):
        return storage.args[-1]
    return None


def _current(place: Node) -> bool:
    """Return whether a place is the current player's."""
    if place.kind != "owned_location":
        return False
    owner = place.args[0]
    return isinstance(owner, Node) and owner.kind == "player" and owner.args == ("current",)


def _is_var(node: object, var: str) -> bool:
    return isinstance(node, Node) and node.kind == "var" and node.args[0] == var


def _uses(node: object, var: str) -> bool:
    return any(n.kind == "var" and n.args[0] == var for n in _walk(node))


def _walk(node: object) -> Iterator[Node]:
    if isinstance(node, Node):
        yield node
        for arg in node.args:
            yield from _walk(arg)
    elif isinstance(node, tuple | list):
        for item in node:
            yield from _walk(item)
