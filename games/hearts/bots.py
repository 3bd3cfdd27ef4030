"""Hearts' bot settings: ``normal`` passes like the easy player (``opening``); ``hard``
searches the pass among a shortlist around it (``passing.shortlist``)."""

from games.bots.search import relative_reward
from games.bots.settings import GameSettings
from games.hearts import easy, passing
from games.hearts.game import GAME

SETTINGS = GameSettings(
    easy=easy.choose,
    reward=relative_reward(GAME.info.score_sign(), 26.0),
    budgets={"normal": (220, 0.25), "hard": (900, 1.0)},
    opening=easy.opening,
    shortlist=passing.shortlist,
    searched_openings=("hard",),
)
