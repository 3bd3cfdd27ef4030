"""RECYCLE games staff add on the dashboard, and the game source that serves them.

``prepare`` compiles a pasted or uploaded description (a bad one fails with its
line and column) under its title; ``check`` plays up to ``CHECK_GAMES`` games with
random players to show it plays as written (``games.recycle.playing.playcheck``: a game
that stalls, by moves or by time, loses or duplicates a card, or in which a seat
never moves, is refused with the reason). The dashboard's upload stores the game
at once and runs the check in a background job's child process (``checkjobs``);
``add`` checks in this process and stores, for code that may wait. The title and
description may be left empty (``title_from``: the file's name, or its first
comment when that names the same game; the rules text opens with the file's
leading comments). ``edit`` changes a stored game's title and description.
``find`` and ``listing`` are the source registered with ``games.add_source`` (in
``apps.py``): the server asks for a stored game by id like any other, only once
its check has passed, and the compiled game is kept per id, so a description is
compiled once per process, not on every move.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from typing import Any

from django.db import IntegrityError, transaction

from cardtable.dashboard.models import StoredGame
from games import GAMES
from games.engine import Game, GameError
from games.recycle import RecycleError, loads
from games.recycle.playing.game import RecycleGame, slug
from games.recycle.playing.playcheck import play_check
from games.recycle.reading.forms import leading_comments

PREFIX = "recycle_"
CHECK_GAMES = 100
# The check stops early, after at least MIN_CHECK_GAMES, once it has run CHECK_SECONDS; one
# random game running past GAME_SECONDS has stalled, and the game is refused (CardStock's
# slowest game that plays, Golf, takes 0.3 s a random game; docs/dashboard.md).
MIN_CHECK_GAMES = 3
CHECK_SECONDS = 30.0
GAME_SECONDS = 20.0
MAX_NAME = 80
MAX_DESCRIPTION = 4_000
_CACHE: dict[str, Game] = {}
_LOCK = threading.Lock()


def game_id_for(name: str) -> str:
    """Return the id a stored game of this name gets: ``recycle_`` and its name's slug (32 at most)."""
    return PREFIX + slug(name)[: 32 - len(PREFIX)]


def compile_stored(row: StoredGame) -> Game:
    """Compile a stored description into its game, marked experimental."""
    return loads(row.text, row.name, row.game_id, experimental=True, description=row.description)


def find(game_id: str) -> Game | None:
    """Return the stored game with this id (compiled once per process), or ``None``."""
    if not game_id.startswith(PREFIX):
        return None
    with _LOCK:
        game = _CACHE.get(game_id)
    if game is not None:
        return game
    # A game whose check has not passed (queued, running, failed) is offered nowhere.
    row = StoredGame.objects.filter(game_id=game_id, status=StoredGame.DONE).first()
    if row is None:
        return None
    game = compile_stored(row)
    with _LOCK:
        return _CACHE.setdefault(game_id, game)


def listing() -> list[Game]:
    """Return every stored game whose check passed, in name order, with the title and description
    its row has now.

    Another server process may have edited a row since this one compiled it: the
    listing (the lobby, ``GET /api/games/``) reads the words anew and retitles the
    compiled game, and drops the copies of rows deleted elsewhere.
    """
    rows = list(
        StoredGame.objects.filter(status=StoredGame.DONE).values_list("game_id", "name", "description")
    )
    with _LOCK:
        for gone in set(_CACHE) - {game_id for game_id, _, _ in rows}:
            del _CACHE[gone]
    games = []
    for game_id, name, description in rows:
        game = find(game_id)
        if game is None:
            continue
        if isinstance(game, RecycleGame) and (game.info.name, game.description) != (name, description):
            game.retitle(name, description)
        games.append(game)
    return games


def check(game: Game, games: int = CHECK_GAMES) -> dict[str, Any]:
    """Play up to ``games`` games with random players from seeds 0, 1, ...; return their figures.

    The playing and watching is ``games.recycle.playing.playcheck.play_check``. Raises
    ``GameError`` with its reason when the game does not play as written: a game
    does not end within the interpreter's bounds or within ``GAME_SECONDS`` (it
    stalls), a card is lost or duplicated, no player moves, a seat never moves,
    or nobody holds a card. After ``MIN_CHECK_GAMES`` games, the check stops once
    ``CHECK_SECONDS`` have passed.
    """
    report = play_check(
        game, games, seconds=CHECK_SECONDS, min_games=MIN_CHECK_GAMES, game_seconds=GAME_SECONDS
    )
    if report.problem is not None:
        raise GameError(report.problem)
    return report.figures()


