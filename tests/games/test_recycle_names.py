"""Readable names for a RECYCLE program's places and stores."""

import pytest

from games.recycle.words.names import readable


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("TRICKSWON", "Tricks won"),
        ("HAND", "Hand"),
        ("SCOREHAND", "Score hand"),
        ("HUNDREDMILLIONDOLLARS", "Hundred million dollars"),
        ("EIGHTSUIT", "Eight suit"),
        ("trick_pile", "Trick pile"),
        ("gameScore", "Game score"),
    ],
)
def test_a_run_of_card_words_is_split(name: str, words: str) -> None:
    """Uppercase runs, underscores and camel case all become words."""
    assert readable(name) == words


def test_a_run_it_cannot_split_stays_whole() -> None:
    """A name with no known words is kept, only capitalised."""
    assert readable("XYZZY") == "Xyzzy"
