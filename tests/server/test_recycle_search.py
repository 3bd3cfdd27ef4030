"""A RECYCLE game staff added searches in the pool's workers, which cannot read the database.

Its bots above ``easy`` and its hints are searches (Monte Carlo over deals
consistent with the seat's view). A worker finds the built-in games by id; a
game stored by staff reaches it as its description (``thinking.recipe``).
"""

from __future__ import annotations

import pytest

import games
from cardtable.tables.autoplay import searches, thinking, turns
from games.engine import GameError
from games.recycle import library, loads

WHIST = loads(library()["whist"].read_text(encoding="utf-8"), "Stored whist", "recycle_stored_whist", True)


@pytest.fixture(autouse=True)
def stored(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game as a source of this process knows it (the dashboard's, in the server), for one test."""
    source = (lambda game_id: WHIST if game_id == WHIST.info.id else None, lambda: [WHIST])
    monkeypatch.setattr(games, "_SOURCES", [source, *games._SOURCES])


@pytest.mark.django_db
def test_a_stored_game_goes_to_the_worker_as_its_description_and_a_built_in_one_by_id() -> None:
    assert thinking.recipe(WHIST.info.id) == (WHIST.text, "Stored whist", "recycle_stored_whist")
    assert thinking.recipe("hearts") is None


@pytest.mark.django_db
def test_a_worker_searches_a_stored_game_from_its_description() -> None:
    state = WHIST.new(None, None, 5)
    (seat,) = WHIST.to_act(state)
    data = WHIST.to_json(state)
    budget = {"playouts": 40, "max_seconds": 5.0}
    made = thinking.recipe(WHIST.info.id)
    move = searches.run_blocking(thinking.think, WHIST.info.id, data, seat, "normal", 3, budget, made)
    assert move in WHIST.legal_moves(state, seat)
    # The worker cannot find the game by its id alone: without the description it fails.
    with pytest.raises(GameError):
        searches.run_blocking(thinking.think, WHIST.info.id, data, seat, "normal", 3, budget)
    # The server's way in (bot turns, stand-ins, hints) sends the description.
    assert turns.search_and_wait(WHIST.info.id, data, seat, "hard", 4) in WHIST.legal_moves(state, seat)
