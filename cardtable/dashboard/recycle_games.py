"""RECYCLE games staff add on the dashboard, and the game source that serves them.

``add`` compiles a pasted or uploaded description (a bad one fails with its
line and column), plays ``CHECK_GAMES`` games with random players to show it
ends, and stores it as a ``StoredGame``. ``find`` and ``listing`` are the source
registered with ``games.add_source`` (in ``apps.py``): the server asks for a
stored game by id like any other, and the compiled game is kept per id, so a
description is compiled once per process, not on every move.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

from django.db import IntegrityError, transaction

from cardtable.dashboard.models import StoredGame
from games import GAMES
from games.engine import Game, GameError
from games.recycle import RecycleError, loads
from games.recycle.game import slug

PREFIX = "recycle_"
CHECK_GAMES = 100
MAX_NAME = 80
_CACHE: dict[str, Game] = {}
_LOCK = threading.Lock()


def game_id_for(name: str) -> str:
    """Return the id a stored game of this name gets: ``recycle_`` and its name's slug (32 at most)."""
    return PREFIX + slug(name)[: 32 - len(PREFIX)]


def compile_stored(row: StoredGame) -> Game:
    """Compile a stored description into its game, marked experimental."""
    return loads(row.text, row.name, row.game_id, experimental=True)


def find(game_id: str) -> Game | None:
    """Return the stored game with this id (compiled once per process), or ``None``."""
    if not game_id.startswith(PREFIX):
        return None
    with _LOCK:
        game = _CACHE.get(game_id)
    if game is not None:
        return game
    row = StoredGame.objects.filter(game_id=game_id).first()
    if row is None:
        return None
    game = compile_stored(row)
    with _LOCK:
        return _CACHE.setdefault(game_id, game)


def listing() -> list[Game]:
    """Return every stored game, in name order."""
    ids = StoredGame.objects.values_list("game_id", flat=True)
    return [game for game in (find(game_id) for game_id in ids) if game is not None]


def check(game: Game, games: int = CHECK_GAMES) -> dict[str, Any]:
    """Play ``games`` games with random players from seeds 0, 1, ...; return their figures.

    Raises ``GameError`` naming the seed of a game that does not end within the
    interpreter's bounds.
    """
    started = time.perf_counter()
    moves: list[int] = []
    wins = [0] * game.info.default_players
    for seed in range(games):
        state = game.new(None, None, seed)
        rng = random.Random(seed)
        count = 0
        try:
            while not game.is_over(state):
                seat = game.to_act(state)[0]
                game.advance(state, seat, game.random_move(state, seat, rng))
                count += 1
        except GameError as error:
            raise GameError(f"random game {seed + 1} of {games} failed: {error}") from None
        result = game.result(state)
        if result.get("error"):
            raise GameError(f"random game {seed + 1} of {games} did not end: {result['error']}")
        moves.append(count)
        for seat in result["winners"]:
            wins[seat] += 1
    return {
        "games": games,
        "moves_mean": round(sum(moves) / games, 1),
        "moves_max": max(moves),
        "wins": wins,
        "seconds": round(time.perf_counter() - started, 2),
    }


def add(name: str, text: str, user: Any = None) -> StoredGame:
    """Compile, check and store a description; raise ``RecycleError`` (with line and column)
    or ``GameError`` and store nothing when it is not a playable game."""
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME:
        raise GameError(f"give the game a name of 1 to {MAX_NAME} characters")
    game_id = game_id_for(name)
    if game_id in GAMES or StoredGame.objects.filter(game_id=game_id).exists():
        raise GameError(f"there is already a game called {name!r} (id {game_id}): choose another name")
    game = loads(text, name, game_id, experimental=True)
    checked = check(game)
    try:
        with transaction.atomic():
            row = StoredGame.objects.create(
                game_id=game_id,
                name=name,
                text=text,
                players=game.info.default_players,
                checked=checked,
                added_by=user if user is not None and user.is_authenticated else None,
            )
    except IntegrityError:
        raise GameError(f"there is already a game called {name!r}: choose another name") from None
    with _LOCK:
        _CACHE[game_id] = game
    return row


def forget(game_id: str) -> None:
    """Drop a compiled game from this process's cache (after its row is deleted)."""
    with _LOCK:
        _CACHE.pop(game_id, None)


def error_context(text: str, error: RecycleError) -> dict[str, Any]:
    """Return the error's message and, when it has a line, that line with a caret under the column."""
    out: dict[str, Any] = {"message": str(error), "line": error.line, "column": error.column}
    lines = text.splitlines()
    if error.line is not None and 1 <= error.line <= len(lines):
        source = lines[error.line - 1]
        out["source"] = source
        out["caret"] = " " * max((error.column or 1) - 1, 0) + "^"
    return out


__all__ = ["CHECK_GAMES", "RecycleError", "add", "check", "error_context", "find", "forget", "listing"]
