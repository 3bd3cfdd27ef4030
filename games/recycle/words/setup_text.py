"""The opening paragraphs of a RECYCLE game's rules: the players and teams, the cards,
the places, the setup and the names declared at the top (``describe.py`` writes the
rest, stage by stage)."""

from __future__ import annotations

from games.recycle.compiling.deck import combinations
from games.recycle.compiling.program import MAX_CARDS, Program
from games.recycle.reading.forms import is_kind, sentence, walk, walk_scoped
from games.recycle.reading.syntax import Node
from games.recycle.words.phrases import LOCATION_KINDS, place, series, word
from games.recycle.words.phrases_actions import Phrases
from games.recycle.words.tricks_text import TrickRules


class SetupText(TrickRules):
    """The paragraphs of one program's rules that come before its stages."""

    def __init__(self, program: Program, text: str) -> None:
        self.program = program
        self.root: Node = program.stages[0][3]
        attributes: dict[str, set[str]] = {}
        for card in program.card_attrs:
            for attr, value in card.items():
                attributes.setdefault(attr, set()).add(value)
        self.say = Phrases(
            {name: node for name, (_, _, _, node) in program.declared.items()},
            {attr: frozenset(values) for attr, values in attributes.items()},
        )
        self.lines = text.removeprefix("\ufeff").splitlines()
        self.team_vars = {
            n.args[2] for n in walk(self.root) if n.kind == "agg" and is_kind(n.args[1], "all_teams")
        }
        self.counter = 0

    def players(self) -> str:
        """Say how many play, and the teams."""
        count = self.program.player_count
        teams = [t for t in self.program.teams if t]
        text = f"{count} player{'s' if count != 1 else ''}"
        if any(len(t) > 1 for t in teams):
            sides = series(["players " + series([str(p + 1) for p in t]) for t in teams], "against")
            text += f", in {len(teams)} teams: {sides} (partners share their team's places and counts)"
        else:
            text += ", each on their own"
        return sentence(text)

    def cards(self) -> str:
        """Say how many cards, and each attribute with its values."""
        count = self.program.card_count
        attrs = []
        # In the deck's own order (the attribute tables' order follows a set's).
        names = dict.fromkeys(attr for card in self.program.card_attrs for attr in card)
        for attr in names:
            table = self.program.attribute_table(attr)
            values = list(dict.fromkeys(v for v in table if v is not None))
            shown = series([word(v) for v in values[:14]]) + (" …" if len(values) > 14 else "")
            attrs.append(f"a {place(attr).lower()} ({shown})")
        if not count:
            return "Cards: the description makes its cards during play."
        made, decks, known = self.dealt_decks()
        if decks > 1 and known:
            count = made
        per = f"; each card has {series(attrs)}" if attrs else ""
        copies = f" ({decks} decks of {count // decks})" if decks > 1 and known and count % decks == 0 else ""
        if not known:
            copies = " in each deck (the setup makes several)"
        return sentence(f"Cards: {count} card{'s' if count != 1 else ''}{copies}{per}")

    def dealt_decks(self) -> tuple[int, int, bool]:
        """Return how many cards and decks the setup makes, counting a ``repeat``'s copies, and
        whether that is known before play (a repeat of a constant number of times)."""
        setup = next(n for n in self.root.args if n.kind == "setup")
        total = decks = 0
        known = True

        def visit(node: object, times: int) -> None:
            nonlocal total, decks, known
            if not isinstance(node, Node):
                return
            if node.kind == "create_deck":
                made = combinations(list(node.args[-1].args), MAX_CARDS) or []
                total, decks = total + len(made) * times, decks + times
            elif node.kind == "repeat":
                count = self.constant(node.args[0])
                known = known and count is not None
                visit(node.args[1], times * (count or 1))
            else:
                for arg in node.args:
                    visit(arg, times)

        visit(setup, 1)
        return total, decks, known

    def constant(self, node: object) -> int | None:
        """Return a number the description states (``8``, a declared ``'NUMP``), else None."""
        if is_kind(node, "number"):
            return node.args[0]
        if is_kind(node, "var") and node.args[0] in self.program.declared:
            known, value = self.program.declared_constant(node.args[0])
            return value if known and isinstance(value, int) else None
        return None

    def places(self) -> str:
        """Say each location: whose it is and who sees it; the places a loop names by a list
        (Golf's ``('P hloc 'L)`` for each ``'L`` of ``(ONE, ..., SIX)``) are each named, and
        places alike are said together ("One, Two and Three (each player's, face up ...)")."""
        found: dict[tuple[str, str, str], None] = {}
        for node, scope in walk_scoped(self.root, {}):
            if node.kind not in ("game_location", "owned_location"):
                continue
            owner = "the" if node.kind == "game_location" else self.owner_kind(node.args[0])
            kind, name = node.args[-2], node.args[-1]
            for one in self.place_names(name, scope):
                found.setdefault((owner, one, kind), None)
        alike: dict[str, list[str]] = {}
        for owner, name, kind in found:
            whose = {"the": "shared", "player": "each player's", "team": "each team's"}[owner]
            seen = "face down" if owner == "the" and kind == "iloc" else LOCATION_KINDS.get(kind, kind)
            said = alike.setdefault(f"{whose}, {seen}", [])
            if place(name) not in said:
                said.append(place(name))
        parts = [f"{series(names)} ({how})" for how, names in alike.items()]
        return sentence("Places: " + "; ".join(parts)) if parts else ""

    def place_names(self, name: object, scope: dict[str, Node]) -> list[str]:
        """Return the names a location's name stands for: itself, or each NAME of the list a
        loop's variable goes over."""
        if isinstance(name, str):
            return [name]
        if is_kind(name, "var") and name.args[0] in scope:
            over = self.say.resolve(scope[name.args[0]])
            if is_kind(over, "names"):
                return [n for n in over.args if isinstance(n, str)]
        return []

    def owner_kind(self, owner: object) -> str:
        """Return "team" when a place's owner is a team, else "player"."""
        if isinstance(owner, Node):
            if owner.kind in ("team_of_cycle", "team_of", "all_teams", "other_teams"):
                return "team"
            if owner.kind == "var" and owner.args[0] in self.team_vars:
                return "team"
        return "player"

    def setup(self) -> str:
        """Say where the cards start and what the setup does."""
        setup = next(n for n in self.root.args if n.kind == "setup")
        said = [self.say.action(n) for n in setup.args[1:] if n.kind not in ("create_teams", "create_deck")]
        decks = [n for n in setup.args if n.kind == "create_deck"]
        if decks:
            places = list(dict.fromkeys(self.say.value(d.args[-2]) for d in decks))
            said.insert(0, "the cards start in " + series(places))
        return sentence("Setup: " + "; ".join(said)) if said else ""

    def names(self) -> str:
        """Return '': a name declared at the top is said as its value wherever it is used."""
        return ""
