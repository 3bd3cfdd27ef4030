"""The contract every game keeps: ``Game``, and ``OneSeatGame`` for one card a turn.

A game module exposes one ``Game`` subclass instance (``GAME``). Its methods take
and return plain states; ``apply`` changes the state in place (``clone`` first
when you need the old one, as the search bots do). Everything a client sees goes
through ``view``; nothing else builds what a seat may see.

The contract (see DESIGN.md). Every state has ``players`` (the seat count),
``options`` (resolved) and ``seed``.

- ``info``: a ``GameInfo``: id, name, player range, options with defaults.
- ``new(players, options, seed)``: a fresh game, its first deal laid out.
- ``to_act(state)``: the seats that must act now (several in simultaneous phases).
- ``legal_moves(state, seat)``: that seat's legal moves, JSON objects in card order.
- ``apply(state, seat, move)``: check then make a move; returns the chance events
  it set off (``{"deal": ...}``, ``{"starter": ...}``), usually none.
- ``view(state, seat | None)``: exactly what that seat or a spectator may see.
- ``is_over(state)``, ``result(state)``, ``to_json``/``from_json``, ``clone``,
  ``determinize(state, seat, rng)``, and ``deal_event(state)`` for the logs.

The machinery games share lives beside it and every name of it is importable
from here: ``games.protocol`` (``Move``, ``Event``, the errors with their
protocol codes), ``games.info`` (``GameInfo``, ``Option``, which scores win)
and ``games.deals`` (deal records, the history, hidden cards dealt at random).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.cards import CARD_INDEX, CARD_NAMES, play_moves
from games.deals import deal_hidden, deal_record, noted_deal, redeal_unseen
from games.info import (
    PRESET_HELP,
    PRESET_LABELS,
    STANDARD_PRESET_HELP,
    GameInfo,
    Option,
    cardstock_help,
    choice_key,
    ranks_of,
    score_sign,
    winners_of,
)
from games.protocol import (
    NO_EVENTS,
    Event,
    GameError,
    GameOverError,
    IllegalMoveError,
    Move,
    NotYourTurnError,
    OptionsError,
)

# The contract's whole vocabulary is importable from here, wherever each name is kept.
__all__ = [
    "NO_EVENTS",
    "PRESET_HELP",
    "PRESET_LABELS",
    "STANDARD_PRESET_HELP",
    "Event",
    "Game",
    "GameError",
    "GameInfo",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "NotYourTurnError",
    "OneSeatGame",
    "Option",
    "OptionsError",
    "cardstock_help",
    "choice_key",
    "deal_hidden",
    "deal_record",
    "noted_deal",
    "played_card",
    "ranks_of",
    "redeal_unseen",
    "score_sign",
    "winners_of",
]


class Game:
    """Base of every game: the contract's checks, and what all games share.

    Subclasses set ``info`` and implement ``_new``, ``to_act``, ``legal_moves``,
    ``advance`` (make a move already known to be legal), ``view``, ``is_over``,
    ``result``, ``to_json``, ``from_json``, ``clone``, ``determinize`` and
    ``deal_event``; they may refine ``why_illegal`` with game-specific reasons.
    """

    info: GameInfo

    def new(self, players: int | None = None, options: dict | None = None, seed: int = 0) -> Any:
        """Start a game: check the player count and options, deal from ``seed``."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionsError(f"seed must be a whole number, not {seed!r}")
        if options is not None and not isinstance(options, dict):
            raise OptionsError("options must be a JSON object")
        count = self.info.check_players(players)
        return self._new(count, self.info.resolve_options(options), seed)

    def apply(self, state: Any, seat: int, move: Move) -> Sequence[Event]:
        """Check ``move`` for ``seat`` and make it; raise ``IllegalMoveError`` if not legal.

        Returns the chance events the move set off (a new deal, a start card).
        The state is changed only when no error is raised.
        """
        self.check_move(state, seat, move)
        return self.advance(state, seat, move)

    def check_move(self, state: Any, seat: int, move: Move) -> None:
        """Raise the error that explains why ``seat`` may not make ``move`` now."""
        if self.is_over(state):
            raise GameOverError("the game is over")
        # ``True in [1]`` holds in Python: only a real int names a seat.
        if type(seat) is not int or seat not in self.to_act(state):
            raise NotYourTurnError(f"it is not seat {seat!r}'s turn")
        if not isinstance(move, dict) or len(move) != 1:
            raise IllegalMoveError('a move is a JSON object with one key, such as {"play": "QS"}')
        if move not in self.legal_moves(state, seat):
            raise IllegalMoveError(self.why_illegal(state, seat, move))

    def why_illegal(self, state: Any, seat: int, move: Move) -> str:
        """Say why a move that is not in ``legal_moves`` is refused."""
        return f"{move} is not a legal move now"

    def random_move(self, state: Any, seat: int, rng: random.Random) -> Move:
        """Return a uniformly random legal move (the ``random`` bot, the playouts).

        Its law is a uniform choice among ``legal_moves(state, seat)``. A game
        may override it to draw that move without listing every move (Hearts'
        pass has 286), but must keep the law exactly: tests/games/test_random_move.py
        checks each game's draws against its ``legal_moves``. Raises a
        ``GameError`` when the seat has no move now.
        """
        moves = self.legal_moves(state, seat)
        if not moves:
            if self.is_over(state):
                raise GameOverError("the game is over")
            raise NotYourTurnError(f"seat {seat} has no move now")
        return moves[int(rng.random() * len(moves))]

    def start_state(self, state: Any, players: int, options: dict[str, Any], seed: int) -> Any:
        """Set what every new state starts with: the seat count, options, seed, and the
        first dealer, drawn from the seed (RULES.md, "Common to every game"). Returns ``state``."""
        state.players = players
        state.options = options
        state.seed = seed
        state.dealer = random.Random(seed).randrange(players)
        return state

    def deal_again(self, state: Any, dealer: int | None = None) -> list[Event]:
        """Gather the cards and deal anew (``_deal``), the deal passing to ``dealer``.

        ``dealer`` defaults to the next seat. Returns the new deal's log event.
        """
        state.dealer = (state.dealer + 1) % state.players if dealer is None else dealer
        state.deal_number += 1
        self._deal(state)
        return [self.deal_event(state)]

    def _deal(self, state: Any) -> None:
        """Deal the deal ``state.deal_number`` from ``state.dealer`` (games that deal again)."""
        raise NotImplementedError

    # The rest of the contract, implemented by each game.

    def _new(self, players: int, options: dict[str, Any], seed: int) -> Any:
        raise NotImplementedError

    def to_act(self, state: Any) -> list[int]:
        """Return the seats that must act now; empty once the game is over."""
        raise NotImplementedError

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        """Return ``seat``'s legal moves (shared objects: do not mutate them)."""
        raise NotImplementedError

    def advance(self, state: Any, seat: int, move: Move) -> Sequence[Event]:
        """Make a move known to be legal, without checks (the search bots' path)."""
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """Return what ``seat`` (or a spectator, ``None``) may see."""
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        """Return whether the game has ended."""
        raise NotImplementedError

    def move_seen_by(self, state: Any, mover: int, move: Move, viewer: int | None) -> Move:
        """Return a move of the current deal as ``viewer`` (a seat, or ``None``) may see it now.

        ``state`` is the game now, in the same deal. Every card a move names is
        seen by everyone unless a game hides it (Hearts' pass, Cribbage's discard).
        """
        return move

    def move_words(self, state: Any, seat: int, move: Move) -> dict[str, Any] | None:
        """Return the words ``move`` is offered with now, kept with it in the table's log, or ``None``.

        Called before the move is made. ``None`` where a move names itself (a card
        played, cards passed): only a game whose moves mean what the choice pending
        says (a RECYCLE choice's branch) has words to keep.
        """
        return None

    def result(self, state: Any) -> dict[str, Any] | None:
        """Return ``{"scores": [...], "winners": [...]}`` once over, else ``None``."""
        raise NotImplementedError

    def to_json(self, state: Any) -> dict[str, Any]:
        """Return the whole state as plain JSON."""
        raise NotImplementedError

    def from_json(self, data: dict[str, Any]) -> Any:
        """Rebuild a state from ``to_json``'s output."""
        raise NotImplementedError

    def clone(self, state: Any) -> Any:
        """Return an independent copy of the state."""
        raise NotImplementedError

    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        """Return a full state consistent with what ``seat`` has seen, hidden cards dealt at random."""
        raise NotImplementedError

    def deal_event(self, state: Any) -> Event:
        """Return the current deal as laid out: ``{"deal": {"dealer", "hands", "stock", ...}}``."""
        raise NotImplementedError


def played_card(move: Move) -> int | None:
    """Return the card index a ``{"play": CARD}`` move names, or ``None`` if it names none."""
    name = move.get("play")
    return CARD_INDEX.get(name) if isinstance(name, str) else None


class OneSeatGame(Game):
    """A game where one seat plays one card from its hand at a time.

    The state has ``turn`` (the seat to play), ``over`` and ``hands`` (bitmasks).
    By default any card in the hand may be played; a game with more rules
    (following suit) overrides ``legal_moves`` and ``why_illegal``.
    """

    def to_act(self, state: Any) -> list[int]:
        """Return the one seat to play, or none once the game is over."""
        return [] if state.over else [state.turn]

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        """Return every card in ``seat``'s hand when it is to play."""
        if state.over or seat != state.turn:
            return []
        return play_moves(state.hands[seat])

    def why_illegal(self, state: Any, seat: int, move: Move) -> str:
        """Name what is wrong with a refused play: not a card, or not in the hand."""
        card = played_card(move)
        if card is None:
            return f'a move in {self.info.name} is {{"play": CARD}} with a card such as "QS", not {move}'
        if not state.hands[seat] >> card & 1:
            return f"{CARD_NAMES[card]} is not in your hand"
        return super().why_illegal(state, seat, move)