def title_from(text: str, filename: str = "") -> str:
    """Return a title for a description left untitled: the file's name (``CrazyEights4.rcy`` is
    "Crazy Eights 4"), or its first comment's first phrase when that names the same game
    (";; Crazy Eights (pagat.com/...)" in ``crazy_eights.rcy``: "Crazy Eights"; but ";; Cheeseheads"
    in ``SheepsheadPicker5.gdl`` is another game's name); pasted text with no file name takes
    the phrase. '' when there is neither."""
    first = leading_comments(text).split("\n", 1)[0]
    phrase = re.split(r"\(|:|,|;| - |https?://|\bin the GDL\b|\.\s", first, maxsplit=1)[0].strip(" .")
    if not (phrase and len(phrase) <= 40 and re.search(r"[A-Za-z]", phrase)):
        phrase = ""
    phrase = phrase.title() if phrase.isupper() else phrase
    stem = re.sub(r"\.(rcy|gdl|txt|md|markdown|html)$", "", filename.strip(), flags=re.IGNORECASE)
    if phrase and (not stem or _letters(phrase) == _letters(re.sub(r"\d+$", "", stem))):
        return phrase
    stem = re.sub(r"(?<=[a-z])(?=[A-Z0-9])|(?<=[A-Za-z])(?=[0-9])|[_\-]+", " ", stem).strip()
    return stem[:1].upper() + stem[1:] if stem else ""


def _letters(name: str) -> str:
    """Return a name's letters and digits only, lower case, accents dropped: "Enchère" and
    "Enchere", "Simon's Cat" and "Simon'sCat" are the same name."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", plain.lower())


def _clean(name: str, description: str) -> tuple[str, str]:
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME:
        raise GameError(f"give the game a title of 1 to {MAX_NAME} characters")
    description = description.strip()
    if len(description) > MAX_DESCRIPTION:
        raise GameError(f"the description is longer than {MAX_DESCRIPTION} characters")
    return name, description


def prepare(name: str, text: str, description: str = "", filename: str = "") -> tuple[str, str, Game]:
    """Return the title, the description and the compiled game of an upload; raise ``RecycleError``
    (with line and column) or ``GameError`` when the title is missing or taken or the text is
    not a game. An empty ``name`` is taken from the text or ``filename`` (``title_from``); a
    game whose check failed does not keep its title (the new upload replaces it)."""
    name = name.strip() or title_from(text, filename)
    if not name.strip():
        raise GameError("give the game a title: the description has no comment or file name to take one from")
    name, description = _clean(name, description)
    game_id = game_id_for(name)
    taken = StoredGame.objects.filter(game_id=game_id).exclude(status=StoredGame.FAILED).exists()
    if game_id in GAMES or taken:
        raise GameError(f"there is already a game called {name!r} (id {game_id}): choose another title")
    return name, description, loads(text, name, game_id, experimental=True, description=description)


def add(name: str, text: str, user: Any = None, description: str = "", filename: str = "") -> StoredGame:
    """Compile, check (in this process) and store a description; raise ``RecycleError`` (with
    line and column) or ``GameError`` and store nothing when it is not a playable game.

    The dashboard's upload checks in a background job instead (``checkjobs.submit``);
    this is for code that may wait. Call it inside ``transaction.atomic()`` with whatever
    else must be stored with the game: the compiled game is kept for this process only
    once the row is committed.
    """
    name, description, game = prepare(name, text, description, filename)
    row = store(game, name, text, description, user, checked=check(game))
    transaction.on_commit(lambda: _keep(game.info.id, game))
    return row


def store(game: Game, name: str, text: str, description: str, user: Any, **fields: Any) -> StoredGame:
    """Store a compiled upload's row (``fields``: its status or check figures), in place of a game
    whose check failed under the same title; raise ``GameError`` if the title was taken meanwhile."""
    try:
        with transaction.atomic():
            StoredGame.objects.filter(game_id=game.info.id, status=StoredGame.FAILED).delete()
            return StoredGame.objects.create(
                game_id=game.info.id,
                name=name,
                description=description,
                text=text,
                players=game.info.default_players,
                added_by=user if user is not None and user.is_authenticated else None,
                **fields,
            )
    except IntegrityError:
        raise GameError(f"there is already a game called {name!r}: choose another title") from None


def _keep(game_id: str, game: Game) -> None:
    with _LOCK:
        _CACHE[game_id] = game


def edit(game_id: str, name: str, description: str) -> StoredGame:
    """Change a stored game's title and description (its id stays: tables refer to it);
    raise ``GameError`` and change nothing when they are not valid."""
    row = StoredGame.objects.filter(game_id=game_id).first()
    if row is None:
        raise GameError(f"there is no stored game {game_id!r}")
    name, description = _clean(name, description)
    if StoredGame.objects.filter(name__iexact=name).exclude(pk=row.pk).exists():
        raise GameError(f"there is already a game called {name!r}: choose another title")
    row.name, row.description = name, description
    row.save(update_fields=["name", "description"])
    forget(game_id)
    transaction.on_commit(lambda: forget(game_id))  # a copy compiled before the commit is stale too
    return row


def forget(game_id: str) -> None:
    """Drop a compiled game from this process's cache (after its row is deleted)."""
    with _LOCK:
        _CACHE.pop(game_id, None)


def error_context(text: str, error: RecycleError) -> dict[str, Any]:
    """Return the error's message and, when it has a line, that line with a caret under the column."""
    out: dict[str, Any] = {"message": str(error), "line": error.line, "column": error.column}
    lines = text.splitlines()
    if error.line is not None and 1 <= error.line <= len(lines):
        source = lines[error.line - 1]
        out["source"] = source
        out["caret"] = " " * max((error.column or 1) - 1, 0) + "^"
    return out


__all__ = [
    "CHECK_GAMES", "RecycleError", "add", "check", "edit", "error_context", "find", "forget", "listing",
    "prepare", "title_from",
]  # fmt: skip
