"""A long phrase a paragraph says again and again, named once and then said by its short name.

A person writing rules does not repeat "the highest card of every player's Trick together
by their Precedence value" in each of ten cases: they say it once, give it a name ("call it
"the highest card""), and use the name after. ``named(paragraph, phrases)`` does that for
the noun phrases ``ValuePhrases.value`` said (``phrases``): one said at least ``MIN_TIMES``
times in a paragraph, and long (``MIN_CHARS``), keeps its first saying with the name, and
every later one becomes the name. The name is the phrase's head ("the highest card", "the
number of cards"), or, when the paragraph already says that head of something else, "that"
and its noun ("that number"); a name ends in what the phrase is (a card, a player, a team, a
number), and a phrase without such a name that reads apart is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MIN_CHARS = 40  # shorter phrases read well enough said again
MIN_TIMES = 3
MAX_NAMES = 4  # a paragraph with more long repeated phrases keeps the rest as they are
# Words after which a phrase's head ends: "the highest card | of every player's Trick".
_LINKS = frozenset({"of", "in", "on", "whose", "where", "by", "from", "with", "together"})
# A name says what the phrase is: a card, a player, a number; "the Power value" would read as
# any card's value, not the one the phrase says.
_NOUNS = frozenset({"card", "cards", "player", "players", "team", "number"})
_DETERMINERS = frozenset(
    {"every", "each", "that", "the", "your", "a", "an", "another", "its", "their", "all"}
)


def named(paragraph: str, phrases: Iterable[str]) -> str:
    """Return ``paragraph`` with each long phrase it says ``MIN_TIMES`` times or more said in
    full once, named there, and by that name after; the most characters saved first."""
    candidates = {
        p for p in phrases if len(p) >= MIN_CHARS and p.startswith("the ") and not re.search(r"[;:()\"]", p)
    }
    for _ in range(MAX_NAMES):
        best: tuple[int, str, str] | None = None
        for phrase in candidates:
            if paragraph.count(phrase) < MIN_TIMES:  # most phrases: not here, found fast
                continue
            found = _occurrences(paragraph, phrase)
            if len(found) < MIN_TIMES:
                continue
            short = _name(paragraph, phrase, found)
            if short is None:
                continue
            saved = len(found) * (len(phrase) - len(short)) - len(short) - 12
            if saved > 0 and (best is None or saved > best[0]):
                best = (saved, phrase, short)
        if best is None:
            break
        _, phrase, short = best
        candidates.discard(phrase)
        paragraph = _renamed(paragraph, phrase, short)
    return paragraph


def _pattern(phrase: str) -> re.Pattern[str]:
    # A whole phrase: not the end of a longer word before it, nor running into a word after it.
    return re.compile(r"(?<![\w'])" + re.escape(phrase) + r"(?![\w])")


def _occurrences(paragraph: str, phrase: str) -> list[re.Match[str]]:
    return list(_pattern(phrase).finditer(paragraph))


def head(phrase: str) -> str:
    """Return a phrase's head: its words up to the first link to a place or owner ("the number
    of cards | in that player's Hand", "the highest card | of every player's Trick")."""
    words = phrase.split()
    for index in range(1, len(words) - 1):
        after = words[index + 1]
        if words[index] in _LINKS and (after in _DETERMINERS or after.endswith("'s") or after[:1].isupper()):
            return " ".join(words[:index])
    return phrase


def _name(paragraph: str, phrase: str, found: list[re.Match[str]]) -> str | None:
    """A short name for ``phrase`` that the paragraph says of nothing else, or None."""
    first = head(phrase)
    noun = first.removeprefix("the ").split(" of ")[0]
    rest = _pattern(phrase).sub("", paragraph)
    # "the cards" or "that cards" would name nothing in particular: a head of three words or
    # more ("the highest card"), or "that" and one thing ("that number").
    names = ([first] if len(first.split()) >= 3 else []) + (
        [f"that {noun}"] if not noun.endswith("s") else []
    )
    for short in names:
        fits = short != phrase and short.split()[-1] in _NOUNS and len(short) * 2 <= len(phrase)
        if fits and not _pattern(short).search(rest):
            return short
    return None


def _renamed(paragraph: str, phrase: str, short: str) -> str:
    """Say ``phrase`` in full once, with its name, and by the name after."""
    count = 0

    def said(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f'{phrase} (call it "{short}")' if count == 1 else short

    return _pattern(phrase).sub(said, paragraph)
