"""Agram for players: the goal, how to play and the words used (shown by the page)."""

from games.tricks import TRICK_TERMS

GOAL = (
    "Win the sixth and last trick of a deal: that wins the deal, and the "
    "first to win the target number of deals wins the game."
)

HOW_TO_PLAY = (
    "Agram uses 35 cards: the ace, 3 to 9 and the ten of every suit, without the ace of spades. "
    "Within a suit the ace is highest, then the ten, 9, 8 and so on down to 3. Everyone gets six cards.",
    "The player after the dealer leads any card to the first trick. The others must play a card of "
    "the led suit if they have one; otherwise they may play any card. There are no trumps: the "
    "highest card of the led suit wins the trick, and whoever won it leads the next.",
    "Six tricks are played, and only the sixth counts: whoever wins it wins the deal and scores a "
    "point. The first five tricks decide who leads, so keep a strong card for the end.",
    "The deal passes to the left and deals go on until someone has won the target number of deals.",
)

GLOSSARY = (
    *TRICK_TERMS,
    ("deal", "Six cards to each player and the six tricks played with them."),
    ("target", "How many deals a player must win to win the game."),
)
