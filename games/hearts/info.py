"""What Hearts is, stated once: its ``GameInfo`` with the options a host may choose.

Each option carries its help and labels; the CardStock preset sets them as that
project writes the game down. The texts a player reads come from ``guide.py``.
"""

from __future__ import annotations

from games.engine import GameInfo, Option, cardstock_help
from games.hearts import guide

INFO = GameInfo(
    id="hearts",
    name="Hearts",
    min_players=3,
    max_players=5,
    default_players=4,
    options={
        "passing": Option(
            "rotate",
            ("rotate", "none"),
            "Whether everyone passes three cards before the play of a deal.",
            {
                "rotate": "With 4 players pass left, right, across, then no pass, and round again; "
                "with 3 or 5 players left, right, then no pass.",
                "none": "Nobody ever passes.",
            },
            label="Passing",
            choice_labels={"rotate": "Rotating", "none": "No passing"},
        ),
        "first_lead": Option(
            "two_of_clubs",
            ("two_of_clubs", "left_of_dealer"),
            "Who leads the first trick of a deal.",
            {
                "two_of_clubs": "Whoever holds the lowest club in play (the 2, or the 3 with 5 players) "
                "must lead it.",
                "left_of_dealer": "The player after the dealer leads any card the usual rules allow.",
            },
            label="First lead",
            choice_labels={
                "two_of_clubs": "Lowest club leads",
                "left_of_dealer": "Left of the dealer leads",
            },
        ),
        "first_trick_points": Option(
            False,
            (False, True),
            "Whether hearts and the queen of spades may be played to the first trick.",
            {
                "false": "Not while you have anything else you may play.",
                "true": "Yes, as on any other trick.",
            },
            label="Points on first trick",
        ),
        "moon": Option(
            "add_to_others",
            ("add_to_others", "subtract_self"),
            "How a deal scores when one player takes all 26 points (shoots the moon).",
            {
                "add_to_others": "Every other player scores 26 and the shooter 0.",
                "subtract_self": "The shooter scores -26 and the others 0.",
            },
            label="Shooting the moon",
            choice_labels={
                "add_to_others": "Others get 26",
                "subtract_self": "Shooter gets minus 26",
            },
        ),
        "target": Option(
            100,
            (50, 100),
            (
                "The score that ends the game: after the deal in which someone reaches "
                "it, the lowest score wins."
            ),
            label="Play to",
        ),
    },
    presets={
        "cardstock": {
            "passing": "none",
            "first_lead": "left_of_dealer",
            "first_trick_points": True,
            "moon": "subtract_self",
            "target": 100,
        }
    },
    low_score_wins=True,
    goal=guide.GOAL,
    how_to_play=guide.HOW_TO_PLAY,
    glossary=guide.GLOSSARY,
    tips=guide.TIPS,
    preset_help={
        "cardstock": cardstock_help(
            "no passing, the player after the dealer leads first, points may be played to the "
            "first trick, shooting the moon scores -26 for the shooter, and the game goes to 100."
        )
    },
)
