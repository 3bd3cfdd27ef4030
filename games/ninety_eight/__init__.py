"""Ninety-Eight (RULES.md, "Ninety-Eight"): keep the running total at 98 or below.

The rules and state are in ``game.py``; ``easy.py`` is the rule-based bot.
"""

from games.ninety_eight.game import GAME, NinetyEightState

__all__ = ["GAME", "NinetyEightState"]
