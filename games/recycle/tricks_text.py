"""The trick rules of a RECYCLE program in words: following suit, trumps, who wins a trick.

Found by their usual coding in CardStock's files: a choice that filters the hand
by ``(== (cardatt SUIT 'C) (game str LEAD))`` follows suit; a trick goes to the
``owner`` of the ``max`` (or ``min``) card by a point map, whose suit entries
rank trumps above the suit led.
"""

from __future__ import annotations

from typing import Any

from games.recycle.forms import is_kind, sentence, walk
from games.recycle.syntax import Node


class TrickRules:
    """The trick rules of the describer's program (``root``, ``say``)."""

    root: Node
    say: Any

    def tricks(self) -> str:
        """Say the trick rules where the program has them: following suit, trumps, who wins."""
        follow = next((n for n in walk(self.root) if n.kind == "filter" and self._follows(n)), None)
        winner = next(
            (n for n in walk(self.root) if n.kind == "owner" and is_kind(n.args[0], "max_card", "min_card")),
            None,
        )
        if follow is None and winner is None:
            return ""
        parts = []
        if follow is not None:
            led = self.say.value(
                follow.args[2].args[1]
                if is_kind(follow.args[2].args[1], "game_string", "owned_string")
                else follow.args[2].args[2]
            )
            parts.append(
                f"you must follow suit: play a card of the suit led ({led}) if you can, else any card"
            )
        if winner is not None:
            using = winner.args[0].args[1]
            order = self.precedence(using)
            high = "highest" if winner.args[0].kind == "max_card" else "lowest"
            parts.append(
                f"the trick goes to whoever played the {high} card by {self.say.value(using)}{order}"
            )
        return sentence("Tricks: " + "; ".join(parts))

    def _follows(self, node: Node) -> bool:
        condition = node.args[2]
        if not is_kind(condition, "compare") or condition.args[0] != "==":
            return False
        sides = condition.args[1:]
        suit = any(
            is_kind(s, "cardatt") and is_kind(s.args[0], "name") and s.args[0].args[0] == "SUIT"
            for s in sides
        )
        led = any(is_kind(s, "game_string", "owned_string") for s in sides)
        return suit and led

    def precedence(self, using: Node) -> str:
        """Say a trick's order from its point map: trumps first, then the suit led, then rank."""
        name = using.args[-1] if is_kind(using, "game_points", "owned_points") else None
        entries = [
            (conds, pts)
            for node in walk(self.root)
            if node.kind == "set_points" and node.args[0].args[-1] == name
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
            said.append(f"only a card of {suits[0][1]} can win")
        if ranks:
            ranks.sort(reverse=True)
            said.append(f"{'then ' if said else ''}by rank, {ranks[0][1]} highest and {ranks[-1][1]} lowest")
        return ": " + ", ".join(said) if said else ""
