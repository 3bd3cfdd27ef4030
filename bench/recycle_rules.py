"""Make the rules text of every RECYCLE file below each folder, and say where it reads badly.

Run ``python bench/recycle_rules.py FOLDER...`` (every ``.gdl`` and ``.rcy`` file that
loads; ``--show NAME`` prints the text of the files whose name contains NAME). For
each folder it prints how many files load, how many read cleanly, how many files
have each kind of fault (``rules_checks.KINDS``: a variable letter, an internal name,
"Names used below", "tricks" in a game without tricks, an empty, long or missing
section) and how many faults in all, then each file with its faults.
docs/recycle.md, "Rules text".
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.rules_checks import KINDS, findings
from games.engine import GameError
from games.recycle import load


def problems(path: Path) -> list[tuple[str, str]] | None:
    """Return the faults of a file's rules text ([] when none), or None if it does not load."""
    try:
        game = load(path)
    except GameError:
        return None
    except Exception as error:  # a crash in the compiler is the coverage script's to report
        return [("crash", f"{type(error).__name__}: {error}")]
    text = path.read_text(encoding="utf-8", errors="replace")
    return findings(game.program, game.info.goal, list(game.info.how_to_play), text)


def main(argv: list[str] | None = None) -> int:
    """Print, per folder, how many loaded files read cleanly, the faults by kind, and each file's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--show", default="", help="print the rules of files whose name contains this")
    args = parser.parse_args(argv)
    for folder in args.folders:
        files = sorted(p for p in folder.rglob("*") if p.suffix in (".gdl", ".rcy"))
        began = time.process_time()
        loaded, good, bad = 0, 0, []
        files_by_kind: Counter[str] = Counter()
        faults = 0
        for path in files:
            found = problems(path)
            if found is None:
                continue
            loaded += 1
            faults += len(found)
            files_by_kind.update({kind for kind, _ in found})
            if found:
                said = "; ".join(f"{kind}: {detail}" if detail else kind for kind, detail in found)
                bad.append(f"{path.relative_to(folder)}: {said}")
            else:
                good += 1
            if args.show and args.show.lower() in path.name.lower():
                info = load(path).info
                print(f"--- {path.name}\n{info.goal}\n" + "\n".join(f"- {p}" for p in info.how_to_play))
        print(
            f"{folder}: {len(files)} files, {loaded} load, {good} read cleanly, {faults} faults "
            f"({time.process_time() - began:.1f} s CPU)"
        )
        for kind in (*KINDS, "crash"):
            if files_by_kind[kind]:
                print(f"  files with {kind}: {files_by_kind[kind]}")
        for line in bad:
            print(f"  {line[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
