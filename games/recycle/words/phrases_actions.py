"""A RECYCLE action said in English ("deal 13 cards from the Stock to each player's Hand").

``Phrases`` says every action of the grammar on top of ``ValuePhrases``'s operands;
a deal (``all player`` of ``repeat N`` moves) and a whole-pile move are said as such.
"""

from __future__ import annotations

from games.recycle.compiling.fast import shape
from games.recycle.reading.forms import walk
from games.recycle.reading.syntax import Node
from games.recycle.words.phrases import ValuePhrases, place, series
from games.recycle.words.phrases_words import is_kind_of


class Phrases(ValuePhrases):
    """Says the operands and actions of one description."""

    def action(self, node: object) -> str:
        """Return what an action (or a ``do``, a guarded action, an ``all``) does, as words."""
        if not isinstance(node, Node):
            return str(node)
        method = getattr(self, "_a_" + node.kind, None)
        if method is None:
            return self.value(node)
        return method(*node.args)

    def _a_do(self, *actions: Node) -> str:
        return "; ".join(self.action(a) for a in actions)

    def _a_guarded(self, condition: Node, act: Node) -> str:
        condition = self._unimplied(condition, act)
        if condition is None:
            return self.action(act)
        return f"if {self.value(condition)}: {self.action(act)}"

    def _unimplied(self, condition: Node, act: Node) -> Node | None:
        """Return the guard without the tests that the action's choice says already: "there is a
        card in your Hand whose suit is the Lead: choose a card of your Hand whose suit is the
        Lead" is "choose a card of your Hand whose suit is the Lead", as a choice among no cards
        is none (Klaverjassen's moves said each long filter twice); ``None`` when nothing is left."""
        if not (isinstance(act, Node) and act.kind == "agg" and act.args[0] == "any"):
            return condition
        over = self.resolve(act.args[1])
        source = over.args[0] if is_kind_of(over, "filter") else over
        if not (isinstance(source, Node) and source.kind.endswith("location")):
            return condition  # a filter of a filter: its choice is said without the outer test
        chosen = shape(over)
        conjuncts = (
            condition.args[1:]
            if is_kind_of(condition, "logic") and condition.args[0] == "and"
            else (condition,)
        )
        kept = [c for c in conjuncts if not self._some_of(c, chosen)]
        if len(kept) == len(conjuncts):
            return condition
        if not kept:
            return None
        return kept[0] if len(kept) == 1 else Node("logic", ("and", *kept), condition.line, condition.column)

    def _some_of(self, test: object, chosen: object) -> bool:
        """Return whether ``test`` says only that the collection ``chosen`` (a shape) is not empty."""
        if not is_kind_of(test, "compare"):
            return False
        op, left, right = test.args  # type: ignore[union-attr]
        if not (is_kind_of(left, "size") and is_kind_of(right, "number")):
            return False
        some = (op in (">", "!=") and right.args[0] == 0) or (op == ">=" and right.args[0] == 1)
        return some and shape(self.resolve(left.args[0])) == chosen

    def _a_agg(self, quantifier: str, over: Node, var: str, body: Node) -> str:
        dealt = self._deal(over, var, body)
        if dealt:
            return dealt
        noun = self.noun(over, var, body)
        chooses = quantifier == "any" and self.choosing > 0
        with self.bind(var, noun) as called:
            which = "a" if chooses else "each"
            head = self.chosen(over, var, which, body)
            said = self.action(body)
        if chooses:
            played = self._played(var, body, head)
            return played or f"choose {head}, then {said}"
        if not called.startswith("that ") and head.startswith(f"each {noun} "):
            # A loop inside a loop over the same kind: its item is named ("the third card").
            return f"for {head} ({called}): {said}"
        return f"for {head}: {said}"

    def _deal(self, over: Node, var: str, body: Node) -> str | None:
        """Say ``(all player 'P (repeat N (move (top SRC) (top ('P ...)))))`` as a deal."""
        if not (isinstance(over, Node) and over.kind in ("all_players", "all_teams", "other_players")):
            return None
        if not (isinstance(body, Node) and body.kind == "repeat" and isinstance(body.args[1], Node)):
            return None
        count, move = body.args
        if move.kind != "move" or count == "all":
            return None
        noun = self.noun(over)
        with self.bind(var, noun) as called, self.spelled_out():
            source, target = (self.value(end) for end in move.args)
        whom = {"all_players": "each player", "all_teams": "each team"}.get(over.kind, "each other player")
        target = target.replace(f"{called}'s ", f"{whom}'s ")
        source = source.replace("the top card of ", "")
        target = target.replace("the top card of ", "")
        many = self.value(count)
        return f"deal {many} {'card' if many == '1' else 'cards'} from {source} to {target}"

    def _played(self, var: str, body: object, head: str) -> str | None:
        """Say a card of yours chosen and moved to the top of a place as a person says it:
        "play to your Trick a card of your Hand whose suit is the Lead" (the place before the
        card, whose description may be long), not "choose ..., then move that card to the top
        of your Trick"; None for any other choice."""
        if not (head.startswith("a card of your ") and is_kind_of(body, "move")):
            return None
        source, target = body.args  # type: ignore[union-attr]
        if not (is_kind_of(source, "var") and source.args[0] == var and is_kind_of(target, "top")):
            return None
        if any(is_kind_of(n, "var") and n.args[0] == var for n in walk(target)):
            return None
        return f"play to {self.value(target.args[0])} {head}"

    def _a_let(self, value: Node, var: str, body: Node) -> str:
        # The value is said where it is used: "the top card of your Hand" reads better than a name.
        said = self.value(value)
        before = self.lets.get(var)
        self.lets[var] = value
        try:
            # Short values and cards are said where used; a name given to a value counts as no
            # item in scope ("that card" stays the card a loop is at).
            if len(said) <= 50 or self.noun(value) == "card":
                with self.bind(var, "", said):
                    return self.action(body)
            if isinstance(value, Node) and value.kind == "owner":  # who took the trick
                with self.bind(var, "winner", "the winner"):
                    return f"the winner is {said}; {self.action(body)}"
            noun = self.noun(value)
            if isinstance(value, Node) and value.kind in ("size", "sum", "arith", "score", "number"):
                noun = "number"
            with self.bind(var, noun if noun != "one" else "value") as called:
                return f"let {called} be {said}; {self.action(body)}"
        finally:
            if before is None:
                self.lets.pop(var, None)
            else:
                self.lets[var] = before

    def _a_put_points(self, var: str, *awards: Node) -> str:
        return f"set the {place(var)} points ({self._awards(var, awards)})"

    def _a_set_points(self, target: Node, *awards: Node) -> str:
        name = target.args[-1] if isinstance(target, Node) else str(target)
        return f"set {self.value(target)} ({self._awards(name, awards)})"

    def _award_parts(self, award: Node) -> tuple[list[tuple[str, str]], str]:
        *subs, points = award.args
        return [(self.value(s.args[0]).lower(), self.value(s.args[1])) for s in subs], self.value(points)

    def _awards(self, name: object, awards: tuple) -> str:
        parts = []
        for conditions, points in (self._award_parts(a) for a in awards):
            said = " and ".join(
                value if attr in ("rank", "suit") else f"{attr} {value}" for attr, value in conditions
            )
            if sorted(attr for attr, _ in conditions) == ["rank", "suit"]:
                said = " of ".join(value for _, value in sorted(conditions))
            parts.append(f"{said}: {points}")
        if len(parts) > 8:
            parts = [*parts[:8], f"and {len(parts) - 8} more"]
        return ", ".join(parts)

    def _a_cycle(self, which: str, target: object) -> str:
        who = self.value(target)
        if which == "next":
            return f"{who} plays next" if who != "you" else "you play again"
        return f"{who} becomes the current player" if who != "you" else "you stay the current player"

    def _a_set(self, target: Node, value: Node) -> str:
        if isinstance(value, Node) and value.kind == "name" and value.args[0] == "NONE":
            return f"clear {self.value(target)}"
        return f"set {self.value(target)} to {self.value(value)}"

    def _a_inc(self, target: Node, amount: Node) -> str:
        return f"add {self.value(amount)} to {self.value(target)}"

    def _a_dec(self, target: Node, amount: Node) -> str:
        return f"take {self.value(amount)} from {self.value(target)}"

    def _a_move(self, source: Node, target: Node) -> str:
        return f"move {self.value(source)} to {self.value(target).replace('the top card of ', 'the top of ')}"

    def _a_remember(self, source: Node, target: Node) -> str:
        where = self.value(target).replace("the top card of ", "the top of ")
        return f"remember {self.value(source)} in {where}"

    def _a_forget(self, what: Node) -> str:
        return f"forget {self.value(what)}"

    def _a_shuffle(self, what: Node) -> str:
        return f"shuffle {self.value(what)}"

    def _a_turn_pass(self) -> str:
        return "pass"

    def _a_repeat(self, count: object, act: Node) -> str:
        if count == "all" and isinstance(act, Node) and act.kind == "move":
            source, target = (self.value(end).replace("the top card of ", "") for end in act.args)
            return f"move every card of {source.removeprefix('the cards of ')} to {target}"
        if count == "all":
            return f"{self.action(act)}, as long as it can"
        if isinstance(act, Node) and act.kind == "move":
            source, target = (self.value(end).replace("the top card of ", "") for end in act.args)
            return f"move {self.value(count)} cards from {source} to {target}"
        return f"{self.value(count)} times: {self.action(act)}"

    def _a_create_deck(self, *args: Node) -> str:
        return f"put a new deck in {self.value(args[-2])}"

    def _a_create_teams(self, *teams: Node) -> str:
        return "form the teams " + series(["/".join(str(p + 1) for p in t.args) for t in teams])
