"""Make the rules text of every RECYCLE file below each folder, and say where it reads badly.

Run ``python bench/recycle_rules.py FOLDER...`` (every ``.gdl`` and ``.rcy`` file that
loads; ``--show NAME`` prints the text of the files whose name contains NAME). For
each folder it prints how many files load, how many are described with every
section present and no program name left as the program spells it, and each
file that is not, with why. docs/recycle.md, "Rules text".
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import GameError
from games.recycle import load

SECTIONS = ("Cards", "Places", "The game, in order", "The game ends")
RAW_NAME = re.compile(r"\b[A-Z][A-Z0-9_]{2,}\b")


def problems(path: Path) -> list[str] | None:
    """Return what is wrong with a file's rules text ([] when nothing), or None if it does not load."""
    try:
        info = load(path).info
    except GameError:
        return None
    except Exception as error:  # a crash in the compiler is the coverage script's to report
        return [f"CRASH loading: {type(error).__name__}: {error}"]
    out = []
    if not info.goal:
        out.append("no goal")
    heads = {p.split(":", 1)[0].split(" (", 1)[0] for p in info.how_to_play}
    heads |= {"The game ends" for p in info.how_to_play if p.startswith("The game ends")}
    out += [f"no {section!r} section" for section in SECTIONS if section not in heads]
    out += ["an empty paragraph" for p in info.how_to_play if not p.strip()]
    made = [p for p in info.how_to_play if not p.startswith("About this game")] + [info.goal]
    # The file's own comments (stage titles, notes on options) are the author's words: left out.
    text = path.read_text(encoding="utf-8", errors="replace")
    for comment in sorted({c.strip() for c in re.findall(r";+([^\n]*)", text)}, key=len, reverse=True):
        if len(comment) > 2:
            made = [p.replace(comment, "").replace(comment[:1].upper() + comment[1:], "") for p in made]
    raw = sorted({w for p in made for w in RAW_NAME.findall(p)})
    if raw:
        out.append("names as the program spells them: " + ", ".join(raw[:8]))
    return out


def main(argv: list[str] | None = None) -> int:
    """Print, per folder, how many loaded files are described well, and the rest."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--show", default="", help="print the rules of files whose name contains this")
    args = parser.parse_args(argv)
    for folder in args.folders:
        files = sorted(p for p in folder.rglob("*") if p.suffix in (".gdl", ".rcy"))
        began = time.process_time()
        loaded, good, bad = 0, 0, []
        for path in files:
            found = problems(path)
            if found is None:
                continue
            loaded += 1
            if found:
                bad.append(f"{path.relative_to(folder)}: {'; '.join(found)}")
            else:
                good += 1
            if args.show and args.show.lower() in path.name.lower():
                info = load(path).info
                print(f"--- {path.name}\n{info.goal}\n" + "\n".join(f"- {p}" for p in info.how_to_play))
        print(
            f"{folder}: {len(files)} files, {loaded} load, {good} described with every section "
            f"({time.process_time() - began:.1f} s CPU)"
        )
        for line in bad:
            print(f"  {line[:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
