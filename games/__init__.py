"""The rules of the card table's games, in pure Python (no Django).

``GAMES`` maps each game id to its ``Game`` object; see ``games.engine`` for the
contract every game keeps.
"""

from __future__ import annotations

from games.engine import Game, GameError

GAME_IDS = ("hearts", "agram", "ninety_eight", "stealing_bundles", "cribbage")


def _load() -> dict[str, Game]:
    import importlib

    games: dict[str, Game] = {}
    for game_id in GAME_IDS:
        try:
            module = importlib.import_module(f"games.{game_id}")
        except ModuleNotFoundError as error:
            if error.name != f"games.{game_id}":
                raise
            continue  # not written yet
        games[game_id] = module.GAME
    return games


GAMES: dict[str, Game] = _load()


def get_game(game_id: object) -> Game:
    """Return the game with this id; raise ``GameError`` naming the known ones."""
    try:
        return GAMES[game_id]  # type: ignore[index]
    except (KeyError, TypeError):
        known = ", ".join(GAMES)
        raise GameError(f"there is no game {game_id!r} (known: {known})") from None
