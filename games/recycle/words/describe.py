"""Rules a person can read, made from a compiled RECYCLE program.

``describe(program, text)`` returns a ``Rules``: a one-line goal for the lobby,
the "How to play" paragraphs (the file's own leading comments, the players and
cards, the places, the setup, each stage in order with what a player may do on
a turn, the trick rules where there are tricks, what is counted, how the game
ends and who wins) and a glossary of the program's names. The words come from
``phrases`` and every name from ``names.readable``; docs/recycle.md, "Rules text".
"""

from __future__ import annotations

import re
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cached_property

from games.recycle.compiling.fast import shape
from games.recycle.compiling.program import Program
from games.recycle.reading.forms import is_kind, leading_comments, sentence, walk, walk_scoped
from games.recycle.reading.syntax import Node
from games.recycle.words.names import readable
from games.recycle.words.naming import MIN_TIMES, named
from games.recycle.words.phrases import LOCATION_KINDS, count_name, place, series
from games.recycle.words.phrases_words import word
from games.recycle.words.setup_text import SetupText

# Bounds on the text, so a huge description (200,000 characters) still lists in a few kilobytes
# per paragraph: CardStock's longest paragraph, Klaverjassen's moves, is 3,518 characters.
MAX_PARAGRAPH = 8_000
MAX_STAGES = 30
MAX_GOAL = 200
MAX_TERMS = 40
NAME = re.compile(r"\b[A-Z][A-Z0-9_]{2,}\b")  # a program's name as written: HAND, TRICKSWON


@dataclass(frozen=True)
class Rules:
    """What a player reads about a game: the goal, the paragraphs, the words."""

    goal: str
    how_to_play: tuple[str, ...]
    glossary: tuple[tuple[str, str], ...]


