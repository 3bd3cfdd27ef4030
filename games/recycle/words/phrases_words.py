"""Words the rules text is made of: card values, names, possessives and lists as a player
says them (``phrases``, ``phrases_cards`` and ``describe`` build sentences from them)."""

from __future__ import annotations

from games.recycle.reading.syntax import Node
from games.recycle.words.names import readable

# Card attribute values as a player says them (RANK A is "ace", TWO is "2").
_VALUE_WORDS = {
    "A": "ace", "K": "king", "Q": "queen", "J": "jack", "TWO": "2", "THREE": "3", "FOUR": "4",
    "FIVE": "5", "SIX": "6", "SEVEN": "7", "EIGHT": "8", "NINE": "9", "TEN": "10", "ONE": "1",
    "ACE": "ace", "KING": "king", "QUEEN": "queen", "JACK": "jack",
}  # fmt: skip
# A count whose name already says it is a number ("your Score"); any other reads "the Broken count".
_COUNTING = frozenset(
    {
        "score", "scores", "points", "count", "total", "sum", "bid", "bids", "bet", "bets", "pot",
        "chips", "level", "round", "rounds", "lives", "life", "won",
    }
)  # fmt: skip


def word(name: str) -> str:
    """Return a card attribute's value as a player says it: ``EIGHT`` is "8", ``CLUBS`` "clubs"."""
    return _VALUE_WORDS.get(name) or readable(name).lower()


def place(name: str) -> str:
    """Return a place's, store's or attribute's name as a player reads it (``TRICKSWON``: "Tricks won")."""
    return readable(name)


def possessive(owner: str) -> str:
    """Return ``owner``'s possessive: "you" is "your", "they" is "their", "P" is "P's"."""
    if owner == "you":
        return "your"
    if owner == "it":
        return "its"
    if owner == "they":
        return "their"
    return owner + "'s"


def owned(owner: str, name: str) -> str:
    """Return ``name`` of ``owner``: "your Hand", "P's Hand", "the Won of the owner of ..."."""
    if len(owner.split()) > 4:
        return f"the {name} of {owner}"
    return f"{possessive(owner)} {name}"


def series(items: list[str], joiner: str = "and") -> str:
    """Return ``items`` as "a, b and c"."""
    items = [item for item in items if item]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {joiner} " + items[-1]


def count_name(name: str) -> str:
    """Return a stored number's name as a count: "Score", "Broken count"."""
    said = place(name)
    return said if said.split()[-1].lower() in _COUNTING else f"{said} count"


def is_kind_of(node: object, *kinds: str) -> bool:
    """Return whether ``node`` is a form of one of ``kinds``."""
    return isinstance(node, Node) and node.kind in kinds


def is_names(node: object) -> bool:
    """Return whether ``node`` is a list of NAMEs."""
    return isinstance(node, Node) and node.kind == "names"
