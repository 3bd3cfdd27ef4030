"""What Cribbage is, stated once: its ``GameInfo`` with the one option a host may choose.

The target carries its help and labels; the CardStock preset is the standard
game. The texts a player reads come from ``guide.py``.
"""

from __future__ import annotations

from games.cribbage import guide
from games.engine import GameInfo, Option, cardstock_help

INFO = GameInfo(
    id="cribbage",
    name="Cribbage",
    min_players=2,
    max_players=4,
    default_players=2,
    options={
        "target": Option(
            121,
            (61, 121),
            "The points a side must reach to win; the game ends the moment one does.",
            {
                "61": "A short game: once round a cribbage board.",
                "121": "The full game: twice round the board.",
            },
            label="Play to",
        )
    },
    presets={"cardstock": {"target": 121}},
    goal=guide.GOAL,
    how_to_play=guide.HOW_TO_PLAY,
    glossary=guide.GLOSSARY,
    tips=guide.TIPS,
    preset_help={"cardstock": cardstock_help("a game to 121 points, the same as the standard game.")},
)
