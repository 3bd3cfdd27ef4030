"""Rating figures: what rating a finished game costs, told in order and late, and a rebuild.

    python bench/ratings.py [--games 400] [--players 30] [--database-url URL]

On a fresh SQLite file (or the database given), records ``--games`` finished
three-seat Hearts games (two of ``--players`` registered players and a bot of a
random level) and prints, for docs/ratings.md:

- in order: the time ``rate_finished`` takes per game (median, 95th percentile),
  as the finishing move's thread spends it after the commit;
- told late: one game whose finish time comes before the last ten rated, which
  winds them back and rates them again; its time, as a ratio to one game in order;
- the rebuild (``rebuild_ratings``) of every game: its time per game, as a ratio
  to one game in order, and a check that it gives the same figures;
- the leaderboard's JSON, ``GET /api/ratings/hearts/``: its median time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.move import setup_django  # noqa: E402


def ms(seconds: float) -> str:
    """Seconds as milliseconds, two decimals."""
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    """Record the games, rate them one by one, tell one late, rebuild, read the leaderboard; print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    setup_django(args.database_url)

    from django.contrib.auth.models import User
    from django.test import Client

    from cardtable.ratings import rating
    from cardtable.ratings.models import RatedMatch, Rating, RatingChange
    from cardtable.tables.models import Match, Player
    from games.bots import LEVELS
    from tests.ratings.helpers import record

    rng = random.Random(34)
    members = [
        Player.objects.create(name=f"P{i}", user=User.objects.create(username=f"bench{i}"))
        for i in range(args.players)
    ]
    matches = []
    for minute in range(args.games):
        holders = [*rng.sample(members, 2), rng.choice(LEVELS)]
        scores = [rng.choice([0, 5, 13, 26]) for _ in holders]
        matches.append(record("hearts", holders, scores, minute=minute, emit=False))
    late = matches.pop(len(matches) - 10)  # finished before the last ten, told after them
    # Each game's result commits just before it is told, as at a table: unfinished till then.
    Match.objects.update(finished=None)

    times = []
    for match in matches:
        Match.objects.filter(pk=match.pk).update(finished=match.finished)
        t0 = time.perf_counter()
        rating.rate_finished(match.pk)
        times.append(time.perf_counter() - t0)
    one = statistics.median(times)
    p95 = statistics.quantiles(times, n=20)[-1]
    print(f"in order: {len(times)} games, median {ms(one)}, p95 {ms(p95)} per game")

    Match.objects.filter(pk=late.pk).update(finished=late.finished)
    t0 = time.perf_counter()
    rating.rate_finished(late.pk)
    told = time.perf_counter() - t0
    print(f"told late (10 games after it): {ms(told)}, {told / one:.1f}x one game in order")

    def figures() -> tuple[list, list]:
        """Every rating and every change, floats exact."""
        ratings = sorted(Rating.objects.values_list("player_id", "mu", "sigma", "games", "updated"))
        changes = sorted(RatingChange.objects.values_list("rated__match_id", "player_id", "mu", "sigma"))
        return ratings, changes

    before = figures()
    t0 = time.perf_counter()
    rebuilt = rating.rebuild()
    whole = time.perf_counter() - t0
    print(
        f"rebuild: {rebuilt} games in {whole:.2f} s, {ms(whole / rebuilt)} per game, "
        f"{whole / rebuilt / one:.2f}x one game in order; same figures: {figures() == before}"
    )
    assert RatedMatch.objects.count() == rebuilt

    client = Client()
    reads = []
    for _ in range(30):
        t0 = time.perf_counter()
        assert client.get("/api/ratings/hearts/").status_code == 200
        reads.append(time.perf_counter() - t0)
    print(f"leaderboard JSON ({args.players} players): median {ms(statistics.median(reads))}")


if __name__ == "__main__":
    main()
