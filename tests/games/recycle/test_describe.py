"""The rules text made from a RECYCLE program (games/recycle/words/describe.py): the facts of a team
trick-taker with trumps (Whist), a shedding game (Crazy Eights) and a fishing game (Go Fish)."""

from __future__ import annotations

import re

import pytest

from games.recycle import library, load, loads
from games.recycle.reading.forms import leading_comments
from games.recycle.words.describe import describe


def rules(name: str) -> tuple[str, list[str], dict[str, str]]:
    info = load(library()[name]).info
    return info.goal, list(info.how_to_play), dict(info.glossary)


def paragraph(paragraphs: list[str], start: str) -> str:
    (found,) = [p for p in paragraphs if p.startswith(start)]
    return found


def stage_heads(paragraphs: list[str]) -> list[str]:
    return [p.split(":", 1)[0] for p in paragraphs if p.startswith("Stage ")]


def test_whist_a_team_trick_taker_with_trumps() -> None:
    goal, paragraphs, glossary = rules("whist")
    assert goal == "For 4 players in 2 teams: have your team end with the highest Score by taking tricks."
    assert paragraphs[0].startswith("About this game: Whist (American whist, pagat.com/whist/whist.html)")
    assert paragraphs[1] == (
        "4 players, in 2 teams: players 1 and 3 against players 2 and 4 "
        "(partners share their team's places and counts)."
    )
    assert paragraph(paragraphs, "Cards:").startswith("Cards: 52 cards; each card has a rank (2, 3, 4,")
    assert "and a suit (clubs, diamonds, hearts and spades)" in paragraph(paragraphs, "Cards:")
    assert "Tricks won (each team's, face up, seen by everyone)" in paragraph(paragraphs, "Places:")
    assert stage_heads(paragraphs) == [
        "Stage 1 (One round of this stage is one deal; its current player is the dealer)",
        "Stage 1.1 (The thirteen tricks; one round is one trick)",
        "Stage 1.1.1",
    ]
    deal = paragraph(paragraphs, "Stage 1 ")
    assert "shuffle the Stock; deal 13 cards from the Stock to each player's Hand" in deal
    assert "set the Trump to the suit of the top card of your Hand" in deal
    turn = paragraph(paragraphs, "Stage 1.1.1")
    assert turn.endswith("on your turn, choose one move: play a card from your Hand to your Trick.")
    moves = paragraph(paragraphs, "The moves of stage 1.1.1:")
    assert paragraphs.index(moves) == paragraphs.index(turn) + 1
    assert (
        "(2) Following: a card of the suit led... If the Lead is set: play to your Trick a card of "
        "your Hand whose suit is the Lead." in moves
    )
    tricks = paragraph(paragraphs, "Tricks:")
    assert "you must follow suit: play a card of the suit led (the Lead) if you can, else any card" in tricks
    assert "a card of the Trump (trumps) beats one of the Lead (the suit led)" in tricks
    assert "by rank, ace highest and 2 lowest" in tricks
    assert "the highest card" in tricks
    assert paragraphs[-1] == (
        "The game ends when stage 1 ends: when some team's Score is at least 7. Each player's "
        "score is then their team's Score (partners share it); the highest score wins (a tie shares the win)."
    )
    assert glossary["Tricks won"] == "A place for cards (each team's, face up, seen by everyone)."
    assert glossary["Score"] == "A number (each team's)."


