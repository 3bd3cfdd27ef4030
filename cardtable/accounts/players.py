"""A player's page, ``/players/<id or name>/``: their finished games per game, with results and replays.

A game is theirs when they started in a seat or took one over (``MatchPlayer``);
its line shows that seat's place and points, and says which it was.

Who may see it: anyone, for a registered player; a guest's page only that guest
(their own session) and staff; a deleted account's former player only staff.
Anyone else gets 404, as for a player that does not exist.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from cardtable.ratings.summary import rating_for
from cardtable.reviews.summary import average_mistake_cost, reviewed_matches
from cardtable.tables.authority import departures
from cardtable.tables.models import Match, MatchPlayer, Player
from cardtable.tables.players import accounts
from cardtable.tables.players.identity import player_for
from cardtable.tables.players.names import skeleton
from games import get_game
from games.engine import GameError, GameInfo

# Games listed per game on the page (the figures count them all).
LISTED = 50


@dataclass
class GameLine:
    """One finished game as the page lists it."""

    match: Match
    place: int
    points: float
    won: bool
    left: bool
    replay: str
    took_over: bool = False  # they took the seat over from a bot playing for someone who left
    review: str = ""  # the replay opened at the player's review, once one is made


@dataclass
class GameFigures:
    """One game's figures for one player, and its finished games, newest first."""

    game: str
    name: str
    games: int = 0
    wins: int = 0
    points: float = 0.0
    moons: int | None = None  # None: the game has no moon to shoot
    lines: list[GameLine] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def average(self) -> float:
        """Average points a game."""
        return self.points / self.games if self.games else 0.0


def find_player(key: str) -> Player | None:
    """The player with id ``key``, or the registered player whose name looks like ``key``."""
    if key.isdigit():
        return Player.objects.filter(pk=int(key)).select_related("user").first()
    return Player.objects.filter(shape=skeleton(key), user__isnull=False, former=False).first()


def may_see(request: HttpRequest, player: Player) -> bool:
    """Whether the visitor may see ``player``'s page (the module's rule)."""
    if request.user.is_authenticated and request.user.is_staff:
        return True
    if player.former:
        return False
    if player.user_id is not None:
        return True
    me = player_for(request.session, request.user)
    return me is not None and me.pk == player.pk


def line_of(held: MatchPlayer, info: GameInfo) -> GameLine:
    """The place and points of ``held``'s seat in its finished game (``info``: the game's, saying who won)."""
    match, seat = held.match, held.seat
    scores = match.result["scores"]
    return GameLine(
        match=match,
        place=info.ranks(scores)[seat] + 1,
        points=scores[seat],
        won=seat in match.result.get("winners", []),
        left=held.player_id in departures.gone(match.left, seat),  # taking one's seat back is no leave
        replay=reverse("dashboard:replay", args=[match.table_id, match.number]),
        took_over=held.how == MatchPlayer.TOOK_OVER,
    )


def figures_from_other_apps(player: Player, game: str) -> dict[str, Any]:
    """The figures other apps keep of the player in ``game``: the review's average mistake cost and the
    rating; the page shows "—" for ``None``."""
    return {"mistake_cost": average_mistake_cost(player.pk, game), "rating": rating_for(player.pk, game)}


def figures(player: Player) -> list[GameFigures]:
    """The player's figures per game, from the finished games they held a seat in (``accounts.played``)."""
    by_game: dict[str, GameFigures] = {}
    for held in accounts.played(player).iterator():
        match, seat = held.match, held.seat
        if match.result is None or match.finished is None:
            continue  # still running, or ended before it was over
        try:
            info = get_game(match.game).info
        except GameError:  # a RECYCLE game staff have since removed: nothing says who won
            continue
        entry = by_game.setdefault(match.game, GameFigures(match.game, info.name))
        line = line_of(held, info)
        entry.games += 1
        entry.wins += line.won
        entry.points += line.points
        if match.moons is not None:
            entry.moons = (entry.moons or 0) + match.moons[seat]
        if len(entry.lines) < LISTED:
            entry.lines.append(line)
    reviewed = reviewed_matches(player.pk)
    for entry in by_game.values():
        entry.extra = figures_from_other_apps(player, entry.game)
        for line in entry.lines:
            if line.match.pk in reviewed:
                line.review = line.replay + "#review"
    return sorted(by_game.values(), key=lambda entry: entry.name)


def player_page(request: HttpRequest, key: str) -> HttpResponse:
    """GET a player's page (the module's rule says who may)."""
    player = find_player(key)
    if player is None or not may_see(request, player):
        raise Http404("no such player")
    me = player_for(request.session, request.user)
    context = {
        "player": player,
        "mine": me is not None and me.pk == player.pk,
        "registered": player.user_id is not None,
        "per_game": figures(player),
    }
    return render(request, "accounts/player.html", context)
