"""How many RECYCLE files of a folder read and play to the end with random players.

Run ``python bench/recycle_coverage.py FOLDER...`` (every ``.gdl`` and ``.rcy``
file below each folder; ``--games N`` random games per file, 3 by default).
For each folder it prints how many files load, how many play every game to the
end, and each file that fails with its first error, grouped by reason. The team
runs it against CardStock's own game folders (docs/recycle.md, "Coverage").

A file "plays" when ``games.recycle.playing.playcheck.play_check`` finds nothing wrong in
its games with uniformly random moves: each ends by its own end condition within
the interpreter's bounds, no card is lost or duplicated after any move, every
seat moves, and some seat holds a card.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import traceback
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import GameError
from games.recycle import load
from games.recycle.playing.playcheck import play_check


def play_file(path: Path, games: int) -> tuple[str, str]:
    """Return ``("play", "")``, ``("load", reason)`` (read, did not play) or ``("read", reason)``."""
    try:
        game = load(path)
    except GameError as error:
        return "read", str(error)
    except Exception as error:  # a crash is what this script looks for
        return "read", f"CRASH {type(error).__name__}: {error} ({_where(error)})"
    report = play_check(game, games, seconds=float("inf"))
    if report.problem is not None:
        return "load", report.problem
    return "play", ""


def _where(error: Exception) -> str:
    frame = traceback.extract_tb(error.__traceback__)[-1]
    return f"{Path(frame.filename).name}:{frame.lineno}"


def reason_of(message: str) -> str:
    """Return a message without its place and quoted details, to group files by reason."""
    message = re.sub(r"^random game \d+ of \d+ (failed|did not end|stalled)(: |\b)", "", message)
    message = re.sub(r"^line \d+, column \d+: ", "", message)
    message = re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "_", message)
    return message[:100]


def main(argv: list[str] | None = None) -> int:
    """Print the coverage of each folder given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--games", type=int, default=3, help="random games per file")
    parser.add_argument("--quiet", action="store_true", help="only the totals")
    args = parser.parse_args(argv)
    for folder in args.folders:
        files = sorted(p for p in folder.rglob("*") if p.suffix in (".gdl", ".rcy"))
        outcome: dict[str, list[tuple[Path, str]]] = defaultdict(list)
        began = time.process_time()
        for path in files:
            status, message = play_file(path, args.games)
            outcome[status].append((path, message))
        read = len(files) - len(outcome["read"])
        print(
            f"{folder}: {len(files)} files, {read} read, {len(outcome['play'])} play "
            f"{args.games} random games to the end ({time.process_time() - began:.1f} s CPU)"
        )
        if args.quiet:
            continue
        for status, title in (("read", "cannot be read"), ("load", "read but do not play")):
            groups: dict[str, list[str]] = defaultdict(list)
            for path, message in outcome[status]:
                groups[reason_of(message)].append(f"{path.relative_to(folder)}: {message}")
            for reason, lines in sorted(groups.items(), key=lambda item: -len(item[1])):
                print(f"  {title} ({len(lines)}): {reason}")
                for line in lines:
                    print(f"    {line[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
