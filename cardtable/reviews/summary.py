"""A player's figures from their reviews, for their page."""

from __future__ import annotations

from django.db.models import Sum

from cardtable.reviews.models import Review


def average_mistake_cost(player_id: int, game: str | None = None) -> float | None:
    """Return the mean cost of the player's reviewed decisions (of ``game``, else of every game),
    in each game's unit (points, or win chance for games played to the end); ``None`` when none
    was reviewed. Each decision counts once, whichever game it was in."""
    rows = Review.objects.filter(player_id=player_id, status=Review.DONE)
    if game is not None:
        rows = rows.filter(game=game)
    totals = rows.aggregate(cost=Sum("total_cost"), decisions=Sum("reviewed"))
    if not totals["decisions"]:
        return None
    return totals["cost"] / totals["decisions"]


def reviewed_matches(player_id: int) -> set[int]:
    """Return the ids of the games in which a review of the player's decisions is made."""
    return set(
        Review.objects.filter(player_id=player_id, status=Review.DONE).values_list("match_id", flat=True)
    )
