"""Agram (RULES.md, "Agram"): six tricks, no trumps, the last trick wins.

The rules and state are in ``game.py``; ``easy.py`` is the rule-based bot.
"""

from games.agram.game import DECK, GAME, AgramState

__all__ = ["DECK", "GAME", "AgramState"]
