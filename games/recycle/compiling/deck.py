"""Cards of a RECYCLE deck: the attribute tree, each card's attributes and its name.

``(deck (RANK (A, TWO)) (COLOR (RED (SUIT (HEARTS, DIAMONDS))) (BLACK ...)))``
makes one card for every combination: an attribute ``(NAME (V1, V2, ...))``
takes each listed value; ``(NAME (V sub-attributes...) ...)`` takes each value
with the sub-attributes under it.
"""

from __future__ import annotations

from games.recycle.reading.syntax import Node

RANKS = {
    "A": "A", "ACE": "A", "ONE": "A", "TWO": "2", "THREE": "3", "FOUR": "4", "FIVE": "5", "SIX": "6",
    "SEVEN": "7", "EIGHT": "8", "NINE": "9", "TEN": "T", "J": "J", "JACK": "J", "Q": "Q",
    "QUEEN": "Q", "K": "K", "KING": "K",
}  # fmt: skip
SUITS = {"CLUBS": "C", "DIAMONDS": "D", "HEARTS": "H", "SPADES": "S"}


def _attribute(node: Node, limit: int) -> list[dict[str, str]] | None:
    """Return the value assignments an attribute node ``(NAME value-node...)`` allows."""
    name, *rest = node.args
    if not rest or any(isinstance(r, str) for r in rest):
        raise node.error(f"attribute {name} needs its values, as in ({name} (V1, V2))")
    out: list[dict[str, str]] = []
    for value_node in rest:
        names = [a for a in value_node.args if isinstance(a, str)]
        subs = [a for a in value_node.args if not isinstance(a, str)]
        if not subs:
            out.extend({name: v} for v in names)
            continue
        if len(names) != 1:
            raise value_node.error("a value with sub-attributes is one name, as in (RED (SUIT (HEARTS)))")
        combos = combinations(subs, limit)
        if combos is None:
            return None
        out.extend({name: names[0], **combo} for combo in combos)
        if len(out) > limit:
            return None
    return out


def combinations(attributes: list[Node], limit: int) -> list[dict[str, str]] | None:
    """Return every card (as its attribute values) the attribute nodes make together.

    Returns ``None`` as soon as there would be more than ``limit`` cards, before
    making them (ten attributes of ten values would be ten billion cards).
    """
    combos: list[dict[str, str]] = [{}]
    for attribute in attributes:
        values = _attribute(attribute, limit)
        if values is None or len(combos) * len(values) > limit:
            return None
        combos = [{**left, **right} for left in combos for right in values]
    return combos


def card_name(attrs: dict[str, str]) -> str:
    """Return a card's name: ``"9H"`` for a French RANK and SUIT, else its values joined by '-'."""
    rank, suit = RANKS.get(attrs.get("RANK", "")), SUITS.get(attrs.get("SUIT", ""))
    if rank and suit:
        return rank + suit
    return "-".join(attrs[k] for k in sorted(attrs))
