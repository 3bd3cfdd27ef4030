"""Cribbage for players: the goal, how to play and the words used (shown by the page)."""

GOAL = (
    "Be the first side to peg the target number of points, scored in the play and in the show of each deal."
)

HOW_TO_PLAY = (
    "Two players get six cards each; three or four players get five (three-handed, one card from "
    "the stock goes to the crib). With four players, seats across the table are partners and share "
    "a score. Everyone discards at once, two cards with two players and one otherwise, to the crib, "
    "which belongs to the dealer. Then the starter is turned up; if it is a jack, the dealer scores 2.",
    "In the play, from the player after the dealer, everyone in turn plays a card and adds its value "
    "to the count (ace 1, face cards 10), never past 31. A count of 15 or 31 scores 2; a pair, three "
    "or four of a rank ending the count score 2, 6 or 12; a run of 3 or more ending it scores its "
    "length. If you cannot play without passing 31 you say go; when nobody can play, the last player "
    "to play scores 1 (nothing at exactly 31) and the count starts again at 0.",
    "In the show, each hand is scored with the starter, the player after the dealer first and the "
    "dealer last, then the crib for the dealer: 2 for every combination adding to 15, 2 for each "
    "pair, each run of 3 or more its length, a flush of the four hand cards 4 (5 with the starter; "
    "a crib flush needs all five), and 1 for his nobs.",
    "The game ends the moment a side reaches the target, in the play, the show or by his heels.",
)

GLOSSARY = (
    ("crib", "The cards everyone discards, scored in the show for the dealer."),
    (
        (
            "starter",
            "The card turned up from the stock after the discards; it counts with every hand and the crib.",
        )
    ),
    ("his heels", "A jack turned up as the starter: 2 points to the dealer."),
    ("his nobs", "The jack of the starter's suit in a hand or the crib: 1 point in the show."),
    ("count", "The running total of the cards played since the count last started at 0; it may not pass 31."),
    ("fifteen", "Cards adding up to 15 (ace 1, face cards 10): 2 points, in the play or the show."),
    ("thirty-one", "A count of exactly 31: 2 points; the count then starts again."),
    (
        "go",
        "Said when none of your cards can be played without passing 31; when nobody can play on, "
        "the last to play scores 1.",
    ),
    ("last card", "1 point for playing the last card of the play, unless it makes 31."),
    ("pair", "Two cards of a rank: 2 points; three are 6 and four are 12."),
    ("run", "Three or more cards in sequence (ace low), in any order: a point each."),
    ("flush", "Four hand cards of one suit: 4 points, 5 with the starter; the crib needs all five."),
    ("the show", "After the play: the hands and then the crib are scored, each with the starter."),
    ("peg", "Score points; the board's pegs mark each side's score."),
)

TIPS = (
    (
        "crib",
        "Put cards in the crib: it scores for the dealer at the show. Give the dealer's crib "
        "cards that score little (far apart, no fives); into your own crib, pairs and fives help.",
    ),
    (
        "go",
        "Say go: you have no card that keeps the count at 31 or under. The last player to lay "
        "a card scores one point for the go.",
    ),
    (
        "show",
        "The show: each hand with the start card scores its fifteens, pairs, runs, flush and "
        "nobs, then the dealer's crib. The sheet lists every score.",
    ),
)
