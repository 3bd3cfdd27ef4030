"""A compiled RECYCLE description: its cards, players, setup, stages, choices and scoring.

``Program(text)`` parses and compiles; every form's kind is checked at once, so a
bad description fails here, with the line and column, before any game starts.
Stages and choices get numbers (the root body is 0) by which a state records
where play stands.
"""

from __future__ import annotations

from typing import Any

from games.cards import CARD_INDEX
from games.recycle.compiling.actions import Actions
from games.recycle.compiling.choices import plays_plan
from games.recycle.compiling.deck import card_name, combinations
from games.recycle.compiling.fast import Fn
from games.recycle.compiling.picks import pick_part
from games.recycle.errors import RecycleError
from games.recycle.reading.kinds import ACTION, INT, NOTHING, PLAYER
from games.recycle.reading.syntax import Node, parse

MAX_PLAYERS = 12
MAX_CARDS = 1_000
MAX_STEPS = 200_000  # per move: actions, loop turns and stage rounds without a choice
MAX_MOVES = 5_000  # per game
DO, STAGE, CHOICE = "do", "stage", "choice"  # what a stage's item is (the runner compares them by identity)


class Program(Actions):
    """One description, compiled to closures over a ``RecycleState``."""

    def __init__(self, text: str, name: str = "RECYCLE game") -> None:
        super().__init__(self)
        self.name = name
        self.max_steps = MAX_STEPS
        self.max_moves = MAX_MOVES
        self.warnings: list[str] = []
        self.card_attrs: list[dict[str, str]] = []
        self.names: list[str] = []
        self.play_label: list[dict[str, str]] = []
        self.order: list[int] = []
        self.attribute_tables: dict[str, list[str | None]] = {}
        self.declared: dict[str, tuple] = {}  # name -> (kind, known, constant, node)
        self._declared_fns: dict[str, Fn] = {}
        self.stages: dict[int, tuple] = {}
        self.choices: dict[int, tuple] = {}
        self._score_tables: dict[tuple, list[int]] = {}
        self._tables_by_id: dict[int, tuple[tuple, list[int]]] = {}  # id -> (map, table), map kept alive
        self._by_name: dict[str, list[int]] = {}  # cards_named's index, of the first _named cards
        self._named = 0
        self.player_count = 0  # set by the setup
        # Each create deck form's cards, (first, end): a form run again (a repeat) makes copies
        # of the same numbers. The first ``setup_cards`` are made in the setup (conservation.py).
        self.decks: list[tuple[int, int]] = []
        self.setup_cards = 0
        self.teams: list[list[int]] = []
        self.team_of: list[int] = []
        self._keys: dict[tuple, tuple] = {}  # the game's own keys, one object each (one_key)
        self._member_tests: list[dict] = []  # member_tests' tests, emptied when a deck is made
        root = parse(text)
        declares = [n for n in root.args if n.kind == "declare"]
        setup = next(n for n in root.args if n.kind == "setup")
        bodies = [n for n in root.args if n.kind not in ("declare", "setup", "scoring")]
        scoring = root.args[-1]
        for declare in declares:
            self._declare(declare)
        self._setup(setup)
        self.stages[0] = ("root", None, [self._item(n, {}) for n in bodies], root)
        self.plays_plans = {ident: plan for ident, (_, _, plan) in self.choices.items()}  # for run()
        # What the runner reads of each stage: (a team stage, its end, its items, its node, how many).
        self.stage_plans = {
            ident: (kind == "team", end, tuple(items), node, len(items))
            for ident, (kind, end, items, node) in self.stages.items()
        }
        # A stage whose round is one choice (most tricks: every seat plays a card), by its
        # number: (a team stage, its end, the choice, its plays plan). The runner makes such a
        # round at once after a move (runner.run), without walking the stage's items.
        self.choice_rounds = {
            ident: (kind == "team", end, items[0][1], self.plays_plans[items[0][1]])
            for ident, (kind, end, items, node) in self.stages.items()
            if ident and len(items) == 1 and items[0][0] is CHOICE
        }
        direction, expression = scoring.args
        self.lowest_wins = direction == "min"
        # No two cards share a place in card order (then plays are sorted by it alone).
        self.order_unique = len(set(self.order)) == len(self.order)
        # A card's place in card order and its play's label, read without making the bound
        # method at each listing (runner.plays_of).
        self.order_of = self.order.__getitem__
        self.label_of = self.play_label.__getitem__
        self.hand_order = [CARD_INDEX.get(name, 99) for name in self.names]  # for the deal's record
        self.scoring = self.number(expression, {})

    # Declarations and setup --------------------------------------------------

    def warn(self, node: Node, message: str) -> None:
        """Record something suspicious that does not stop the game (shown when it is loaded)."""
        self.warnings.append(f"line {node.line}, column {node.column}: {message}")

    def _declare(self, node: Node) -> None:
        """Declare ``'name``: a constant when it folds (a number, a NAME, arithmetic of
        them), else an expression computed where it is used (a collection, a condition)."""
        value, name = node.args
        kind = self.kind(value, {})
        if kind in (ACTION, NOTHING):
            raise value.error(f"a declared value is a number, string, truth or collection, not a {kind}")
        known, constant = self.constant(value)
        self.declared[name] = (kind, known, constant, value)

    def is_declared(self, name: str) -> bool:
        """Return whether ``'name`` was declared at the top of the game."""
        return name in self.declared

    def declared_kind(self, name: str) -> str:
        """Return the kind of a declared variable."""
        return self.declared[name][0]

    def declared_constant(self, name: str) -> tuple[bool, Any]:
        """Return ``(True, value)`` for a declared constant, ``(False, None)`` for an expression."""
        _, known, constant, _ = self.declared[name]
        return known, constant

    def declared_value(self, name: str) -> Fn:
        """Return a declared variable's value as a closure (compiled once)."""
        _, known, constant, node = self.declared[name]
        if known:
            return lambda st, env: constant
        compiled = self._declared_fns.get(name)
        if compiled is None:
            compiled = self._declared_fns[name] = self.value(node, {})
        return compiled

    def _setup(self, node: Node) -> None:
        players_node = node.args[0].args[0]
        known, count = self.constant(players_node)
        if not known or not isinstance(count, int) or not 1 <= count <= MAX_PLAYERS:
            raise players_node.error(f"a game has 1 to {MAX_PLAYERS} players, not {count}")
        self.player_count = count
        rest = list(node.args[1:])
        if rest and rest[0].kind == "create_teams":
            self.teams = [list(team.args) for team in rest.pop(0).args]
        else:
            self.teams = [[p] for p in range(count)]
        self.team_of = [-1] * count
        for t, members in enumerate(self.teams):
            for p in members:
                if not 0 <= p < count or self.team_of[p] != -1:
                    raise node.error(f"player {p} is not one of the {count} players, or is in two teams")
                self.team_of[p] = t
        for p in range(count):
            if self.team_of[p] == -1:  # a player no team names plays alone
                self.team_of[p] = len(self.teams)
                self.teams.append([p])
        self.setup_actions = [self.action(n, {}) for n in rest]
        self.setup_cards = len(self.card_attrs)

    def deck_cards(self, node: Node) -> list[int]:
        """Make the cards of a ``create deck`` form; return their numbers."""
        made = combinations(list(node.args[-1].args), MAX_CARDS - len(self.card_attrs))
        if made is None:
            raise node.error(f"more than {MAX_CARDS} cards in the game")
        first = len(self.card_attrs)
        self.decks.append((first, first + len(made)))
        self.card_attrs.extend(made)
        self.names.extend(card_name(attrs) for attrs in made)
        # Moves and their order, made once: {"play": name}, sorted by the project's card order.
        self.play_label.extend({"play": card_name(attrs)} for attrs in made)
        self.order.extend(CARD_INDEX.get(card_name(attrs), 1000 + first + i) for i, attrs in enumerate(made))
        for attr in {a for attrs in made for a in attrs} - set(self.attribute_tables):
            self.attribute_tables[attr] = [None] * first
        for attr, table in self.attribute_tables.items():  # extended in place: closures hold them
            table.extend(attrs.get(attr) for attrs in made)
        for tests in self._member_tests:  # made for shorter tables
            tests.clear()
        return list(range(first, len(self.card_attrs)))

    def member_tests(self, table: list) -> tuple[dict[Any, Fn], Fn]:
        """Return ``(tests, fill)`` for an attribute ``table``: ``tests[v]``, once ``fill(v)`` has
        made it, tells whether a card's value is ``v`` (a set's ``__contains__``), so a filter
        keeps a hand's cards in C (``filter``), not by a comprehension a card."""
        tests: dict[Any, Fn] = {}
        self._member_tests.append(tests)

        def fill(v: Any) -> Fn:
            test = tests[v] = frozenset(c for c, x in enumerate(table) if x == v).__contains__
            return test

        return tests, fill

    def one_key(self, key: tuple) -> tuple:
        """Return the one tuple the whole program uses for the game's location or storage ``key``:
        a dict finds a key it holds by identity before comparing it item by item."""
        return self._keys.setdefault(key, key)

    def seat_keys(self, kind: str, name: str) -> tuple[tuple, ...]:
        """Return the keys of every seat's ``(seat KIND NAME)``, indexed by seat, each the one
        tuple the program uses (``one_key``): a seat's key is read, not made."""
        return tuple(self.one_key((p, kind, name)) for p in range(MAX_PLAYERS))

    @property
    def _zeros(self) -> list[int]:
        return [0] * len(self.card_attrs)

    @property
    def card_count(self) -> int:
        """Return how many cards the game has."""
        return len(self.card_attrs)

    def cards_named(self, name: str) -> list[int]:
        """Return the cards called ``name`` (several decks may repeat a name), in card order."""
        while self._named < len(self.names):  # decks made during play are indexed as they come
            self._by_name.setdefault(self.names[self._named], []).append(self._named)
            self._named += 1
        return self._by_name.get(name, [])

    def attribute_table(self, attr: str) -> list[str | None]:
        """Return each card's value of ``attr`` (filled once the setup has made the decks)."""
        table = self.attribute_tables.get(attr)
        if table is None:
            table = self.attribute_tables[attr] = [None] * len(self.card_attrs)
        return table

    # Structure -----------------------------------------------------------------

    def _item(self, node: Node, scope: dict[str, str]) -> tuple:
        if node.kind == "stage":
            kind_node, end, *body = node.args
            ident = len(self.stages) + len(self.choices) + 1
            self.stages[ident] = (None, None, None, node)  # reserve the number
            end_fn = self.truth(end.args[0], scope)
            items = [self._item(n, scope) for n in body]
            self.stages[ident] = (kind_node, end_fn, items, node)
            return (STAGE, ident)
        if node.kind == "choice":
            ident = len(self.stages) + len(self.choices) + 1
            self.shared_table = {}  # this choice's collections read by several parts
            # A part picking a subset is searched, not listed whole (picks.py).
            parts = [pick_part(self, n, scope) or self.options(n, scope, top=True) for n in node.args]
            self.choices[ident] = (parts, node, plays_plan(parts))
            return (CHOICE, ident)
        return (DO, self.action(node, scope))

    # Scoring -------------------------------------------------------------------

    def card_score(self, st: Any, mapname: str, card: int) -> int:
        """Return ``card``'s points in the point map ``'mapname`` (the sum of every entry it matches)."""
        return self.score_table(st, mapname)[card]

    def score_table(self, st: Any, mapname: str) -> list[int]:
        """Return every card's points in the point map ``'mapname`` (all 0 when it is not set)."""
        entries = st.points.get(mapname)
        if not entries:
            return self._zeros
        seen = self._tables_by_id.get(id(entries))  # the map put last is usually the same tuple
        if seen is not None and seen[0] is entries:
            return seen[1]
        table = self._score_tables.get(entries)
        if table is None:
            if len(self._score_tables) > 256:
                self._score_tables.clear()
            table = [
                sum(pts for conds, pts in entries if all(attrs.get(a) in vs for a, vs in conds))
                for attrs in self.card_attrs
            ]
            self._score_tables[entries] = table
        if len(self._tables_by_id) > 256:
            self._tables_by_id.clear()
        self._tables_by_id[id(entries)] = (entries, table)
        return table

    def scores(self, st: Any) -> list[int]:
        """Return every player's score by the ``scoring`` expression, each as the current player."""
        out = []
        for seat in range(st.players):
            st.cycles.append([seat, -1])
            try:
                out.append(self.scoring(st, {}) or 0)
            finally:
                st.cycles.pop()
        return out


def compile_program(text: str, name: str = "RECYCLE game") -> Program:
    """Parse and compile ``text``; raise ``RecycleError`` (with line and column) if it is not a game."""
    try:
        return Program(text, name)
    except RecycleError:
        raise
    except RecursionError:
        raise RecycleError("the description nests too deeply") from None


__all__ = ["CHOICE", "DO", "INT", "MAX_MOVES", "MAX_STEPS", "PLAYER", "STAGE", "Program", "compile_program"]