class _Describer(SetupText):
    """Builds the paragraphs of one program's rules (the opening ones: ``SetupText``)."""

    def body(self) -> list[str]:
        """Return a paragraph for the top-level steps and one for each stage, in play order;
        each choice's options follow the paragraph of the stage they are part of."""
        items = [n for n in self.root.args if n.kind not in ("declare", "setup", "scoring")]
        paragraphs: list[str] = []
        details: list[str] = []
        steps = self.steps(items, "", paragraphs, details)
        paragraphs[:0] = [sentence("The game, in order: " + "; then ".join(steps)), *details]
        said_again = [phrase for phrase, times in self.say.phrases.items() if times >= MIN_TIMES]
        return [named(p, said_again) for p in paragraphs]

    def steps(self, items: list[Node], prefix: str, out: list[str], details: list[str]) -> list[str]:
        """Say ``items``; a stage is numbered, said by its own paragraph(s) in ``out``; the
        options of a choice go to ``details``."""
        said = []
        number = 0
        for item in items:
            if item.kind == "stage":
                number += 1
                label = f"{prefix}{number}"
                said.append(f"stage {label}")
                out.append("")  # the stage's place, filled once its inner stages are said
                at = len(out) - 1
                inner: list[str] = []
                out[at] = self.stage(item, label, out, inner)
                out[at + 1 : at + 1] = inner
            elif item.kind == "choice":
                where = f"stage {prefix.rstrip('.')}" if prefix else "the game's first steps"
                summary, options = self.choice(item)
                said.append(summary)
                count = sum(1 for d in details if d.startswith("The moves of "))
                which = f" (choice {count + 1})" if count else ""
                details.append(f"The moves of {where}{which}: {options}")
            else:
                said.append(self.say.action(item))
        return said

    def stage(self, node: Node, label: str, out: list[str], details: list[str]) -> str:
        """Say one stage: its title, end condition and each step of a round."""
        kind, end, *body = node.args
        who = "team" if kind == "team" else "player"
        steps = self.steps(body, label + ".", out, details)
        head = f"Stage {label}{self.title(node)}: played in rounds until {self.say.value(end.args[0])}, "
        head += f'each round with the next {who} as the current one ("you"): '
        return sentence(head + "; then ".join(steps))

    def title(self, node: Node) -> str:
        """Return the comment just above (or on the line of) a stage, as " (comment)"."""
        note = self.comment_at(node)
        return f" ({note.rstrip('.')})" if note else ""

    def comment_at(self, node: Node) -> str:
        """Return the ``;`` comment lines right above ``node``'s line, joined."""
        found: list[str] = []
        index = node.line - 2
        while 0 <= index < len(self.lines) and self.lines[index].strip().startswith(";"):
            found.insert(0, self.lines[index].strip().lstrip(";").strip())
            index -= 1
        same = self.lines[node.line - 1].split(";", 1) if 0 < node.line <= len(self.lines) else []
        if not found and len(same) == 2 and re.search(r"[a-z]", same[1]):
            found.append(same[1].lstrip(";").strip())
        text = " ".join(f for f in found if f)
        if not (re.search(r"[a-z]{3}", text) and len(text) < 300):
            return ""
        return self.names_said(text)

    def names_said(self, comment: str) -> str:
        """Return an author's comment with the program's names said as the rules say them: it
        names counts and places as the program spells them ("until FINISHED"), the rules
        as words ("until Finished"); a card's attribute as the rules say it ("follow SUIT":
        "follow suit"), and a value as the rules say a value ("the EIGHT": "the 8", "said
        PICKUP": "said pick up")."""
        names = self.program_names
        attributes = self.program.attribute_tables
        values = self.program_values

        def said(match: re.Match[str]) -> str:
            name = match[0]
            if name not in names:
                return name  # the author's own capitals ("GDL", "NOTE"), not the program's
            if name in attributes:  # a card's suit, unless the game keeps one (Crazy Eights' Suit)
                return readable(name) if name in self.program_places else name.lower()
            return word(name) if name in values else readable(name)

        text = NAME.sub(said, comment)
        # A sentence that began with a name said in lower case ("SPADES in the GDL") still begins
        # with a capital.
        return text[:1].upper() + text[1:] if comment[:1].isupper() else text

    @cached_property
    def program_places(self) -> set[str]:
        """The names of the program's places and of what it keeps (counts, words, point maps)."""
        kinds = ("location", "storage", "string", "points")
        return {
            node.args[-1]
            for node in walk(self.root)
            if node.kind.endswith(kinds) and node.args and isinstance(node.args[-1], str)
        }

    @cached_property
    def program_values(self) -> set[str]:
        """The names the program uses as values: its cards' attribute values (``EIGHT``,
        ``HEARTS``) and the names it sets or compares (``PICKUP``, ``ALONE``). A name that is
        also a place (Euchre's ``ALONE``) is a value here: a comment says what was bid."""
        values = {value for attrs in self.program.card_attrs for value in attrs.values()}
        for node in walk(self.root):
            if node.kind == "name":  # not a list of names: Golf's (ONE, TWO...) names its places
                values.add(node.args[0])
        return values

    @cached_property
    def program_names(self) -> set[str]:
        """The upper-case names the description's forms use (outside its comments)."""
        return set(NAME.findall("\n".join(line.split(";", 1)[0] for line in self.lines)))

    def choice(self, node: Node) -> tuple[str, str]:
        """Return what a choice offers in short ("on your turn, choose one move: play a card
        from your Hand to your Trick") and each of its options in full."""
        with self.say.among_options():  # an ``any`` of an option is a choice (elsewhere, done for each)
            return self._choice(node)

    def _choice(self, node: Node) -> tuple[str, str]:
        options = list(node.args)
        moves = list(dict.fromkeys(m for o in options for m in self.kinds_of_move(o)))
        summary = "choose one move: " + (series(moves, "or") if moves else "one of its options")
        details = []
        runs = {start: (end, shared) for start, end, shared in shared_guards(options)}
        left: tuple = ()  # the tests the options of the run said are in leave out
        until = 0
        for index, option in enumerate(options, 1):
            if index - 1 in runs:
                until, left = runs[index - 1]
                joined = Node("logic", ("and", *left), option.line, option.column)
                when = self.say.value(left[0] if len(left) == 1 else joined)
                details.append(f"Options ({index}) to ({until}) are for when {when}.")
            said = self.say.action(without(option, left) if index <= until else option)
            note = self.comment_at(option)
            details.append(f"({index}) {sentence(note) + ' ' if note else ''}{sentence(said)}")
        return f"on your turn, {summary}", " ".join(details)

    def kinds_of_move(self, option: Node) -> list[str]:
        """Say what sort of move an option of a choice is: play, draw, take, pass, bet..."""
        with ExitStack() as bound:
            return self._kinds_of_move(option, bound)

    def _kinds_of_move(self, option: Node, bound: ExitStack) -> list[str]:
        out = []
        for node, scope in walk_scoped(option, {}):
            for var, over in scope.items():  # the items a choice picks, named as they are
                if self.say.called(var) is None:
                    bound.enter_context(self.say.bind(var, self.say.noun(over, var, option)))
            if node.kind == "set" and self._declares(node):
                return [self.say.value(node.args[1])]  # a word the player says: "check", "fold"
            if node.kind == "move":
                source, target = node.args
                src, dst = self.where(source, scope), self.where(target, scope)
                if src.startswith("your"):
                    out.append(f"play a card from {src} to {dst}")
                elif dst.startswith("your") and src.startswith("the "):
                    out.append(f"draw from {src} to {dst}")
                elif dst.startswith("your"):
                    src = re.sub(r"^((that|the other) player's|their) ", "another player's ", src)
                    out.append(f"take cards from {src} to {dst}")
                else:
                    out.append(f"move a card from {src} to {dst}")
            elif node.kind == "turn_pass":
                out.append("pass")
            elif node.kind in ("inc", "dec") and is_kind(node.args[0], "owned_storage", "game_storage"):
                if self._betting(node.args[0]):
                    out.append(f"bet ({self.say.action(node)})")
                else:
                    out.append(self.say.action(node))
        return out[:1]

    def _declares(self, node: Node) -> bool:
        """Return whether ``node`` sets your own word to a NAME (``(set (you str MOVE) FOLD)``)."""
        target, value = node.args
        mine = is_kind(target, "owned_string") and is_kind(target.args[0], "player")
        return (
            mine
            and target.args[0].args[0] == "current"
            and is_kind(value, "name")
            and value.args[0] != "NONE"
        )

    def _betting(self, target: Node) -> bool:
        name = target.args[-1]
        return isinstance(name, str) and bool(re.search("BET|BID|CHIP|POT|WAGER|STAKE", name))

    def where(self, end: object, scope: dict[str, Node], depth: int = 0) -> str:
        """Return the place a card moves from or to (the top of a place: the place; a card
        chosen from a place: that place)."""
        node = end
        while isinstance(node, Node) and node.kind in ("top", "bottom", "top_n", "bottom_n", "actual", "nth"):
            node = node.args[-1]
        if depth < 8 and isinstance(node, Node) and node.kind == "var":
            name = node.args[0]
            if name in scope:
                return self.where(scope[name], scope, depth + 1)
            if name in self.program.declared:
                return self.where(self.program.declared[name][3], scope, depth + 1)
        if depth < 8 and isinstance(node, Node) and node.kind in ("filter", "sort", "partition"):
            return self.where(node.args[0] if node.kind != "partition" else node.args[-1], scope, depth + 1)
        return self.say.value(node)

    # Counts, the end --------------------------------------------------------------

    def counts(self) -> str:
        """Say which numbers the game keeps (scores, bets, counters) and how they change."""
        kept: dict[str, str] = {}
        for node in walk(self.root):
            if node.kind in ("inc", "dec", "set") and is_kind(node.args[0], "owned_storage", "game_storage"):
                target = node.args[0]
                if not isinstance(target.args[-1], str):
                    continue
                whose = (
                    "the"
                    if target.kind == "game_storage"
                    else ("each team's" if self.owner_kind(target.args[0]) == "team" else "each player's")
                )
                kept.setdefault(f"{whose} {count_name(target.args[-1])}", "")
        maps: dict[str, Node] = {}  # each point map as first set, by name
        for node in walk(self.root):
            if node.kind == "set_points" and isinstance(node.args[0].args[-1], str):
                maps.setdefault(node.args[0].args[-1], node)
            elif node.kind == "put_points":
                maps.setdefault(node.args[0], node)
        parts = []
        if kept:
            parts.append("the game keeps " + series(list(kept)))
        for name, node in sorted(maps.items()):
            parts.append(f"cards are worth {place(name)} points ({self.say._awards(name, node.args[1:])})")
        return sentence("Counts: " + "; ".join(parts)) if parts else ""

    def ending(self) -> str:
        """Say when the game ends and who wins by the ``scoring`` form."""
        scoring = self.root.args[-1]
        direction, expression = scoring.args
        items = [n for n in self.root.args if n.kind not in ("declare", "setup", "scoring")]
        stages = [n for n in items if n.kind == "stage"]
        if items and items[-1].kind == "stage" and len(stages) == 1:
            condition = self.say.value(items[-1].args[1].args[0])
            end = f"The game ends when stage {len(stages)} ends: when {condition}"
        elif stages:
            end = f"The game ends once stage {len(stages)} has ended and the steps after it are done"
        else:
            end = "The game ends once its steps are done"
        best = "lowest" if direction == "min" else "highest"
        teams = " (partners share it)" if any(len(t) > 1 for t in self.program.teams) else ""
        score = re.sub(r"\byour\b", "their", re.sub(r"\byou\b", "they", self.say.value(expression)))
        return (
            sentence(end)
            + f" Each player's score is then {score}{teams}; the {best} score wins (a tie shares the win)."
        )

    def goal(self) -> str:
        """Return the one-line aim of the game for the lobby."""
        scoring = self.root.args[-1]
        direction, expression = scoring.args
        low = direction == "min"
        team = any(len(t) > 1 for t in self.program.teams)
        count = self.program.player_count
        who = (
            f"{count} players in {len(self.program.teams)} teams"
            if team
            else f"{count} player{'s' * (count != 1)}"
        )
        if is_kind(expression, "size"):
            aim = f"end with the {'fewest' if low else 'most'} cards in {self.say.value(expression.args[0])}"
        elif is_kind(expression, "owned_storage", "game_storage") and isinstance(expression.args[-1], str):
            name = place(expression.args[-1])
            many = re.search(r"(?<!s)s$|\bwon$", name)  # "the most Chips", "the most Tricks won"
            best = ("fewest" if low else "most") if many else ("lowest" if low else "highest")
            aim = f"end with the {best} {name}"
            if expression.kind == "owned_storage" and self.owner_kind(expression.args[0]) == "team":
                aim = "have your team " + aim
        else:
            # One line: the places a list names are listed in the rules, not here.
            listed = r" \((?:[A-Z][a-z]*, )*[A-Z][a-z]* and [A-Z][a-z]*\)"
            score = re.sub(listed, "", self.say.value(expression))
            aim = f"end with the {'lowest' if low else 'highest'} score ({score})"
        trick = " by taking tricks" if self.takes_tricks() else ""
        return sentence(f"For {who}: {aim}{trick}")

    def glossary(self) -> tuple[tuple[str, str], ...]:
        """Return each place and count the program names, with whose it is."""
        out: dict[str, str] = {}
        for node in walk(self.root):
            if node.kind in ("game_location", "owned_location") and isinstance(node.args[-1], str):
                owner = (
                    "shared" if node.kind == "game_location" else f"each {self.owner_kind(node.args[0])}'s"
                )
                kind = LOCATION_KINDS.get(node.args[-2], "")
                kind = "face down" if node.kind == "game_location" and node.args[-2] == "iloc" else kind
                out.setdefault(place(node.args[-1]), f"A place for cards ({owner}, {kind}).")
            elif node.kind in ("game_storage", "owned_storage") and isinstance(node.args[-1], str):
                owner = (
                    "the game's" if node.kind == "game_storage" else f"each {self.owner_kind(node.args[0])}'s"
                )
                out.setdefault(place(node.args[-1]), f"A number ({owner}).")
            elif node.kind in ("game_string", "owned_string") and isinstance(node.args[-1], str):
                owner = (
                    "the game's" if node.kind == "game_string" else f"each {self.owner_kind(node.args[0])}'s"
                )
                out.setdefault(place(node.args[-1]), f"A word the game remembers ({owner}), such as a suit.")
        return tuple(sorted(out.items()))


