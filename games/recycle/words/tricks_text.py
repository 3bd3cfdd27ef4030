"""The trick rules of a RECYCLE program in words: following suit, trumps, who wins a trick.

Found by their usual coding in CardStock's files: a choice that filters the hand
by ``(== (cardatt SUIT 'C) (game str LEAD))`` follows suit; a trick goes to the
``owner`` of the ``max`` (or ``min``) card by a point map, whose suit entries
rank trumps above the suit led.
"""

from __future__ import annotations

import re
from typing import Any

from games.recycle.reading.forms import is_kind, sentence, walk
from games.recycle.reading.syntax import Node


def point_maps(root: Node, using: object) -> list[Node]:
    """Return the forms that set the point map ``using`` names (``set`` of ``(game points
    NAME)``, or ``put points 'NAME``)."""
    if is_kind(using, "game_points", "owned_points"):
        name = using.args[-1]
        return [n for n in walk(root) if n.kind == "set_points" and n.args[0].args[-1] == name]
    if is_kind(using, "var"):
        return [n for n in walk(root) if n.kind == "put_points" and n.args[0] == using.args[0]]
    return []


def _same(one: object, other: object) -> bool:
    return is_kind(one, "name") and is_kind(other, "name") and one.args == other.args


class TrickRules:
    """The trick rules of the describer's program (``root``, ``say``)."""

    root: Node
    say: Any

    def tricks(self) -> str:
        """Say the trick rules where the program has them: following suit, trumps, who wins."""
        follow = next(
            (led for n in walk(self.root) if n.kind == "filter" for led in [self._led(n)] if led), None
        )
        winner = next(
            (n for n in walk(self.root) if n.kind == "owner" and is_kind(n.args[0], "max_card", "min_card")),
            None,
        )
        if winner is None:  # matching a suit with no one taking the cards (Crazy Eights) is no trick
            return ""
        parts = []
        if follow is not None:
            led = self.say.value(follow)
            parts.append(
                f"you must follow suit: play a card of the suit led ({led}) if you can, else any card"
            )
        if winner is not None:
            of, using = winner.args[0].args
            order = self.precedence(using)
            high = "highest" if winner.args[0].kind == "max_card" else "lowest"
            if not self.takes_tricks():  # a showdown: the best card wins, no trick is taken
                best = (
                    f"whoever has the {high} card of {self.say.value(of)} by {self.say._points(using)} wins"
                )
                return sentence("Comparing cards: " + best + (f" ({order[2:]})" if order else ""))
            parts.append(
                f"the trick goes to whoever played the {high} card by {self.say._points(using)}{order}"
            )
        return sentence("Tricks: " + "; ".join(parts))

    def takes_tricks(self) -> bool:
        """Return whether the game plays tricks: the owner of the best card is found, and
        players follow suit or the place compared is named like a trick (``TRICK``, ``PLAYED``)."""
        winners = [
            n for n in walk(self.root) if n.kind == "owner" and is_kind(n.args[0], "max_card", "min_card")
        ]
        if winners and any(n.kind == "filter" and self._led(n) is not None for n in walk(self.root)):
            return True
        for node in winners:
            names = [n.args[-1] for n in walk(node) if n.kind in ("owned_location", "game_location")]
            if any(isinstance(x, str) and re.search("TRICK|PLAY", x) for x in names):
                return True
        return False

    def _led(self, node: Node) -> Node | None:
        """Return what a filter of cards by ``(== (cardatt SUIT 'C) LED)`` compares to: the
        suit led (a remembered word, or the suit of a remembered card), else None."""
        var, condition = node.args[1], node.args[2]
        if not is_kind(condition, "compare") or condition.args[0] != "==":
            return None

        def own_suit(side: object) -> bool:
            """Return whether ``side`` is the suit of the filter's own card."""
            return (
                is_kind(side, "cardatt")
                and is_kind(side.args[0], "name")
                and side.args[0].args[0] == "SUIT"
                and is_kind(side.args[1], "var")
                and side.args[1].args[0] == var
            )

        left, right = condition.args[1:]
        for mine, other in ((left, right), (right, left)):
            if own_suit(mine) and (
                is_kind(other, "game_string", "owned_string")
                or (is_kind(other, "cardatt") and not own_suit(other) and _same(other.args[0], mine.args[0]))
            ):
                return other
        return None

    def precedence(self, using: Node) -> str:
        """Say a trick's order from its point map: trumps first, then the suit led, then rank."""
        entries = [
            (conds, pts)
            for node in point_maps(self.root, using)
            for conds, pts in (self.say._award_parts(a) for a in node.args[1:])
        ]
        suits = [
            (int(pts), value)
            for conds, pts in entries
            if len(conds) == 1 and conds[0][0] == "suit"
            for value in [conds[0][1]]
            if pts.isdigit()
        ]
        ranks = [
            (int(pts), conds[0][1])
            for conds, pts in entries
            if len(conds) == 1 and conds[0][0] == "rank"
            if pts.isdigit()
        ]
        said = []
        suits.sort(reverse=True)
        if len(suits) >= 2:
            said.append(
                f"a card of {suits[0][1]} (trumps) beats one of {suits[1][1]} (the suit led), "
                "which beats any other"
            )
        elif suits:
            said.append(f"a card of {suits[0][1]} beats any other")
        if ranks:
            ranks.sort(reverse=True)
            said.append(f"{'then ' if said else ''}by rank, {ranks[0][1]} highest and {ranks[-1][1]} lowest")
        return ": " + ", ".join(said) if said else ""