def test_crazy_eights_a_shedding_game() -> None:
    goal, paragraphs, glossary = rules("crazy_eights")
    assert goal == (
        "For 4 players: end with the lowest score (the total Penalty value of the cards in your Hand)."
    )
    assert paragraphs[1] == "4 players, each on their own."
    assert paragraph(paragraphs, "Cards:").startswith("Cards: 52 cards;")
    assert not [p for p in paragraphs if p.startswith("Names used below")]
    order = paragraph(paragraphs, "The game, in order:")
    assert "deal 5 cards from the Stock to each player's Hand" in order
    assert order.endswith("then stage 1.")
    assert stage_heads(paragraphs) == ["Stage 1"]
    turn = paragraph(paragraphs, "Stage 1")
    assert turn.endswith(
        "choose one move: play a card from your Hand to the Discard, draw from the Stock to your Hand "
        "or add 1 to the Passes count."
    )
    moves = paragraph(paragraphs, "The moves of stage 1:")
    assert (
        "(2) An eight, naming the suit to follow. Choose a card of your Hand whose rank is 8, then choose a "
        "suit (clubs, diamonds, hearts or spades), then move that card to the top of the Discard; set the "
        "Suit to that suit" in moves
    )
    assert (
        "(4) Unable to play with the stock empty: pass. If there is no card in your Hand whose rank is 8, "
        "whose suit is the Suit or whose rank is the rank of the top card of the Discard and the Stock is "
        "empty: add 1 to the Passes count." in moves
    )
    assert not [p for p in paragraphs if p.startswith("Tricks:")]
    assert "cards are worth Penalty points (8: 50, king: 10, queen: 10" in paragraph(paragraphs, "Counts:")
    assert paragraphs[-1].startswith(
        "The game ends when stage 1 ends: when some player's Hand is empty or the Passes count is at least "
        "4. Each player's score is then the total Penalty value of the cards in their Hand; the lowest "
        "score wins"
    )
    assert glossary["Discard"] == "A place for cards (shared, face up, seen by everyone)."
    assert glossary["Stock"] == "A place for cards (shared, face down)."


def test_go_fish_a_fishing_game() -> None:
    goal, paragraphs, _ = rules("go_fish")
    assert (
        goal == "For 4 players: end with the highest score (the number of cards in your Books divided by 4)."
    )
    assert paragraph(paragraphs, "Cards:").startswith("Cards: 52 cards;")
    assert "deal 5 cards from the Stock to each player's Hand" in paragraph(paragraphs, "The game, in order:")
    assert stage_heads(paragraphs) == ["Stage 1"]
    turn = paragraph(paragraphs, "Stage 1")
    assert turn.endswith("choose one move: take cards from another player's Hand to your Hand.")
    moves = paragraph(paragraphs, "The moves of stage 1:")
    assert moves.startswith("The moves of stage 1: (1) Choose another player whose Hand is not empty, then")
    assert "then choose a rank (ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen or king), then" in moves
    assert "set the Got count to the number of cards in their Hand whose rank is that rank" in moves
    assert not [p for p in paragraphs if p.startswith("Tricks:")]
    assert paragraphs[-1].startswith(
        "The game ends when stage 1 ends: when the number of cards in every player's Books together is 52."
    )
    assert "the highest score wins" in paragraphs[-1]


@pytest.mark.parametrize("name", sorted(library()))
def test_every_library_game_has_every_section_in_readable_names(name: str) -> None:
    info = load(library()[name]).info
    assert info.goal.startswith("For ") and info.goal.endswith(".")
    heads = [p.split(":", 1)[0].split(" (", 1)[0] for p in info.how_to_play]
    for section in ("Cards", "Places", "The game, in order", "Stage 1"):
        assert section in heads
    assert all(p.strip() for p in info.how_to_play)
    assert info.how_to_play[-1].startswith("The game ends")
    made = [p for p in info.how_to_play if not p.startswith("About this game")]
    # No program name is shown as the program spells it (TRICKSWON is "Tricks won").
    assert not [w for p in made for w in re.findall(r"\b[A-Z][A-Z0-9_]{2,}\b", p)]


def test_a_description_given_replaces_the_file_comments() -> None:
    text = library()["whist"].read_text()
    game = loads(text, "Whist", description="Partners against partners.")
    assert game.info.how_to_play[0] == "About this game: Partners against partners."
    bare = re.sub(r"(?m)^;;.*\n", "", text)
    assert not describe(loads(bare).program, bare).how_to_play[0].startswith("About")