def describe(program: Program, text: str, description: str = "") -> Rules:
    """Return the rules of ``program`` (compiled from ``text``) as a player reads them.

    ``description`` is a staff member's text about the game; without one, the
    file's leading comments are shown.
    """
    describer = _Describer(program, text)
    about = description.strip() or describer.names_said(leading_comments(text))
    paragraphs = [sentence("About this game: " + about) if about else ""]
    paragraphs += [
        describer.players(),
        describer.cards(),
        describer.places(),
        describer.setup(),
        describer.names(),
    ]
    body = describer.body()
    stages = [i for i, p in enumerate(body) if p.startswith("Stage ")]
    if len(stages) > MAX_STAGES:  # a generated game's hundreds of stages: the first ones
        more = len(stages) - MAX_STAGES
        body = [*body[: stages[MAX_STAGES]], f"…and {more} more stages (see the program)."]
    paragraphs += body
    paragraphs += [describer.tricks(), describer.counts(), describer.ending()]
    return Rules(
        goal=_bounded(describer.goal(), MAX_GOAL),
        how_to_play=tuple(_bounded(p, MAX_PARAGRAPH) for p in paragraphs if p),
        glossary=describer.glossary()[:MAX_TERMS],
    )


MIN_RUN = 3  # options in a row that share a test for it to be said once before them


