"""A RECYCLE operand said in English: the words ``describe`` builds the rules text from.

``ValuePhrases.value`` says an operand ("your Hand", "the top card of the Stock",
"T's Score is at least 7"); ``phrases_actions.Phrases`` adds the actions. The
current player is "you" (a player reading the rules is the one on turn). Every
form of the grammar has a phrase, so any description that loads can be said;
names go through ``names.readable``.
"""

from __future__ import annotations

import re

from games.recycle.compiling.fast import shape
from games.recycle.reading.syntax import Node
from games.recycle.words.naming import MIN_CHARS
from games.recycle.words.phrases_cards import CardPhrases
from games.recycle.words.phrases_words import count_name, is_kind_of, owned, place, possessive, series, word

_ARITH = {"+": "plus", "-": "minus", "*": "times", "//": "divided by", "%": "modulo", "^": "to the power"}
_COMPARE = {
    "==": "is", "!=": "is not", "<": "is less than", ">": "is more than",
    "<=": "is at most", ">=": "is at least",
}  # fmt: skip
_WHO = {"current": "you", "next": "the next player", "previous": "the previous player"}
_TEAM_WHO = {
    "current": "your team",
    "next": "the next player's team",
    "previous": "the previous player's team",
}
_FACE = {"hloc": "face-down ", "vloc": "face-up ", "iloc": "", "mem": "remembered "}
LOCATION_KINDS = {
    "iloc": "seen only by its owner",
    "vloc": "face up, seen by everyone",
    "hloc": "face down, seen by no one",
    "mem": "remembered copies of cards",
}


def _alternatives(parts: tuple) -> list:
    """The parts of nested "or"s, in order: (or (or A B) C) is A, B, C."""
    out = []
    for part in parts:
        nested = is_kind_of(part, "logic") and part.args[0] == "or"
        out.extend(_alternatives(part.args[1:]) if nested else [part])
    return out


def _one_word_apart(said: list[str]) -> str | None:
    """Return three or more alternatives that differ in one word as one: "the total Clubs,
    Hearts or Spades value of the cards in your Hand is 5" (not that sentence three times);
    None when they differ more. Only for "or": "the total Clubs and Hearts value is 5" would
    read as a sum."""
    words = [s.split(" ") for s in said]
    if len(said) < 3 or len({len(w) for w in words}) != 1 or any(re.search(r"[,;:()]", s) for s in said):
        return None
    apart = [i for i in range(len(words[0])) if len({w[i] for w in words}) > 1]
    if len(apart) != 1:
        return None
    at = apart[0]
    return " ".join([*words[0][:at], series([w[at] for w in words], "or"), *words[0][at + 1 :]])


