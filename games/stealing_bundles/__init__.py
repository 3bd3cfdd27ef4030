"""Stealing Bundles (RULES.md, "Stealing Bundles"): capture by rank, steal bundles.

The rules and state are in ``game.py``; ``easy.py`` is the rule-based bot.
"""

from games.stealing_bundles.game import GAME, StealingBundlesState

__all__ = ["GAME", "StealingBundlesState"]
