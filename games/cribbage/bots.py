"""Cribbage's bot settings: the discard comes from the crib tables (``opening``), the play from search."""

from games.bots.search import relative_reward
from games.bots.settings import GameSettings
from games.cribbage import easy
from games.cribbage.crib_discard import opening
from games.cribbage.game import GAME

SETTINGS = GameSettings(
    easy=easy.choose,
    reward=relative_reward(GAME.info.score_sign(), 20.0),
    budgets={"normal": (350, 0.25), "hard": (1400, 1.0)},
    opening=opening,
)
