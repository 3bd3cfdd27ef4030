"""A RECYCLE description behind the game contract (``games.engine.Game``)."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from types import MethodType
from typing import Any

from games.engine import NO_EVENTS, Event, Game, GameInfo, Move
from games.recycle.compiling.program import Program, compile_program
from games.recycle.playing import bots, runner, table, visibility
from games.recycle.playing.state import RecycleState, state_from_json, state_to_json
from games.recycle.words.describe import describe
from games.recycle.words.faces import add_faces
from games.recycle.words.wording import branch_items, branch_words, last_said, remember_said, said_at


def slug(name: str) -> str:
    """Return a game id part from a name: lowercase letters, digits and '_'."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "game"


class RecycleGame(Game):
    """One compiled description: ``info`` says its players; moves come from its choices.

    Moves: ``{"play": CARD}`` where every option of a choice plays one card,
    otherwise ``{"choice": [branch, item, ...]}`` (docs/recycle.md).
    """

    def __init__(
        self,
        text: str,
        name: str = "RECYCLE game",
        game_id: str | None = None,
        experimental: bool = False,
        description: str = "",
    ) -> None:
        self.text = text  # the description, for a process that builds the game again (a search worker)
        self.description = description
        self.program: Program = compile_program(text, name)
        # The rules a player reads, made from the program (and the file's leading comments
        # or a staff member's ``description``): games/recycle/words/describe.py.
        self.rules = describe(self.program, text, description)
        count = self.program.player_count
        self.info = GameInfo(
            id=game_id or f"recycle_{slug(name)}",
            name=name,
            min_players=count,
            max_players=count,
            default_players=count,
            options={},
            low_score_wins=self.program.lowest_wins,
            goal=self.rules.goal,
            how_to_play=self.rules.how_to_play,
            glossary=self.rules.glossary,
            experimental=experimental,
        )
        self.bot_settings = bots.settings(self.info)
        self.words = branch_words(self.program, self.text)
        self.items = branch_items(self.program)
        # The searches call advance for every move: the runner's own, bound to the program
        # (CPython calls a bound method as a plain Python call), not a method calling it.
        self.advance = MethodType(runner.advance, self.program)

    def retitle(self, name: str, description: str) -> None:
        """Give the game a new title and staff description; its program, id and moves stay."""
        self.description = description
        self.rules = describe(self.program, self.text, description)
        self.info = replace(
            self.info,
            name=name,
            goal=self.rules.goal,
            how_to_play=self.rules.how_to_play,
            glossary=self.rules.glossary,
        )

    @property
    def warnings(self) -> list[str]:
        """Return what the compiler found suspicious (an unbound variable...), with lines and columns."""
        return list(self.program.warnings)

    def _new(self, players: int, options: dict[str, Any], seed: int) -> RecycleState:
        return runner.start(self.program, players, options, seed)

    def to_act(self, state: RecycleState) -> list[int]:
        """Return the current player of the pending choice, or none once over."""
        return [] if state.over else [state.cycles[-1][0]]

    def legal_moves(self, state: RecycleState, seat: int) -> list[Move]:
        """Return the moves of the pending choice when ``seat`` is to act."""
        if state.over or seat != state.cycles[-1][0]:
            return []
        return (state.cache or runner.options_of(self.program, state))[0]

    def check_move(self, state: RecycleState, seat: int, move: Move) -> None:
        """Accept a legal move at once; else the usual errors."""
        current = not state.over and type(seat) is int and seat == state.cycles[-1][0]
        prog = self.program
        if current and (move in runner.options_of(prog, state)[0] or runner.picked(prog, state, move)):
            return  # a set picked is checked against its rule (picks.py), not found in a list
        super().check_move(state, seat, move)

    def why_illegal(self, state: RecycleState, seat: int, move: Move) -> str:
        """Say what the legal moves look like."""
        moves = self.legal_moves(state, seat)
        sample = ", ".join(str(m) for m in moves[:3]).replace("'", '"')
        return f"{move} is not one of the {len(moves)} legal moves now (such as {sample})"

    def apply(self, state: RecycleState, seat: int, move: Move) -> tuple[Event, ...]:
        """Check and make a move, and keep what the table shows of it (``table.after_move``).

        A legal move of the seat to act is found among the pending options and made
        at once; anything else goes through the contract's checks and their errors.
        Every move a table, a replay or a log plays comes this way; the searches
        call ``advance`` alone and skip that record.
        """
        before = table.positions(state)
        node = state.choice
        said = said_at(self.words, self.items, node)
        if not state.over and type(seat) is int and seat == state.cycles[-1][0]:
            labels = (state.cache or runner.options_of(self.program, state))[0]
            try:
                index = labels.index(move)
            except ValueError:
                found = runner.picked(self.program, state, move)  # a set picked, not listed
                if found is not None:
                    runner.make_actions(self.program, state, seat, *found)
                    table.after_move(self.program, state, seat, found[0], before, node)
                    remember_said(state, said)  # else the view's last move keeps an earlier move's words
                    return NO_EVENTS
            else:
                runner.make(self.program, state, seat, index)
                table.after_move(self.program, state, seat, move, before, node)
                remember_said(state, said)
                return NO_EVENTS
        self.check_move(state, seat, move)
        events = self.advance(state, seat, move)
        table.after_move(self.program, state, seat, move, before, node)
        remember_said(state, said)
        return events

    def advance(self, state: RecycleState, seat: int, move: Move) -> tuple[Event, ...]:
        """Make a legal move and play on to the next choice (each game binds ``runner.advance``
        in its place: this is what it does)."""
        return runner.advance(self.program, state, seat, move)

    def move_words(self, state: RecycleState, seat: int, move: Move) -> dict[str, Any] | None:
        """The words and item kinds of the choice a branch is chosen at (``{"words", "items"}``)."""
        return said_at(self.words, self.items, state.choice) if "choice" in move else None

    def move_seen_by(self, state: RecycleState, mover: int, move: Move, viewer: int | None) -> Move:
        """A move as ``viewer`` may see it now: whole when it sees every card the move names, else ``{}``."""
        return visibility.move_seen(self.program, state, mover, move, viewer)

    def view(self, state: RecycleState, seat: int | None) -> dict[str, Any]:
        """Return what ``seat`` may see (docs/recycle.md, "The view")."""
        out = visibility.view(self.program, state, seat)
        if state.choice is not None:
            # The pending choice's branches that name nothing, in words ("Draw from stock", "Pass").
            out["choice_words"] = self.words.get(state.choice, [])
            out["choice_items"] = self.items.get(state.choice, [])  # what each item is: a number, a seat...
            if seat is not None and seat == state.cycles[-1][0]:
                offers = runner.offers_of(self.program, state)
                if offers:  # the cards the seat to act may pick, and the rule (docs/protocol.md)
                    out["pick"] = [visibility.pick_seen(self.program, offer) for offer in offers]
        if state.over:
            out["result"] = self.result(state)
        add_faces(self.program, out)  # how to draw the cards that are not French cards
        last_said(state, out)
        return out

    def is_over(self, state: RecycleState) -> bool:
        """Return whether the description has run to its end (or failed)."""
        return state.over

    def result(self, state: RecycleState) -> dict[str, Any] | None:
        """Return the scores by the ``scoring`` form and every seat sharing the best."""
        if not state.over:
            return None
        scores = self.program.scores(state)
        if state.error:
            return {"scores": scores, "winners": [], "error": state.error}
        return {"scores": scores, "winners": self.info.winners(scores)}

    def to_json(self, state: RecycleState) -> dict[str, Any]:
        """Return the state as plain JSON."""
        return {"game": self.info.id, **state_to_json(state, self.program.names)}

    def from_json(self, data: dict[str, Any]) -> RecycleState:
        """Rebuild a state from ``to_json``'s output."""
        return state_from_json(data)

    def clone(self, state: RecycleState) -> RecycleState:
        """Return an independent copy."""
        return state.copy()

    def determinize(self, state: RecycleState, seat: int, rng: random.Random) -> RecycleState:
        """Return a copy with every card ``seat`` cannot see dealt again at random."""
        return visibility.determinize(self.program, state, seat, rng)

    def deal_event(self, state: RecycleState) -> Event:
        """Return the cards as laid out at the first choice, for the log."""
        return {"deal": state.dealt}
