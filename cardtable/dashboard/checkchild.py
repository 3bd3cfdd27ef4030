"""The child process of a RECYCLE game's playability check (``checkjobs``).

``python -m cardtable.dashboard.checkchild JOB.json --json OUT`` reads the
description, its title, id and description words from ``JOB.json``, compiles it,
runs ``recycle_games.check`` and writes its figures to ``OUT``; a game that is
refused ends the process with status 1 and the reason as its last line of
standard error. It touches no database: Django is set up only because the check
lives beside the models.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """Check the job's game; return the exit status (0: it plays, 1: refused, reason on stderr)."""
    parser = argparse.ArgumentParser(prog="checkchild", description=__doc__.split("\n\n")[0])
    parser.add_argument("job", help="a JSON file: text, name, game_id, description")
    parser.add_argument("--json", required=True, help="where to write the check's figures")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardtable.settings")
    import django

    django.setup()
    from cardtable.dashboard import recycle_games
    from games.engine import GameError
    from games.recycle import loads

    job = json.loads(Path(args.job).read_text(encoding="utf-8"))
    try:
        game = loads(
            job["text"], job["name"], job["game_id"], experimental=True, description=job["description"]
        )
        checked = recycle_games.check(game)
    except GameError as error:
        print(str(error), file=sys.stderr)
        return 1
    Path(args.json).write_text(json.dumps(checked), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
