"""Stealing Bundles for players: the goal, how to play and the words used (shown by the page)."""

GOAL = (
    "End the game with the most cards in your bundle, by capturing cards and stealing other players' bundles."
)

HOW_TO_PLAY = (
    "Everyone gets four cards and four more go face up in the middle: the pool. Each player "
    "gathers captured cards in one face-up pile, their bundle; only its top card matters.",
    "On your turn play one card from your hand. You steal every other player's bundle whose top "
    "card has the same rank as your card, moving it whole onto yours, and you take every pool card "
    "of that rank. If you took anything, your card goes on top of your bundle (where others can "
    "steal it with that rank); if you took nothing, your card joins the pool.",
    "When every hand is empty, four more cards are dealt to each player from the stock. When the "
    "stock and the hands are all empty the game ends and the biggest bundle wins.",
)

GLOSSARY = (
    ("pool", "The face-up cards in the middle; play a card of their rank to take them."),
    ("bundle", "Your face-up pile of captured cards; its size is your score."),
    ("top card", "The card on top of a bundle: a card of its rank steals the whole bundle."),
    ("steal", "Take another player's whole bundle onto yours by playing its top card's rank."),
    ("stock", "The face-down cards dealt four at a time once every hand is empty."),
    ("leftovers", "The cards still in the pool when the game ends."),
)
