"""The rules of the card table's games, in pure Python (no Django).

``GAMES`` maps each game id to its ``Game`` object; see ``games.engine`` for the
contract every game keeps. A game is one folder, ``games/<game>/`` (docs/architecture.md
lists its files); adding one means adding its folder and its id to ``GAME_IDS``.
"""

from __future__ import annotations

from games.engine import Game, GameError

GAME_IDS = ("hearts", "agram", "ninety_eight", "stealing_bundles", "cribbage")


def _load() -> dict[str, Game]:
    """Import every game of ``GAME_IDS``; a game that fails to import fails loudly here."""
    import importlib

    return {game_id: importlib.import_module(f"games.{game_id}").GAME for game_id in GAME_IDS}


GAMES: dict[str, Game] = _load()


def get_game(game_id: object) -> Game:
    """Return the game with this id; raise ``GameError`` naming the known ones."""
    try:
        return GAMES[game_id]  # type: ignore[index]
    except (KeyError, TypeError):
        known = ", ".join(GAMES)
        raise GameError(f"there is no game {game_id!r} (known: {known})") from None
