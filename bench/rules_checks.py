"""What reads badly in a RECYCLE game's rules text: the checks ``recycle_rules.py`` counts.

``findings(program, goal, paragraphs, text)`` returns ``(kind, detail)`` pairs, one per
fault, ``kind`` one of ``KINDS``. Only the words the describer made are checked: the
"About this game" paragraph and every comment of the file (stage titles, notes on
options) are the author's own and are taken out first. Tests use it too, on RECYCLE
written here (tests/games/recycle/test_rules_prose.py).
"""

from __future__ import annotations

import re

from games.recycle.compiling.program import Program
from games.recycle.reading.forms import walk
from games.recycle.reading.syntax import NAMED_FORMS
from games.recycle.words.names import readable, spelled_out

KINDS = (
    "variable letter",  # a bound variable as the program spells it: "P's Hand", "Choose B"
    "internal name",  # a program name not turned into words: "Mymatches", "Nump", "TRICKSWON"
    "names used below",  # a glossary of the program's declarations in place of prose
    "tricks without tricks",  # "trick" said of a game in which no one takes a trick
    "empty section",  # a heading with nothing after it
    "long section",  # a paragraph past what a person reads as one rule
    "missing section",  # no players, cards, places, order of play or end
)
SECTIONS = ("Cards", "Places", "The game, in order", "The game ends")
LONG_SECTION = 3_000  # characters: about a minute of reading
RAW_NAME = re.compile(r"\b[A-Z][A-Z0-9_]{2,}\b")


def made_text(paragraphs: list[str], goal: str, source: str) -> list[str]:
    """Return the goal and the paragraphs the describer wrote, without the author's comments."""
    made = [p for p in paragraphs if not p.startswith("About this game")] + [goal]
    comments = {c.strip() for c in re.findall(r";+([^\n]*)", source)}
    for comment in sorted(comments, key=len, reverse=True):
        if len(comment) > 2:
            made = [p.replace(comment, "").replace(comment[:1].upper() + comment[1:], "") for p in made]
    return made


def program_names(program: Program) -> tuple[set[str], set[str]]:
    """Return the variables the program binds or declares, and the names of its places,
    counts, words and point maps."""
    root = program.stages[0][3]
    variables = set(program.declared)
    names: set[str] = set()
    for node in walk(root):
        if node.kind == "agg":
            variables.add(node.args[2])
        elif node.kind in ("let", "filter"):
            variables.add(node.args[1])
        elif node.kind == "put_points":
            names.add(node.args[0])
        elif node.kind in NAMED_FORMS and isinstance(node.args[-1], str):
            names.add(node.args[-1])
    return {v for v in variables if isinstance(v, str)}, names


def has_tricks(program: Program) -> bool:
    """Return whether someone takes a trick: the owner of the best card of a place named
    like a trick (``TRICK``, ``PLAY...``) is found, as CardStock's trick games do."""
    for node in walk(program.stages[0][3]):
        best = node.args[0] if node.kind == "owner" and node.args else None
        if getattr(best, "kind", "") in ("max_card", "min_card"):
            places = [n.args[-1] for n in walk(node) if n.kind in ("owned_location", "game_location")]
            if any(isinstance(p, str) and re.search("TRICK|PLAY|LEAD", p) for p in places):
                return True
    return False


def _spoken(variable: str) -> list[re.Pattern[str]]:
    """Return how a variable shows when left as the program spells it: ``P`` as a capital
    on its own (not a sentence's first "A"), ``MYMATCHES`` as "Mymatches" too."""
    if len(variable) == 1:
        if variable == "A":
            return [re.compile(r"(?<![.:;!?(]\s)(?<!^)\bA\b(?!\s+[a-z])")]
        return [re.compile(rf"\b{variable}\b")]
    forms = {variable, readable(variable)}
    return [re.compile(rf"\b{re.escape(f)}\b") for f in forms]


def findings(program: Program, goal: str, paragraphs: list[str], source: str) -> list[tuple[str, str]]:
    """Return each fault of a game's rules text as ``(kind, detail)``."""
    out: list[tuple[str, str]] = []
    heads = {p.split(":", 1)[0].split(" (", 1)[0] for p in paragraphs}
    heads |= {"The game ends" for p in paragraphs if p.startswith("The game ends")}
    out += [("missing section", s) for s in SECTIONS if s not in heads]
    if not goal:
        out.append(("missing section", "goal"))
    for paragraph in paragraphs:
        body = paragraph.split(":", 1)[1] if ":" in paragraph[:60] else paragraph
        if not body.strip(" .…"):
            out.append(("empty section", paragraph[:40]))
        if len(paragraph) > LONG_SECTION:
            out.append(("long section", f"{paragraph.split(':', 1)[0][:40]} ({len(paragraph)} characters)"))
    made = made_text(paragraphs, goal, source)
    text = "\n".join(made)
    if "Names used below" in text:
        out.append(("names used below", ""))
    variables, names = program_names(program)
    for variable in sorted(variables - names):  # a name also a place's or count's: checked below
        if any(pattern.search(text) for pattern in _spoken(variable)):
            out.append(("variable letter", variable))
    for name in sorted(names - variables):
        if not spelled_out(name) and re.search(rf"\b{re.escape(readable(name))}\b", text):
            out.append(("internal name", readable(name)))
    out += [("internal name", raw) for raw in sorted(set(RAW_NAME.findall(text)))]
    if not has_tricks(program):
        spoken = text
        for name in names:  # a place called "Trick" is the game's word, not a claim of tricks
            spoken = spoken.replace(readable(name), "")
        if re.search(r"\btricks?\b", spoken, re.IGNORECASE):
            out.append(("tricks without tricks", ""))
    return out