def test_leading_comments_stop_at_the_game_and_skip_decoration() -> None:
    text = (
        "\ufeff;; Go Fish\n;;\n;; https://www.pagat.com/quartet/gofish.html\n;; ======\n\n"
        "(game ;; MATCH START\n;; not this"
    )
    assert leading_comments(text) == "Go Fish\nhttps://www.pagat.com/quartet/gofish.html"
    assert leading_comments("(game)") == ""
    assert len(leading_comments(";; " + "word " * 1000)) <= 1500


def test_the_scoring_direction_and_the_lowest_score() -> None:
    text = """(game
 (setup (create players 3)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))
 (scoring min (size ((current player) iloc HAND))))"""
    info = loads(text, "Tiny").info
    assert info.goal == "For 3 players: end with the fewest cards in your Hand."
    assert "Cards: 6 cards;" in info.how_to_play[1]
    assert "deal 2 cards from the Stock to each player's Hand" in info.how_to_play[4]
    assert info.how_to_play[-1].endswith(
        "Each player's score is then the number of cards in their Hand; the lowest score wins "
        "(a tie shares the win)."
    )


def test_a_huge_description_gives_bounded_text() -> None:
    stage = (
        "(stage player (end (== (size ((current player) iloc HAND)) 0))"
        " (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))"
    )
    guard = " ".join(f"((== (game sto N{i}) {i}) (inc (game sto N{i}) 1))" for i in range(400))
    text = f"""(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO)) (SUIT (HEARTS, SPADES)))))
 (do ((all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND))))) {guard}))
 {" ".join([stage] * 60)}
 (scoring max 0))"""
    info = loads(text, "Huge").info
    assert max(len(p) for p in info.how_to_play) <= 8_000
    order = next(p for p in info.how_to_play if p.startswith("The game, in order"))
    assert order.endswith(" …")
    stages = [p for p in info.how_to_play if p.startswith("Stage ")]
    assert len(stages) == 30 and "…and 30 more stages (see the program)." in info.how_to_play
    assert len(info.glossary) <= 40 and info.how_to_play[-1].startswith("The game ends")


# Each says a word (check or fold); then the highest card shown takes a chip: a showdown, no trick.
SHOWDOWN = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (J, Q, K)))))
 (do ((shuffle (game iloc STOCK))
      (set (game points RANKING) (((RANK : K) 3) ((RANK : Q) 2) ((RANK : J) 1)))
      (all player 'P (move (top (game iloc STOCK)) (top ('P vloc SHOWN))))))
 (stage player (end (all player 'P (> ('P sto DONE) 0)))
  (choice (((== 1 1) (do ((set ((current player) str MOVE) CHECK) (inc ((current player) sto DONE) 1))))
           ((== 1 1) (do ((set ((current player) str MOVE) FOLD) (inc ((current player) sto DONE) 1)))))))
 (do ((inc ((owner (max (union (all player 'P ('P vloc SHOWN))) using (game points RANKING))) sto CHIPS) 1)))
 (scoring max ((current player) sto CHIPS)))"""


def test_words_a_player_says_are_moves_and_a_showdown_is_no_trick() -> None:
    info = loads(SHOWDOWN, "Showdown").info
    assert info.goal == "For 2 players: end with the most Chips."
    stage = next(p for p in info.how_to_play if p.startswith("Stage 1:"))
    assert stage.endswith("on your turn, choose one move: check or fold.")
    assert (
        "Comparing cards: whoever has the highest card of every player's Shown together by their Ranking "
        "value wins (by rank, king highest and jack lowest)." in info.how_to_play
    )
    assert not [p for p in info.how_to_play if p.startswith("Tricks:")]


def test_decks_made_again_by_a_repeat_are_counted() -> None:
    text = """(game
 (declare 3 'COPIES)
 (setup (create players 2)
        (repeat 'COPIES (create deck (game iloc STOCK) (deck (NUMBER (ONE, TWO, LLAMA))))))
 (do ((all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))
 (scoring min (size ((current player) iloc HAND))))"""
    cards = next(p for p in loads(text, "Copies").info.how_to_play if p.startswith("Cards:"))
    assert cards == "Cards: 9 cards (3 decks of 3); each card has a number (1, 2 and llama)."
