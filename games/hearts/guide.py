"""Hearts for players: the goal, how to play and the words used (shown by the page)."""

from games.tricks import TRICK_TERMS

GOAL = (
    "Take as few points as you can: every heart you take costs a point and "
    "the queen of spades 13; the lowest score wins."
)

HOW_TO_PLAY = (
    "All the cards are dealt (with 3 players the 2 of diamonds is left out, with 5 also the 2 of "
    "clubs). Before the play of a deal everyone may have to pass three cards at once to another "
    "player, left, right or across in turn, with some deals having no pass.",
    "Then tricks are played: follow the led suit if you can, otherwise play any card. There are no "
    "trumps: the highest card of the led suit wins the trick and its winner leads the next.",
    "You may not lead a heart until a heart has been played to a trick (hearts are broken), "
    "unless you hold nothing but hearts. Unless the options say otherwise, the lowest club leads "
    "the first trick and no points may be played to it while you have anything else you may play.",
    "After each deal you score a point for each heart you took and 13 for the queen of spades. "
    "Take all 26 points and you shoot the moon instead. The game ends after the deal in which "
    "someone reaches the target, and the lowest score wins.",
)

GLOSSARY = (
    *TRICK_TERMS,
    ("pass", "Before the play, give three cards to another player; everyone passes at once."),
    ("points", "A heart taken costs 1, the queen of spades 13: 26 in a deal."),
    ("hearts broken", "A heart has been played to a trick this deal, so hearts may now be led."),
    ("queen of spades", "The card worth 13 points to whoever takes it."),
    ("shoot the moon", "Take all 26 points in a deal; the moon option says how that scores."),
    ("target", "The score that ends the game after the deal in which someone reaches it."),
)

TIPS = (
    (
        "pass",
        "Choose three cards to pass. Getting rid of high hearts and the queen of spades keeps "
        "points away from you; keeping a few low cards helps you duck tricks later.",
    ),
    (
        "first_lead",
        "You lead the first trick: everyone must follow the suit you lead if they can, and the "
        "highest card of that suit takes the trick. Unless the table's options say otherwise, "
        "no points may be played to this first trick.",
    ),
    (
        "hearts_broken",
        "Hearts are broken: a heart has been played to a trick, so anyone may now lead hearts. "
        "Each heart you take costs a point.",
    ),
)
