"""RECYCLE games: any CardStock description, played behind the game contract.

``load(path)`` or ``loads(text, name)`` compiles a description into a
``RecycleGame`` (raising ``RecycleError`` with the line and column when it is
not a game). See docs/recycle.md for the language as supported, the moves and
the view.
"""

from __future__ import annotations

from pathlib import Path

from games.recycle.errors import RecycleError, RecycleRuntimeError
from games.recycle.playing.game import RecycleGame
from games.recycle.reading.listing import extract_listing, post_title

LIBRARY = Path(__file__).parent / "library"
MAX_FILE_BYTES = 256_000


def loads(
    text: str,
    name: str = "RECYCLE game",
    game_id: str | None = None,
    experimental: bool = False,
    description: str = "",
) -> RecycleGame:
    """Compile a description's text; ``name`` names the game, ``game_id`` gives its id
    (``recycle_<name>`` otherwise), ``experimental`` marks a game staff added, and
    ``description`` (else the file's leading comments) opens its "How to play"."""
    return RecycleGame(text, name, game_id, experimental, description)


def load(path: str | Path, name: str | None = None) -> RecycleGame:
    """Compile the description in a ``.rcy`` file (or a CardStock blog post holding one).

    The game is named ``name``, else by the post's title, else after the file
    (``ninety_eight.rcy``: "Ninety Eight").
    """
    path = Path(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise RecycleError(f"cannot read {path.name}: {error.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise RecycleError(f"{path.name} is larger than {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecycleError(f"{path.name} is not UTF-8 text") from None
    if "{% highlight racket %}" in text:
        name = name or post_title(text)
        text = extract_listing(text)
    return loads(text, name or path.stem.replace("_", " ").title())


def library() -> dict[str, Path]:
    """Return the project's own descriptions, by file stem (``agram`` -> ``library/agram.rcy``)."""
    return {path.stem: path for path in sorted(LIBRARY.glob("*.rcy"))}


__all__ = ["LIBRARY", "RecycleError", "RecycleGame", "RecycleRuntimeError", "library", "load", "loads"]
