"""Ninety-Eight's bot settings: the search scores a seat's own change (a bust costs only the buster)."""

from games.bots.search import own_reward
from games.bots.settings import GameSettings
from games.ninety_eight import easy
from games.ninety_eight.game import GAME

SETTINGS = GameSettings(
    easy=easy.choose,
    reward=own_reward(GAME.info.score_sign(), 1.0),
    budgets={"normal": (150, 0.25), "hard": (600, 1.0)},
)
