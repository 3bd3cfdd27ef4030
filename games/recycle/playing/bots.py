"""The bot settings of a game made from a RECYCLE description.

A description comes with no hand-written player: ``easy`` looks a few moves
ahead in a few sampled deals and scores them the description's way
(``games/recycle/playing/easy.py``). The searches (``normal``, ``hard``) start from the
easy player's move and play uniformly random playouts to the end of the game
(``policy_rate`` 0: the easy player is too dear to run at every playout move),
rewarding the best final score in the description's direction (``scoring min``
or ``max``).
"""

from __future__ import annotations

from games.bots.search import best_reward
from games.bots.settings import GameSettings
from games.engine import GameInfo
from games.recycle.playing import easy


def settings(info: GameInfo) -> GameSettings:
    """Return the bots' settings for a RECYCLE game described by ``info``."""
    return GameSettings(
        easy=easy.choose,
        reward=best_reward(info.score_sign()),
        stop_at_deal=False,
        policy_rate=0.0,
        budgets={"normal": (200, 0.25), "hard": (800, 1.0)},
    )
