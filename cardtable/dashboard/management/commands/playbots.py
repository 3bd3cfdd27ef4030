"""``manage.py playbots GAME --games N``: bot-only games played into the database.

Each game is played through the real table service, as the server plays bots:
a table is created, every seat gets a bot, the host starts it, and the bot
driver's own turn function (``bots.play_pending``) makes each bot's move through
``moving.apply_move`` (one transaction, version checked, move logged). The
games land in the same tables as games people play, so the dashboard's
statistics cover them. Later games at the table are rematches.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardtable.dashboard.stats import summarize
from cardtable.tables.authority import seating
from cardtable.tables.autoplay.driver import play_pending
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, MoveRecord, Player, Table
from games import GAMES
from games.bots import LEVELS


def play_games(
    game_id: str,
    games: int,
    players: int | None = None,
    options: dict | None = None,
    levels: list[str] | None = None,
) -> Table:
    """Play ``games`` bot-only games at one new table through the table service; return the table."""
    host, _ = Player.objects.get_or_create(name="playbots", user=None)
    table = seating.create_table(host, game_id, players, options, seated=False)
    levels = levels or ["random"]
    if len(levels) == 1:
        levels = levels * table.players
    if len(levels) != table.players or any(level not in LEVELS for level in levels):
        raise TableError(
            "bad_options", f"name one bot level, or one per seat ({table.players}), from {LEVELS}"
        )
    for seat, level in enumerate(levels):
        seating.add_bot(table.pk, host, seat, level)
    for number in range(games):
        (seating.start if number == 0 else seating.rematch)(table.pk, host)
        play_pending(table.pk)
    return table


class Command(BaseCommand):
    """Play bot-only games into the database for the statistics."""

    help = "Play N bot-only games of a game through the table service into the database."

    def add_arguments(self, parser: CommandParser) -> None:
        """GAME, --games, --players, --options, --bots."""
        parser.add_argument("game", choices=sorted(GAMES))
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument("--players", type=int)
        parser.add_argument("--options", help="JSON object, e.g. '{\"target\": 50}'")
        parser.add_argument("--bots", default="random", help="one level for all seats, or one per seat")

    def handle(self, *args: Any, **opts: Any) -> None:
        """Play the games, summarize them, print a short report."""
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        try:
            options = json.loads(opts["options"]) if opts["options"] else None
        except ValueError as error:
            raise CommandError(f"--options is not JSON: {error}") from None
        started = time.perf_counter()
        try:
            table = play_games(opts["game"], opts["games"], opts["players"], options, opts["bots"].split(","))
        except TableError as error:
            raise CommandError(error.message) from None
        seconds = time.perf_counter() - started
        matches = list(Match.objects.filter(table=table).order_by("number"))
        for match in matches:
            summarize(match)
        moves = MoveRecord.objects.filter(match__table=table).count()
        wins = [0] * table.players
        for match in matches:
            for seat in match.result["winners"]:
                wins[seat] += 1
        self.stdout.write(f"table: {table.pk}")
        self.stdout.write(
            f"games: {len(matches)} in {seconds:.1f} s ({moves / max(seconds, 1e-9):.0f} moves/s)"
        )
        self.stdout.write(f"moves per game: {moves / len(matches):.1f}")
        self.stdout.write("wins per seat: " + " ".join(f"{seat}:{n}" for seat, n in enumerate(wins)))
