"""What the pages read of the ratings: a game's leaderboard, and one player's rating in one game."""

from __future__ import annotations

from typing import Any

from cardtable.ratings.models import Rating
from cardtable.ratings.rating import bot_rating, ordinal
from games.bots import LEVELS

# The leaderboard's length: the best players of a game, the bots' rows besides.
LEADERBOARD_SIZE = 100


def shown(value: float) -> float:
    """A rating as people read it: one decimal."""
    return round(value, 1)


def registered(game: str) -> Any:
    """The ratings of ``game`` held by registered players, best first (a player's ratings stay theirs)."""
    return (
        Rating.objects.filter(game=game, player__user__isnull=False)
        .select_related("player")
        .order_by("-ordinal", "-games", "player__name", "player_id")
    )


def bot_rows() -> list[dict[str, Any]]:
    """Each bot level as a reference row: its fixed rating, the same in every game."""
    rows = []
    for level in LEVELS:
        mu, sigma = bot_rating(level)  # type: ignore[misc]
        rows.append(
            {
                "kind": "bot",
                "place": None,
                "player": None,
                "level": level,
                "name": f"Bot ({level})",
                "rating": shown(ordinal(mu, sigma)),
                "mu": mu,
                "sigma": sigma,
                "games": None,
                "exact": ordinal(mu, sigma),
            }
        )
    return rows


def leaderboard(game: str, size: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The best ``size`` players of ``game`` and the bot levels among them, by displayed rating.

    Each row: ``kind`` (``player`` or ``bot``), ``place`` (a player's place among
    players; ``None`` for a bot), ``player`` (id), ``level``, ``name``, ``rating``
    (the ordinal, one decimal), ``mu``, ``sigma``, ``games`` (rated; ``None`` for a bot).
    """
    rows = [
        {
            "kind": "player",
            "place": place,
            "player": r.player_id,
            "level": None,
            "name": r.player.name,
            "rating": shown(r.ordinal),
            "mu": r.mu,
            "sigma": r.sigma,
            "games": r.games,
            "exact": r.ordinal,
        }
        for place, r in enumerate(registered(game)[:size], start=1)
    ]
    # A stable sort: at an equal rating the players stay ahead of a bot, in their order.
    merged = sorted([*rows, *bot_rows()], key=lambda row: -row["exact"])
    for row in merged:
        del row["exact"]
    return merged


def rating_for(player_id: int, game: str) -> dict[str, Any] | None:
    """A registered player's rating in ``game`` for their page; ``None`` when they have none there.

    ``{"game", "rating" (the ordinal, one decimal), "mu", "sigma", "games" (rated),
    "place" (among the game's rated players), "players" (how many there are)}``.
    """
    rating = Rating.objects.filter(player_id=player_id, game=game, player__user__isnull=False).first()
    if rating is None:
        return None
    board = registered(game)
    ahead = board.filter(ordinal__gt=rating.ordinal).count()
    return {
        "game": game,
        "rating": shown(rating.ordinal),
        "mu": rating.mu,
        "sigma": rating.sigma,
        "games": rating.games,
        "place": ahead + 1,
        "players": board.count(),
    }
