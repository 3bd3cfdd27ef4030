"""``manage.py checkreplays``: replay every stored finished game and report any that does not replay."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardtable.tables.models import Match
from cardtable.tables.replay import ReplayError, walk


def failures(matches: Any) -> tuple[int, list[str]]:
    """Replay each of ``matches`` (checked move by move, and against its result); return (count, failures).

    Each failure is one line: the table and game number, the game id, and why it
    does not replay.
    """
    count, failed = 0, []
    for match in matches.iterator(chunk_size=200):
        count += 1
        try:
            for _step in walk(match):
                pass
        except ReplayError as error:
            failed.append(f"table {match.table_id} game {match.number} ({match.game}): {error.message}")
    return count, failed


class Command(BaseCommand):
    """Replay every finished game (or those of the games named) against its log and recorded result."""

    help = (
        "Replay every stored finished game from its seed and move log, checking each move's chance "
        "events and the recorded result; list the games that do not replay and exit non-zero if any."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        """GAME ...: only games of these ids (all when none is named)."""
        parser.add_argument("games", nargs="*", metavar="GAME", help="game ids to check (default: all)")

    def handle(self, *args: Any, **options: Any) -> None:
        """Replay and say how many replay; if any does not, ``CommandError`` names each on its own line."""
        matches = Match.objects.filter(finished__isnull=False).order_by("finished", "pk")
        if options["games"]:
            matches = matches.filter(game__in=options["games"])
        count, failed = failures(matches)
        if failed:  # Django prints the error (each failure a line) and exits with status 1
            raise CommandError(
                f"{len(failed)} of {count} finished games do not replay:\n" + "\n".join(failed)
            )
        noun = "game replays to its" if count == 1 else "games replay to their"
        self.stdout.write(f"{count} finished {noun} recorded result{'' if count == 1 else 's'}")
