"""Games laid out card by card, and cards played in turn, through a game's own JSON and moves."""

from __future__ import annotations

from typing import Any

from games.engine import Game


def laid_out(game: Game, players: int, options: dict, seed: int = 0, **fields: Any) -> Any:
    """A new game of ``game`` whose state JSON has ``fields`` in place of what the deal made."""
    data = game.to_json(game.new(players, options, seed=seed))
    data.update(fields)
    return game.from_json(data)


def play_cards(game: Game, state: Any, *cards: str) -> list[Any]:
    """Play ``cards`` in turn order from the seat to act; return the events of the last."""
    events: list[Any] = []
    for card in cards:
        (seat,) = game.to_act(state)
        events = list(game.apply(state, seat, {"play": card}))
    return events
