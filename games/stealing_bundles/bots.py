"""Stealing Bundles' bot settings: the search plays the whole game out (its re-deals are one hand)."""

from games.bots.search import winner_reward
from games.bots.settings import GameSettings
from games.stealing_bundles import easy

SETTINGS = GameSettings(
    easy=easy.choose,
    reward=winner_reward,
    stop_at_deal=False,
    budgets={"normal": (100, 0.25), "hard": (400, 1.0)},
)
