"""Hearts (RULES.md, "Hearts"): pass, then take as few points as you can.

The rules are in ``game.py``, the state in ``state.py``; ``easy.py`` is the rule-based bot.
"""

from games.hearts.game import GAME
from games.hearts.state import HeartsState

__all__ = ["GAME", "HeartsState"]
