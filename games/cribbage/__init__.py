"""Cribbage (RULES.md, "Cribbage"): the show's scoring and the game for 2 to 4 players.

``hand_value`` and ``hand_breakdown`` score a show, ``select_hand`` chooses what to
keep, and ``GAME`` plays the game under the contract of ``games.engine``.
"""

from games.cribbage.game import GAME
from games.cribbage.scoring import hand_breakdown, hand_value, select_hand

__all__ = ["GAME", "hand_breakdown", "hand_value", "select_hand"]
