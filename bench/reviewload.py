"""Reviews running beside the load (``bench/load.py --reviews N``).

Before the server starts, ``queue_reviews`` plays N Hearts games to their end in
its database, a person in seat 0 playing at random, and queues their reviews; the
server's review worker starts with the first socket at a table (``TableOpened``)
and runs them one after another in its niced child process while the load is
measured. ``reviews_line`` says afterwards how many were done.
"""

from __future__ import annotations

import os
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
rows = Review.objects.all()
print(*(rows.filter(status=s).count() for s in ("done", "running", "queued", "failed")))
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


def child_cpu(server_pid: int) -> float:
    """Return the CPU seconds of the server's review child now running (0 when none runs)."""
    ticks = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == server_pid and b"\0review\0" in command:
            return (int(fields[11]) + int(fields[12])) / ticks
    return 0.0


def reviews_line(env: dict[str, str], server_pid: int) -> str:
    """Say where the server's reviews stand, and the CPU its review child has had so far."""
    cpu = child_cpu(server_pid)
    done, running, queued, failed = _shell(env, COUNT).strip().splitlines()[-1].split()
    return (
        f"reviews: {done} done, {running} running, {queued} queued, {failed} failed; "
        f"the running review's child has had {cpu:.1f} s of CPU"
    )
