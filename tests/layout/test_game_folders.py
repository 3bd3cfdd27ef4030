"""A game is one folder: every game in ``GAMES`` has each file docs/architecture.md lists."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

import games
from games import GAMES
from games.bots.settings import GameSettings
from games.engine import Game
from games.places import CardPlaces

ROOT = Path(__file__).resolve().parents[2]

# The files of a game, and what each must define (docs/architecture.md, "Adding a game").
FOLDER = {
    "__init__.py": "GAME",
    "game.py": "GAME",
    "guide.py": "GOAL HOW_TO_PLAY GLOSSARY",
    "easy.py": "choose",
    "bots.py": "SETTINGS",
    "places.py": "PLACES",
}
KINDS: dict[str, Any] = {"GAME": Game, "SETTINGS": GameSettings, "PLACES": CardPlaces}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_has_its_whole_folder(game_id: str) -> None:
    folder = ROOT / "games" / game_id
    for name, wanted in FOLDER.items():
        assert (folder / name).is_file(), f"games/{game_id}/{name} is missing"
        module = importlib.import_module(
            f"games.{game_id}" + ("" if name == "__init__.py" else f".{name[:-3]}")
        )
        for attribute in wanted.split():
            value = getattr(module, attribute, None)
            assert value is not None, f"games/{game_id}/{name} does not define {attribute}"
            if attribute in KINDS:
                assert isinstance(value, KINDS[attribute]), f"games/{game_id}/{name}: {attribute}"
    # The page lays each game out with one module of its own.
    assert (ROOT / "static" / "js" / "games" / f"{game_id}.js").is_file(), f"static/js/games/{game_id}.js"


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_guide_is_what_the_game_info_serves(game_id: str) -> None:
    guide = importlib.import_module(f"games.{game_id}.guide")
    info = GAMES[game_id].info
    assert (info.goal, info.how_to_play, info.glossary) == (guide.GOAL, guide.HOW_TO_PLAY, guide.GLOSSARY)


def test_a_game_that_cannot_be_imported_fails_loudly() -> None:
    with pytest.raises(ModuleNotFoundError):
        games._load([*games.game_ids(), "no_such_game"])


def test_every_game_folder_is_a_game_and_nothing_else_is() -> None:
    folders = {path.parent.name for path in (ROOT / "games").glob("*/guide.py")}
    assert folders == set(GAMES) == {"agram", "cribbage", "hearts", "ninety_eight", "stealing_bundles"}