class ValuePhrases(CardPhrases):
    """Says the operands of one description (its declared names and card attributes:
    ``Bindings``)."""

    # Values -----------------------------------------------------------------

    def value(self, node: object) -> str:
        """Return an operand (a value, a collection, a condition) as words."""
        if isinstance(node, str):
            return _WHO.get(node, word(node))
        if isinstance(node, int):
            return str(node)
        if not isinstance(node, Node):
            return str(node)
        method = getattr(self, "_v_" + node.kind, None)
        if method is None:
            return node.kind.replace("_", " ")
        said = method(*node.args)
        if len(said) >= MIN_CHARS:
            self.phrases[said] += 1
        return said

    def _name(self, name: object) -> str:
        return place(name) if isinstance(name, str) else self.value(name)

    def _v_var(self, name: str) -> str:
        return self.say_var(name)

    def _names_list(self, names: tuple, noun: str = "", joiner: str = "or") -> str:
        """Say a list of NAMEs: "ace, 2 or king"; places as they are named ("One, Two")."""
        return series([place(n) if noun in ("place", "count") else word(n) for n in names], joiner)

    def _placed(self, kind: str, name: object) -> str | None:
        """Say a place a loop names (``('P hloc 'L)``): "face-down place", else None."""
        if isinstance(name, Node) and name.kind == "var" and self.called(name.args[0]):
            called = self.called(name.args[0]) or ""
            noun = called.removeprefix("that ").removeprefix("the ")
            return f"{_FACE.get(kind, '')}{noun}"
        return None

    def _v_name(self, name: str) -> str:
        return "none" if name == "NONE" else word(name)

    def _v_number(self, number: int) -> str:
        return str(number)

    def _v_all_players(self) -> str:
        return "the players"

    def _v_all_teams(self) -> str:
        return "the teams"

    def _v_game_location(self, kind: str, name: object) -> str:
        return "the " + (self._placed(kind, name) or self._name(name))

    def _v_owned_location(self, owner: Node, kind: str, name: object) -> str:
        return owned(self._whose(owner), self._placed(kind, name) or self._name(name))

    def _v_game_storage(self, name: object) -> str:
        return "the " + (count_name(name) if isinstance(name, str) else self._counted(name))

    def _v_owned_storage(self, owner: Node, name: object) -> str:
        return owned(self._whose(owner), count_name(name) if isinstance(name, str) else self._counted(name))

    def _whose(self, owner: object) -> str:
        """Say the owner of a place or count: "they" (so "their Hand") for the one player a
        loop or choice goes over, as a person writes "for each player: deal 2 cards to their
        Hand"; with two players in scope, "that player" and "the other player" tell them apart."""
        said = self.value(owner)
        players = [noun for noun, _ in self.bound.values() if noun == "player"]
        return "they" if said == "that player" and len(players) == 1 and not self.spelled else said

    def _counted(self, name: object) -> str:
        """Say a count a loop names (``('P sto 'W)`` for each ``'W`` of a list): "count"."""
        said = self.value(name)
        if said.startswith(("that ", "the other")):
            return said.removeprefix("that ").removeprefix("the ")
        return said

    def _v_game_string(self, name: object) -> str:
        return "the " + self._name(name)

    def _v_owned_string(self, owner: Node, name: object) -> str:
        return owned(self._whose(owner), self._name(name))

    def _v_game_points(self, name: object) -> str:
        said = self._name(name)
        return f"the {said}" if said.lower().endswith("points") else f"the {said} points"

    def _v_owned_points(self, owner: Node, name: object) -> str:
        return f"{possessive(self._whose(owner))} {self._name(name)} points"

    def _v_player(self, who: object) -> str:
        if isinstance(who, int):
            return f"player {who + 1}"
        return _WHO.get(str(who), str(who))

    def _v_team_of_cycle(self, who: object) -> str:
        if isinstance(who, int):
            return f"team {who + 1}"
        return _TEAM_WHO.get(str(who), str(who))

    def _v_team_of(self, of: Node) -> str:
        said = self.value(of)
        # "the team of whoever has the highest card", not "whoever has the highest card's team"
        return f"the team of {said}" if said.startswith("whoever ") else possessive(said) + " team"

    def _v_owner(self, of: Node) -> str:
        if isinstance(of, Node) and of.kind in ("max_card", "min_card"):
            return f"whoever has {self.value(of)}"
        return f"the owner of {self.value(of)}"

    def _v_other_players(self) -> str:
        return "the other players"

    def _v_other_teams(self) -> str:
        return "the other teams"

    def _v_cardatt(self, attr: Node, card: Node) -> str:
        return f"the {self.value(attr).lower()} of {self.value(card)}"

    def _v_arith(self, op: str, left: Node, right: Node) -> str:
        return f"{self.value(left)} {_ARITH.get(op, op)} {self.value(right)}"

    def _v_compare(self, op: str, left: Node, right: Node) -> str:
        said = self._compared(op, left, right)
        # "all of your face-down places are empty": a plural subject takes "are".
        return re.sub(r"^(all of [^;]*?\)) is\b", r"\1 are", said)

    def _compared(self, op: str, left: Node, right: Node) -> str:
        if is_kind_of(right, "name") and right.args[0] == "NONE" and op in ("==", "!="):
            return f"{self.value(left)} is {'not ' * (op == '==')}set"
        if (
            isinstance(left, Node)
            and left.kind == "size"
            and isinstance(right, Node)
            and right.kind == "number"
        ):
            of = self.resolve(left.args[0])
            if (
                isinstance(of, Node)
                and of.kind == "filter"
                and right.args[0] == 0
                and op in ("==", "<=", "!=", ">")
            ):
                there = "there is no" if op in ("==", "<=") else "there is a"
                return f"{there} {self._such(of, many=False)}"
            if right.args[0] == 0 and op in ("==", "<="):
                return f"{self.value(of)} is empty"
            if right.args[0] == 0 and op in ("!=", ">"):
                return f"{self.value(of)} is not empty"
        only = self._only(op, left, right)
        if only:
            return only
        if (
            is_kind_of(left, "score")
            and is_kind_of(right, "score")
            and shape(left.args[1]) == shape(right.args[1])
        ):
            # "the Power value of that card is more than that of the highest card": one scale.
            return f"{self.value(left)} {_COMPARE.get(op, op)} that of {self.value(right.args[0])}"
        return f"{self.value(left)} {_COMPARE.get(op, op)} {self.value(right)}"

    def _v_logic(self, op: str, *parts: Node) -> str:
        if op == "or" and any(is_kind_of(p, "logic") and p.args[0] == "or" for p in parts):
            # (or (or A B) C): one "or" of A, B and C, so that alternatives a word apart merge.
            merged = _one_word_apart([self.value(p) for p in _alternatives(parts)])
            if merged:
                return merged
        said = [self.value(p) for p in parts]
        subject = self._one_subject(parts, said)
        if subject:
            # "your Points is less than 26 and more than 12": the subject said once.
            said = [said[0], *(s.removeprefix(subject + " is ") for s in said[1:])]
            return series(said, op)  # short parts: "is king, queen, ace or 10"
        merged = _one_word_apart(said) if op == "or" else None
        if merged:
            return merged
        return series(said, op) if len(said) < 3 else "; ".join(said[:-1]) + f"; {op} " + said[-1]

    def _only(self, op: str, left: object, right: object) -> str | None:
        """Say "the number of cards in your Hand whose suit is the Trump is the number of cards
        in your Hand" as a person does: "your Hand holds only cards whose suit is the Trump"."""
        if op != "==" or not (is_kind_of(left, "size") and is_kind_of(right, "size")):
            return None
        of, whole = self.resolve(left.args[0]), self.resolve(right.args[0])  # type: ignore[union-attr]
        if not (is_kind_of(of, "filter") and shape(of.args[0]) == shape(whole)):
            return None
        noun = self.noun(of.args[0])
        if noun != "card":
            return None
        return f"{self.value(whole)} holds only cards {self.where(of.args[1], of.args[2], noun)}"

    def _one_subject(self, parts: tuple, said: list[str]) -> str | None:
        """Return the words of the left side every comparison of ``parts`` (said as ``said``)
        shares, if each is said "<left> is ..." (so that the later ones can drop it); else None."""
        if len(parts) < 2 or not all(is_kind_of(p, "compare") for p in parts):
            return None
        if len({shape(p.args[1]) for p in parts}) != 1:
            return None
        subject = self.value(parts[0].args[1])
        return subject if all(s.startswith(subject + " is ") for s in said) else None

    def _v_negate(self, of: Node) -> str:
        return f"it is not so that {self.value(of)}"

    def _v_names(self, *names: str) -> str:
        return self._names_list(names)

    def _v_agg(self, quantifier: str, over: Node, var: str, body: Node) -> str:
        which = "some" if quantifier == "any" else "every"
        noun = self.noun(over, var, body)
        with self.bind(var, noun) as called, self.spelled_out():
            said = self.value(body)
        domain = self.domain(over, var, which, body)
        if said.count(called) == 1 and said.startswith(f"{called}'s ") and not re.search(r" of |\(", domain):
            return f"{domain}'s " + said[len(called) + 3 :]
        return f"for {domain}, {said}"

    def chosen(self, over: object, var: str, which: str, body: object = None) -> str:
        """Say one item ``var`` of ``over`` as a choice or loop introduces it ("a card of your
        Hand whose rank is 8", "each player"); the caller binds ``var`` for the body."""
        head = self.domain(over, var, which, body)
        over = self.resolve(over)
        if isinstance(over, Node) and over.kind == "filter":
            called = self.called(var)
            return f"{head} {self.where(over.args[1], over.args[2], self.noun(over), called)}"
        return head
