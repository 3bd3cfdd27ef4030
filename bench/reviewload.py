"""Reviews running beside the load (``bench/load.py --reviews N``).

Before the server starts, ``queue_reviews`` plays N Hearts games to their end in
its database, a person in seat 0 playing at random, and queues their reviews; the
server's review worker starts with the first socket at a table (``TableOpened``)
and runs them one after another in its niced child process while the load is
measured. ``reviews_line`` says afterwards how many were done.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SEED = """
import random
from cardtable.reviews import jobs
from cardtable.tables.authority import moving, seating
from cardtable.tables.models import Match, MoveRecord, Player, Table
from games import get_game
game = get_game("hearts")
for number in range(COUNT):
    host = Player.objects.create(name=f"Rev{number}")
    table = seating.create_table(host, "hearts", None, {}, seated=True)
    seating.sit(table.pk, host, 0)
    for seat in (1, 2, 3):
        seating.add_bot(table.pk, host, seat, "random")
    seating.start(table.pk, host)
    rng = random.Random(number)
    table = Table.objects.get(pk=table.pk)
    while table.status == Table.PLAYING:
        state = game.from_json(table.state)
        seat = game.to_act(state)[0]
        by = MoveRecord.HUMAN if seat == 0 else MoveRecord.BOT
        move = rng.choice(game.legal_moves(state, seat))
        moving.apply_move(table.pk, move, table.version, seat=seat, by=by)
        table = Table.objects.get(pk=table.pk)
    jobs.queue_match(Match.objects.get(table=table, number=1))
"""

COUNT = """
from cardtable.reviews.models import Review
from django.db.models import Sum
done = Review.objects.filter(status=Review.DONE)
print(done.count(), Review.objects.count(), done.aggregate(s=Sum("seconds"))["s"] or 0)
"""


def _shell(env: dict[str, str], script: str) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env={**env, "REVIEW_JOBS": "0"},
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    ).stdout


def queue_reviews(env: dict[str, str], count: int) -> None:
    """Play ``count`` Hearts games with a person to their end in the server's database; queue
    their reviews."""
    _shell(env, SEED.replace("COUNT", str(count)))
    print(f"queued {count} reviews of whole Hearts games, run by the server while it is measured", flush=True)


def reviews_line(env: dict[str, str]) -> str:
    """Say how many reviews the server finished, and the seconds their children computed."""
    done, total, seconds = _shell(env, COUNT).split()
    return f"reviews done: {done} of {total}, {float(seconds):.0f} s of review computing"
