"""``manage.py designstats GAME|--all``: CardStock's design statistics, stored for the dashboard.

Runs ``games.stats.measure`` (the three experiments, docs/dashboard.md) for one
game (a game id, a stored RECYCLE game's id, or a description, PATH.rcy; ``--players``,
``--options``) or, with ``--all``, every game standard and under each preset,
and stores each as a ``DesignStats`` row. The dashboard only reads the rows.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardtable.dashboard.designstats import compute, variants
from games import GAMES, get_game
from games.__main__ import resolve_game
from games.engine import Game, GameError
from games.stats import DEFAULT_COUNTS, DEFAULT_PLAYOUTS


class Command(BaseCommand):
    """Compute and store design statistics."""

    help = "Run CardStock's experiments on a game (or --all) and store its design statistics."

    def add_arguments(self, parser: CommandParser) -> None:
        """The game (or --all), its variant, and the experiments' budgets."""
        parser.add_argument("game", nargs="?", help="a game id or a RECYCLE description, PATH.rcy")
        parser.add_argument("--all", action="store_true", help="every game, standard and each preset")
        parser.add_argument("--players", type=int)
        parser.add_argument("--options", help='JSON object, e.g. \'{"preset": "cardstock"}\'')
        parser.add_argument("--preset", help="a preset of the game (same as --options' preset)")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--random-games", type=int, default=DEFAULT_COUNTS["random"])
        parser.add_argument("--one-search-games", type=int, default=DEFAULT_COUNTS["one_search"])
        parser.add_argument("--all-search-games", type=int, default=DEFAULT_COUNTS["all_search"])
        parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)

    def handle(self, *args: object, **opts: object) -> None:
        """Measure each variant asked for and store it; one line per variant."""
        counts = {
            "random": opts["random_games"],
            "one_search": opts["one_search_games"],
            "all_search": opts["all_search_games"],
        }
        if min(counts.values()) < 0 or max(counts.values()) == 0 or opts["playouts"] < 1:
            raise CommandError("game counts must be 0 or more, one at least positive; --playouts at least 1")
        if bool(opts["all"]) == bool(opts["game"]):
            raise CommandError("name one game, or --all")
        try:
            options = json.loads(opts["options"]) if opts["options"] else None
        except json.JSONDecodeError as error:
            raise CommandError(f"--options is not valid JSON: {error}") from None
        if options is not None and not isinstance(options, dict):
            raise CommandError("--options must be a JSON object")
        if opts["preset"] is not None:
            options = {**(options or {}), "preset": opts["preset"]}
        todo = (
            [(GAMES[g], o) for g, o in variants()]
            if opts["all"]
            else [(self.game(str(opts["game"])), options)]
        )
        for game, variant in todo:
            try:
                game.new(opts["players"], variant, opts["seed"])  # bad options fail before any work
                row = compute(game, opts["players"], variant, counts, opts["playouts"], opts["seed"])
            except GameError as error:
                raise CommandError(str(error)) from None
            values = " ".join(
                f"{k} {'-' if v is None else f'{v:.2f}±{row.errors.get(k) or 0:.3f}'}"
                for k, v in row.heuristics.items()
            )
            name = f"{row.game} ({row.players} players, {row.label})"
            self.stdout.write(f"{name}: {values} [{row.seconds:.1f} s]")

    @staticmethod
    def game(name: str) -> Game:
        """Return the game named (a game id, a stored RECYCLE game's id, or a description file),
        or fail with the command's error."""
        try:
            return (
                get_game(name)
                if name.startswith("recycle_") and not name.endswith(".rcy")
                else resolve_game(name)
            )
        except GameError as error:
            raise CommandError(str(error)) from None
