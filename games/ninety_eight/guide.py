"""Ninety-Eight for players: the goal, how to play and the words used (shown by the page)."""

GOAL = "Play cards onto the pile without taking its running total over 98: whoever takes it over loses."

HOW_TO_PLAY = (
    "Everyone holds four cards. On your turn play one card onto the pile, then draw the top card of "
    "the stock while any is left. You must play, even when every card you hold would take the total over 98.",
    "The total starts at 0. Ace to 9 add their value (the ace adds 1), a jack or a queen adds "
    "nothing, a ten takes 10 away (the total may go below 0) and a king sets the total to 98.",
    "Take the total over 98 and you lose the deal at once. If every hand is played out and nobody "
    "went over, nobody loses the deal.",
    "With one life the deal is the whole game: the loser scores -1 and everyone else 0, so all the "
    "others win. With more lives a lost deal costs a life, a player with none left sits out, and the "
    "last player with a life wins; the scores are the lives left.",
)

GLOSSARY = (
    ("pile", "The cards played this deal; everyone sees them."),
    ("total", "The running count of the pile; over 98 loses."),
    ("stock", "The face-down cards you draw from after each play."),
    ("king (K)", "Sets the total to exactly 98."),
    ("ten (T)", "Takes 10 away from the total."),
    ("jack and queen (J, Q)", "Add nothing: the total stays as it is."),
    ("ace to 9", "Add their value; the ace counts 1."),
    ("life", "A lost deal costs one; a player with no lives left is out."),
)
