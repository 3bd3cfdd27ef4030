"""Hearts (RULES.md, "Hearts"): pass, then take as few points as you can.

The rules are in ``game.py`` (with ``rules.py``: the legal masks and refusals), the
options in ``info.py``, the state in ``state.py``, the views in ``view.py``;
``easy.py`` is the rule-based bot.
"""

from games.hearts.game import GAME
from games.hearts.state import HeartsState

__all__ = ["GAME", "HeartsState"]
