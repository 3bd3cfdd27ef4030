"""The bot settings of a game made from a RECYCLE description.

A description comes with no hand-written player: ``easy`` plays at random
(``policy.choose``), and the searches (``normal``, ``hard``) play random
playouts to the end of the game, rewarding the best final score in the
description's direction (``scoring min`` or ``max``).
"""

from __future__ import annotations

from games.bots.search import best_reward
from games.bots.settings import GameSettings
from games.engine import GameInfo
from games.recycle.playing import policy


def settings(info: GameInfo) -> GameSettings:
    """Return the bots' settings for a RECYCLE game described by ``info``."""
    return GameSettings(
        easy=policy.choose,
        reward=best_reward(info.score_sign()),
        stop_at_deal=False,
        budgets={"normal": (200, 0.25), "hard": (800, 1.0)},
    )
