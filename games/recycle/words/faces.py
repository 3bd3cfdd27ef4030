"""How the page draws a RECYCLE card that is not a French card: its value large, its colour.

A card with a French ``RANK`` and ``SUIT`` is named ``9H`` and drawn as a French
card. Any other card (No Thanks' ``THIRTEEN``, LAMA's ``LLAMA``, Lost Cities'
``BLUE-TWO``, a Spanish ``FIVE-CUPS``) gets a face from its attributes:

- ``value``: the attribute that reads as a card's value (number words as
  figures, ``THIRTEEN`` is "13", ``J`` "J"; else ``RANK``, ``NUMBER``, ``VALUE``
  or ``TYPE`` in words), drawn large;
- ``corner``: the value in at most three characters, for the corner a fanned
  hand leaves in view;
- ``suit``: the card's other attributes in words ("Cups", "Blue"), drawn small;
- ``colour``: a colour the page knows (``red``, ``blue``...) from a colour
  attribute, or from a French suit; ``None`` otherwise;
- ``name``: the card as a person says it ("5 of cups", "Blue 2", "13").

The page holds no rule: the view carries the faces of the cards it names
(``faces``: name to face), and the page draws them.
"""

from __future__ import annotations

import re
import weakref
from typing import Any

from games.cards import CARD_INDEX
from games.recycle.compiling.program import Program
from games.recycle.words.order import name_order

_UNITS = [
    "ZERO",
    "ONE",
    "TWO",
    "THREE",
    "FOUR",
    "FIVE",
    "SIX",
    "SEVEN",
    "EIGHT",
    "NINE",
    "TEN",
    "ELEVEN",
    "TWELVE",
    "THIRTEEN",
    "FOURTEEN",
    "FIFTEEN",
    "SIXTEEN",
    "SEVENTEEN",
    "EIGHTEEN",
    "NINETEEN",
]
_TENS = {"TWENTY": 20, "THIRTY": 30, "FORTY": 40, "FOURTY": 40, "FIFTY": 50, "SIXTY": 60, "SEVENTY": 70, "EIGHTY": 80, "NINETY": 90}  # fmt: skip  # noqa: E501
_COURT = {"A": "A", "ACE": "A", "J": "J", "JACK": "J", "Q": "Q", "QUEEN": "Q", "K": "K", "KING": "K"}
# Colours a card may be, as the page's palette names them (static/css/recycle.css).
COLOURS = {
    "RED": "red", "BLUE": "blue", "GREEN": "green", "YELLOW": "yellow", "WHITE": "white",
    "BLACK": "black", "PURPLE": "purple", "VIOLET": "purple", "ORANGE": "orange", "PINK": "pink",
    "BROWN": "brown", "GOLD": "yellow", "GREY": "white", "GRAY": "white", "SILVER": "white",
}  # fmt: skip
_SUIT_COLOURS = {"HEARTS": "red", "DIAMONDS": "red", "CLUBS": "black", "SPADES": "black"}
_VALUE_NAMES = ("RANK", "NUMBER", "VALUE", "NUM", "TYPE", "NAME")
_COLOUR_NAMES = ("COLOR", "COLOUR")
_FRENCH = re.compile(r"^[2-9TJQKA][CDHS]$")


def number(word: str) -> int | None:
    """Return the number a word names (``THIRTEEN`` 13, ``TWENTYONE`` 21, ``TWENTY_ONE`` 21), else None."""
    w = re.sub(r"[\s_\-]+", "", word.upper())
    if w.isdigit():
        return int(w)
    if w in _UNITS:
        return _UNITS.index(w)
    for tens, value in _TENS.items():
        if w.startswith(tens):
            rest = w[len(tens) :]
            if not rest:
                return value
            if rest in _UNITS[1:10]:
                return value + _UNITS.index(rest)
    return None


def said(word: str) -> str:
    """Return a value as a card shows it: number words as figures, court cards by their letter,
    other words with a capital ("LLAMA" is "Llama")."""
    n = number(word)
    if n is not None:
        return str(n)
    if word.upper() in _COURT:
        return _COURT[word.upper()]
    if len(word) <= 2 and not re.search(
        "[AEIOU]", word.upper()
    ):  # an abbreviation ("HS", Lost Cities' wager): as written
        return word.upper()
    text = re.sub(r"[_\-]+", " ", word).lower()
    return text[:1].upper() + text[1:]


def _roles(prog: Program) -> tuple[str | None, str | None]:
    """Return the deck's value attribute and its colour attribute (either may be None)."""
    values: dict[str, set[str]] = {}
    for attrs in prog.card_attrs:
        for attr, v in attrs.items():
            values.setdefault(attr, set()).add(v)
    colour = next((a for a in values if a.upper() in _COLOUR_NAMES and values[a] <= COLOURS.keys()), None)
    if colour is None:
        colour = next((a for a in values if values[a] <= COLOURS.keys()), None)
    numeric = [
        a for a in values if a != colour and all(number(v) is not None or v in _COURT for v in values[a])
    ]
    named = [a for a in values if a != colour and a.upper() in _VALUE_NAMES]
    # A value attribute: one named as values are, whose values are mostly numbers (LAMA's
    # NUMBER: ONE..SIX and LLAMA); else any attribute all numbers; else one named as values are.
    mostly = [
        a for a in named if sum(number(v) is not None or v in _COURT for v in values[a]) * 2 > len(values[a])
    ]
    value = (mostly or numeric or named or [None])[0]
    return value, colour