def conjuncts(option: object) -> tuple:
    """Return the tests a guarded option's condition joins with "and" (none for no guard)."""
    if not (isinstance(option, Node) and option.kind == "guarded"):
        return ()
    condition = option.args[0]
    if isinstance(condition, Node) and condition.kind == "logic" and condition.args[0] == "and":
        return tuple(condition.args[1:])
    return (condition,)


def shared_guards(options: list[Node]) -> list[tuple[int, int, tuple]]:
    """Return the runs of ``MIN_RUN`` or more options in a row whose guards all test the same
    things (Klaverjassen's six options for when the lead is set and you cannot follow it): each
    as (first index, last index counted from 1, the tests shared, as the first option has them)."""
    keys = [[shape(c) for c in conjuncts(o)] for o in options]
    found = []  # (what saying the tests once saves, first, last, the tests' shapes)
    for start, first in enumerate(keys):
        shared = first
        for end in range(start + 1, len(options)):
            shared = [k for k in shared if k in keys[end]]
            if not shared:
                break
            if end + 1 - start >= MIN_RUN:
                found.append(((end - start) * len(repr(shared)), start, end + 1, shared))
    runs: list[tuple[int, int, tuple]] = []
    for _, start, end, shared in sorted(found, key=lambda run: -run[0]):
        if all(end <= a or start >= b for a, b, _ in runs):
            runs.append((start, end, tuple(c for c in conjuncts(options[start]) if shape(c) in shared)))
    return sorted(runs)


def without(option: Node, tests: tuple) -> Node:
    """Return a guarded option without ``tests`` (said once before its run), or its action
    alone when they were all its guard had."""
    gone = {shape(t) for t in tests}
    kept = [c for c in conjuncts(option) if shape(c) not in gone]
    if not kept:
        return option.args[1]
    condition = kept[0] if len(kept) == 1 else Node("logic", ("and", *kept), option.line, option.column)
    return Node("guarded", (condition, option.args[1]), option.line, option.column)


def _bounded(text: str, limit: int) -> str:
    """Return ``text`` cut at a word before ``limit`` characters, with "…", when longer."""
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + " …"
