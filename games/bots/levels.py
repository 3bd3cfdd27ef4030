"""The ``easy``, ``normal`` and ``hard`` bots of every game, and their budgets.

``easy`` is a rule-based player per game (``games/<game>/easy.py``), reading only the
seat's ``view`` and ``legal_moves``. ``normal`` and ``hard`` are ``SearchBot``s
(flat Monte Carlo over ``determinize``d deals, see ``search.py``) whose
playouts are guided by the easy player; they differ in their budget. Phases
with a very wide choice made before any card is played (Hearts' pass,
Cribbage's discard) are decided by a per-game ``opening`` function instead, or, at
the levels a game names (``searched_openings``), searched among a ``shortlist``.

What a search scores, per game (see docs/bots.md):

- Hearts, Cribbage, Agram: the current deal, played to its end; the reward is
  each seat's score change in the deal against the others' mean.
- Ninety-Eight: the current deal; the reward is the seat's own score change
  (a bust costs only the one who busts).
- Stealing Bundles: the whole game (its re-deals are part of one hand), rewarding
  the winner, with a small margin term.

Each game states its settings in ``games/<game>/bots.py`` (collected in
``SETTINGS``); a game made from a RECYCLE description carries its own
(``bot_settings``, from ``games/recycle/playing/bots.py``: short look-aheads and random
playouts). Budgets are playout counts in ``SETTINGS[game].budgets`` (edit them, or pass
``playouts`` and ``max_seconds`` to ``make``; the site scales them with
``BOT_PLAYOUT_SCALE`` and caps them with ``BOT_*_SECONDS``), sized so ``normal``
answers within 0.25 s and ``hard`` within 1 s at the 95th percentile on the
project's 2-core machine.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import replace
from typing import Any

from games import GAMES
from games.bots.search import Policy, SearchBot, SearchConfig
from games.bots.settings import LEVELS, SEARCH_LEVELS, GameSettings, Opening, Shortlist
from games.engine import Game, GameError, Move

# Each game's settings, from its folder (``games/<game>/bots.py``).
SETTINGS: dict[str, GameSettings] = {
    game_id: importlib.import_module(f"games.{game_id}.bots").SETTINGS for game_id in GAMES
}


def easy_policy(game: Game) -> Policy:
    """Return the game's easy player as a function ``(game, state, seat, rng) -> move``."""
    return settings_for(game).easy


def settings_for(game: Game) -> GameSettings:
    """Return the bot settings of ``game``; raise ``GameError`` for a game without bots."""
    settings = SETTINGS.get(game.info.id)
    if settings is not None:
        return settings
    # A game made from a description (games.recycle) states its own, generic ones.
    own = getattr(game, "bot_settings", None)
    if isinstance(own, GameSettings):
        return own
    raise GameError(f"no bots for game {game.info.id!r}")


class EasyBot:
    """The rule-based player: its game's easy policy with its own seeded RNG."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.policy = easy_policy(game)
        self.rng = random.Random(seed)

    def choose(self, state: Any, seat: int) -> Move:
        """Return the easy player's move."""
        return self.policy(self.game, state, seat, self.rng)


class LevelBot(SearchBot):
    """A search bot that lets the game's opening function decide the wide phases.

    With a ``shortlist``, the opening's move is only the anchor: the search weighs
    it against the shortlist's other moves (Hearts' pass at ``hard``).
    """

    def __init__(
        self,
        game: Game,
        config: SearchConfig,
        seed: int,
        opening: Opening | None,
        level: str,
        shortlist: Shortlist | None = None,
    ):
        super().__init__(game, config, seed)
        self.opening = opening
        self.level = level
        self.shortlist = shortlist

    def choose(self, state: Any, seat: int) -> Move:
        """Return the opening's move (or the best of its shortlist) where it has one, else the search's."""
        if self.opening is not None:
            move = self.opening(self.game, state, seat, self.rng)
            if move is not None:
                if self.shortlist is None:
                    return move
                return self.search(state, seat, self.shortlist(self.game, state, seat, move))
        return super().choose(state, seat)


def search_config(
    game: Game,
    level: str,
    playouts: int | None = None,
    max_seconds: float | None = None,
    playout_scale: float = 1.0,
) -> SearchConfig:
    """Return the search configuration of ``level`` for ``game``, budgets overridable or scaled."""
    settings = settings_for(game)
    budget, seconds = settings.budgets[level]
    config = SearchConfig(
        playouts=max(1, round(budget * playout_scale)),
        max_seconds=seconds,
        exploration=settings.exploration,
        tree_depth=settings.tree_depth,
        policy=settings.playout or settings.easy,
        policy_rate=settings.policy_rate,
        stop_at_deal=settings.stop_at_deal,
        reward=settings.reward,
    )
    if playouts is not None:
        config = replace(config, playouts=playouts)
    if max_seconds is not None:
        config = replace(config, max_seconds=max_seconds)
    return config


def make(
    level: str,
    game: Game,
    seed: int = 0,
    playouts: int | None = None,
    max_seconds: float | None = None,
    playout_scale: float = 1.0,
) -> Any:
    """Return a bot of ``level`` (``easy``, ``normal``, ``hard``) for ``game``."""
    if level == "easy":
        return EasyBot(game, seed)
    if level in SEARCH_LEVELS:
        settings = settings_for(game)
        opening = settings.opening
        config = search_config(game, level, playouts, max_seconds, playout_scale)
        shortlist = settings.shortlist if level in settings.searched_openings else None
        return LevelBot(game, config, seed, opening, level, shortlist)
    raise GameError(f"there is no bot level {level!r} (known: {', '.join(LEVELS)})")