_CACHE: weakref.WeakKeyDictionary[Program, tuple[int, tuple, dict[str, dict[str, Any]]]] = (
    weakref.WeakKeyDictionary()
)


def face(prog: Program, name: str) -> dict[str, Any] | None:
    """Return the face of the card called ``name``, or None for a French card (or no such card)."""
    if _FRENCH.match(name):
        return None
    count = len(prog.card_attrs)
    cached = _CACHE.get(prog)
    if cached is None or cached[0] != count:  # a deck made in play may bring new attributes
        cached = (count, _roles(prog), {})
        _CACHE[prog] = cached
    _, (value_attr, colour_attr), known = cached
    if name in known:
        return known[name]
    cards = prog.cards_named(name)
    if not cards:
        return None
    attrs = prog.card_attrs[cards[0]]
    value = said(attrs[value_attr]) if value_attr in attrs else None
    words = [said(attrs[a]) for a in attrs if a not in (value_attr, colour_attr)]
    colour_word = said(attrs[colour_attr]) if colour_attr in attrs else None
    if value is None:  # no value attribute: the first word is the value
        value, words = (words[0], words[1:]) if words else (colour_word or name, words)
    colour = COLOURS.get(attrs.get(colour_attr, "")) if colour_attr else None
    suit = next((attrs[a] for a in attrs if a.upper() == "SUIT"), None)
    if colour is None and suit is not None:
        colour = _SUIT_COLOURS.get(suit)
    small = [w for w in (colour_word, *words) if w and w != value]
    if suit is not None:  # a suit says it all ("Cups"), its colour drawn
        small = [said(suit)]
        spoken = f"{value} of {said(suit).lower()}"
    elif small:
        spoken = f"{' '.join(small)} {value}"
    else:
        spoken = value
    known[name] = {
        "value": value,
        "corner": value if len(value) <= 3 else value[:3],
        "suit": " ".join(small),
        "colour": colour,
        "name": spoken,
    }
    return known[name]


def faces_of(prog: Program, names: set[str]) -> dict[str, dict[str, Any]]:
    """Return the faces of the cards named in ``names`` that are not French cards."""
    out = {}
    for name in sorted(names):
        f = face(prog, name)
        if f is not None:
            out[name] = f
    return out


def add_faces(prog: Program, view: dict[str, Any]) -> None:
    """Put into ``view`` the faces of the non-French cards it names (``faces``), if any."""
    names: set[str] = set(view.get("hand") or ())
    for place in view.get("locations") or ():
        names.update(place.get("cards") or ())
    trick = view.get("last_trick") or {}
    names.update(entry["card"] for entry in trick.get("cards") or ())
    last = view.get("last") or {}
    move = last.get("move") or {}
    if isinstance(move.get("play"), str):
        names.add(move["play"])
    faces = faces_of(prog, names)
    if faces:
        view["faces"] = faces
    values = _attribute_values(prog)
    order = name_order(prog)  # the headline's words in the description's order (trump suit, then colour)
    view.get("strings", []).sort(key=lambda e: (e["owner"] != "game", order.get(e["name"], 1 << 20)))
    for entry in view.get("strings") or ():
        # The felt tells the game's words that name a card's suit, colour or value ("Trump
        # suit: Hearts"); a program's own markers ("TESTING: NOB") stay in the program.
        entry["felt"] = entry["owner"] == "game" and entry["value"] in values
        if entry["felt"]:
            entry["said"] = said(entry["value"])


def _attribute_values(prog: Program) -> frozenset[str]:
    """Every value any card's attribute takes."""
    cached = _VALUES.get(prog)
    if cached is None or cached[0] != len(prog.card_attrs):
        cached = (len(prog.card_attrs), frozenset(v for attrs in prog.card_attrs for v in attrs.values()))
        _VALUES[prog] = cached
    return cached[1]


_VALUES: weakref.WeakKeyDictionary[Program, tuple[int, frozenset[str]]] = weakref.WeakKeyDictionary()


def hand_order(prog: Program, names: list[str]) -> list[str]:
    """Return ``names`` in the order a hand is held: French cards in the project's order, then the
    others by colour or suit (as the deck lists them) and by value (numbers in their order)."""
    french = sorted((n for n in names if _FRENCH.match(n)), key=lambda n: CARD_INDEX.get(n, 99))
    others = [n for n in names if not _FRENCH.match(n)]
    if not others:
        return french
    index: dict[str, int] = {}
    for i, name in enumerate(prog.names):
        index.setdefault(name, i)
    group: dict[str, int] = {}  # each suit or colour at the deck's first card of it
    for name in prog.names:
        f = face(prog, name)
        if f is not None:
            group.setdefault(f["suit"], len(group))

    def key(name: str) -> tuple:
        f = face(prog, name) or {"value": name, "suit": ""}
        n = number(f["value"]) if f["value"] not in _COURT else None
        return (group.get(f["suit"], 1 << 20), n is None, n or 0, index.get(name, 1 << 20))

    return french + sorted(others, key=key)
