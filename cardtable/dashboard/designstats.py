"""CardStock's design statistics stored for the dashboard (computed offline, never per page view).

``compute`` runs ``games.stats.measure`` for one game variant and stores it as
a ``DesignStats`` row (``store``: each heuristic with its standard error);
``variants`` lists what ``manage.py designstats --all`` covers: every game at
its default player count, played standard and under each of its presets. ``rows``
gives the dashboard what it shows, charts included.
"""

from __future__ import annotations

import json
import time
from typing import Any

from cardtable.dashboard import charts
from cardtable.dashboard.models import DesignStats
from games import GAMES, get_game
from games.engine import Game, GameError
from games.stats import NAMES, measure


def variant_key(options: dict | None) -> str:
    """Return the options as canonical JSON (the variant's key)."""
    return json.dumps(options or {}, sort_keys=True, separators=(",", ":"))


def label_of(options: dict | None) -> str:
    """Return a short name for the variant: its preset and any other options, or ``standard``."""
    options = dict(options or {})
    preset = options.pop("preset", "standard")
    extra = ", ".join(f"{k} {v}" for k, v in sorted(options.items()))
    return f"{preset}, {extra}" if extra else str(preset)


def variants() -> list[tuple[str, dict]]:
    """Return (game id, options) for every game, standard and each of its presets."""
    return [
        (game_id, options)
        for game_id, game in GAMES.items()
        for options in [{}, *({"preset": name} for name in game.info.presets)]
    ]


def store(result: dict[str, Any], options: dict | None, seconds: float, **extra: Any) -> DesignStats:
    """Store ``games.stats.measure``'s result as its variant's row (replacing it); return the row."""
    row, _ = DesignStats.objects.update_or_create(
        game=result["game"],
        players=result["players"],
        variant=variant_key(options),
        defaults={
            "label": label_of(options),
            "heuristics": result["heuristics"],
            "errors": result.get("errors", {}),
            "experiments": result["experiments"],
            "lead_history": result["lead_history"],
            "playouts": result["playouts"],
            "seed": result["seed"],
            "seconds": round(seconds, 3),
            "status": DesignStats.DONE,
            "worker": "",
            "message": "",
            **extra,
        },
    )
    return row


def compute(
    game: Game,
    players: int | None,
    options: dict | None,
    counts: dict[str, int] | None,
    playouts: int,
    seed: int = 0,
) -> DesignStats:
    """Measure the variant and store (or replace) its row; return it."""
    started = time.perf_counter()
    result = measure(game, players, options, counts, playouts, seed)
    return store(result, options, time.perf_counter() - started)


def lead_chart(row: DesignStats) -> str:
    """Draw the stored lead history: each seat's rank estimate at every search choice."""
    history = [step["lead"] for step in row.lead_history]
    names = [f"seat {seat}" for seat in range(row.players)]
    return charts.lines(
        history,
        names,
        [],
        f"Lead history of one {row.game} game between search players ({row.label})",
        "Each seat's rank estimate (1 first place, 0 last) at every searched choice, "
        "from the search players' playouts.",
        unit="choices",
    )


def rows() -> list[dict[str, Any]]:
    """Return every stored variant for the dashboard: its figures and its lead-history chart."""
    out = []
    for row in DesignStats.objects.all():
        try:
            name = get_game(row.game).info.name
        except GameError:  # a description measured from a file, or a stored game since deleted
            name = row.game
        out.append(
            {
                "row": row,
                "name": name,
                "values": [(row.heuristics.get(name), row.errors.get(name)) for name in NAMES],
                "chart": lead_chart(row) if row.lead_history else None,
            }
        )
    return out
