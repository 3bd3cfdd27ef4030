"""``manage.py rebuild_ratings [GAME ...]``: rebuild the ratings exactly from the game records."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from cardtable.ratings import rating


class Command(BaseCommand):
    """Delete the ratings and rate every finished game again, in the order the games finished."""

    help = (
        "Rebuild the ratings from the game records: delete them and replay every finished game "
        "in order of finish time (every game, or the games named)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        """GAME ...: only these game ids (all when none is named)."""
        parser.add_argument("games", nargs="*", metavar="GAME", help="game ids to rebuild (default: all)")

    def handle(self, *args: Any, **options: Any) -> None:
        """Rebuild in one transaction and say how many games were rated."""
        games = options["games"] or None
        rated = rating.rebuild(games)
        self.stdout.write(f"rated {rated} finished games")
