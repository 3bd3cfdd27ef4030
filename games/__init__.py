"""The rules of the card table's games, in pure Python (no Django).

``GAMES`` maps each game id to its ``Game`` object; see ``games.engine`` for the
contract every game keeps. A game is one folder, ``games/<game>/`` (docs/architecture.md
lists its files): every folder here with a ``guide.py`` is a game, so adding a game
means adding its folder and nothing else.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from pathlib import Path

from games.engine import Game, GameError


def game_ids() -> list[str]:
    """Return the id of every game folder: a folder of ``games/`` with a ``guide.py``."""
    here = Path(__file__).parent
    return sorted(path.parent.name for path in here.glob("*/guide.py"))


def _load(ids: list[str]) -> dict[str, Game]:
    """Import every game of ``ids``; a game that fails to import fails loudly here."""
    loaded = {game_id: importlib.import_module(f"games.{game_id}").GAME for game_id in ids}
    # The lobby lists the games in the order of their names.
    return dict(sorted(loaded.items(), key=lambda item: item[1].info.name))


GAMES: dict[str, Game] = _load(game_ids())


# Games beyond GAMES (RECYCLE descriptions staff stored): the server registers a source,
# a function from an id to its game (None when it has none) and one listing them all.
_SOURCES: list[tuple[Callable[[str], Game | None], Callable[[], Iterable[Game]]]] = []


def add_source(find: Callable[[str], Game | None], listing: Callable[[], Iterable[Game]]) -> None:
    """Register more games: ``find(id)`` returns one (or ``None``), ``listing()`` all of them.

    Registering the same pair again changes nothing.
    """
    if (find, listing) not in _SOURCES:
        _SOURCES.append((find, listing))


def catalog() -> list[Game]:
    """Return every game a table may play: ``GAMES``, then each source's games."""
    return [*GAMES.values(), *(game for _, listing in _SOURCES for game in listing())]


def get_game(game_id: object) -> Game:
    """Return the game with this id, from ``GAMES`` or a source; raise ``GameError`` naming the known ones."""
    try:
        return GAMES[game_id]  # type: ignore[index]
    except (KeyError, TypeError):
        pass
    if isinstance(game_id, str):
        for find, _ in _SOURCES:
            game = find(game_id)
            if game is not None:
                return game
    known = ", ".join(GAMES)
    raise GameError(f"there is no game {game_id!r} (known: {known})") from None
