"""Agram's bot settings: easy plays by rule; the search scores the deal against the others."""

from games.agram import easy
from games.agram.game import GAME
from games.bots.search import relative_reward
from games.bots.settings import GameSettings

SETTINGS = GameSettings(
    easy=easy.choose,
    reward=relative_reward(GAME.info.score_sign(), 1.0),
    budgets={"normal": (600, 0.25), "hard": (2400, 1.0)},
)
