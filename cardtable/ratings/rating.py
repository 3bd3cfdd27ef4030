"""Rating finished games with openskill: the model, the bots' fixed ratings, the update and the rebuild.

The model is openskill's Plackett-Luce (Weng and Lin's Bayesian approximation):
it takes a game's whole finishing order, any number of players, ties included,
which is what a game of Hearts or Ninety-Eight gives, as one observation, where
openskill's Bradley-Terry and Thurstone-Mosteller models compare the entrants
pair by pair (their "part" variants only neighbours in the order) and Elo rates
two players. Its defaults stand: a new player is mu 25, sigma 25/3, displayed as the
ordinal mu - 3 sigma (docs/ratings.md).

Every game is rated from its record alone (``entrants``), one game at a time per
game id, in the order of finish times, under that game's ``RatedGame`` lock: so
``rebuild`` (delete, replay every finished game) gives the very numbers the
updates gave, to the last bit.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q
from openskill.models import PlackettLuce, PlackettLuceRating

from cardtable.ratings.entrants import BOT, PLAYER, Entrant, entrants
from cardtable.ratings.models import RatedGame, RatedMatch, Rating, RatingChange
from cardtable.tables.events import MatchFinished
from cardtable.tables.models import Match, Player
from games import get_game
from games.bots import LEVELS
from games.engine import GameError

MODEL = PlackettLuce()

# The bots are fixed reference players, never updated: set by level, the same in every
# game. ``normal`` stands where a new player starts; ``random`` far below, since in every
# game ``easy`` beats ``random`` by the widest margin docs/bots.md measures; ``hard`` a
# step above ``normal``. A small sigma says the reference is known, so a game against
# bots moves the person's rating, not the bot's. A level missing here is left out of a game.
REFERENCE_MU = {"random": 15.0, "easy": 22.0, "normal": 25.0, "hard": 28.0}
REFERENCE_SIGMA = 1.0


def bot_rating(level: str) -> tuple[float, float] | None:
    """A bot level's fixed (mu, sigma); ``None`` for a level without a reference."""
    if level not in REFERENCE_MU or level not in LEVELS:
        return None
    return REFERENCE_MU[level], REFERENCE_SIGMA


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: the model's ordinal (mu - 3 sigma), a cautious estimate of the skill."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def rated_matches() -> Q:
    """The games that may be rated: finished with a result, not abandoned."""
    return Q(finished__isnull=False, result__isnull=False, abandoned=False)


def match_entrants(match: Match) -> tuple[list[Entrant], set[int]] | None:
    """A game's rated entrants and which of them are registered; ``None`` when the game is not rated.

    The entrants are the registered players and the bots with a reference;
    guests are left out (no one's opponent, nothing of theirs is stored: a
    throwaway name must not be a win to farm). Not rated: a game that was
    abandoned or never finished, one of a game the site no longer knows, and
    one where no registered player's rating would move (``rated_groups``).
    """
    if match.abandoned or match.finished is None or not match.result:
        return None
    try:
        info = get_game(match.game).info
    except GameError:
        return None
    ranks = info.ranks(match.result["scores"])
    found = [
        e
        for e in entrants(match.seats, match.left, ranks)
        if e.kind == PLAYER or bot_rating(e.level or "") is not None
    ]
    humans = {e.player for e in found if e.kind == PLAYER}
    registered = set(Player.objects.filter(pk__in=humans, user__isnull=False).values_list("pk", flat=True))
    found = [e for e in found if e.kind == BOT or e.player in registered]
    if not rated_groups(found):
        return None
    return found, registered


def rated_groups(found: list[Entrant]) -> list[tuple[list[Entrant], list[Entrant]]]:
    """The rankings one game is rated as: (entrants ranked together, the players whose rating it moves).

    The field, everyone who held a seat to the end (players and bots), is one
    ranking, rated when it holds a player and someone to compare them with. Each
    player who left (a forfeit) is rated alone against the field, ranked last:
    their rating falls, and nobody's rises for it, so a seat left at once is no
    win to collect. With no field, a leaver is not rated.
    """
    field = [e for e in found if not e.forfeit]
    groups = []
    players = [e for e in field if e.kind == PLAYER]
    if players and len(field) >= 2:
        groups.append((field, players))
    if field:
        groups += [([*field, leaver], [leaver]) for leaver in found if leaver.forfeit]
    return groups


def rate_one(match: Match) -> RatedMatch | None:
    """Rate one finished game (the caller holds its game's lock); ``None`` when it is not rated."""
    known = match_entrants(match)
    if known is None:
        return None
    found, registered = known
    current = {r.player_id: r for r in Rating.objects.filter(game=match.game, player_id__in=registered)}

    def before(entrant: Entrant) -> PlackettLuceRating:
        if entrant.kind == BOT:
            mu, sigma = bot_rating(entrant.level or "")  # type: ignore[misc]
            return MODEL.rating(mu=mu, sigma=sigma)
        if entrant.player in current:
            held = current[entrant.player]
            return MODEL.rating(mu=held.mu, sigma=held.sigma)
        return MODEL.rating()  # a registered player's first game: a new player's rating

    moved: dict[int, tuple[PlackettLuceRating, PlackettLuceRating]] = {}
    for ranked, moving in rated_groups(found):
        teams = [[before(e)] for e in ranked]
        after = MODEL.rate(teams, ranks=[e.rank for e in ranked])
        for entrant, (old,), (new,) in zip(ranked, teams, after, strict=True):
            if entrant in moving:
                moved[entrant.player] = (old, new)  # type: ignore[index]
    rated = RatedMatch.objects.create(match=match, game=match.game, finished=match.finished)
    for entrant in found:
        if entrant.player not in moved:
            continue  # bots stay fixed
        old, new = moved[entrant.player]
        RatingChange.objects.create(
            rated=rated,
            player_id=entrant.player,
            rank=entrant.rank,
            mu_before=old.mu,
            sigma_before=old.sigma,
            mu=new.mu,
            sigma=new.sigma,
        )
        rating = current.get(entrant.player) or Rating(player_id=entrant.player, game=match.game)
        rating.mu, rating.sigma, rating.ordinal = new.mu, new.sigma, ordinal(new.mu, new.sigma)
        rating.games += 1
        rating.updated = match.finished
        rating.save()
    return rated


def lock_games(games: Iterable[str]) -> None:
    """Take the ``RatedGame`` lock of each game, in a fixed order (inside a transaction)."""
    names = sorted(set(games))
    for game in names:
        RatedGame.objects.get_or_create(game=game)
    list(RatedGame.objects.select_for_update().filter(game__in=names).order_by("game"))


def from_key(match: Match | RatedMatch, strict: bool) -> Q:
    """The games finished after ``match`` in rating order (``strict``), or from it on."""
    pk = match.pk if isinstance(match, Match) else match.match_id
    same = Q(finished=match.finished, pk__gt=pk) if strict else Q(finished=match.finished, pk__gte=pk)
    return Q(finished__gt=match.finished) | same


def rate_finished(match_id: int) -> None:
    """Rate a game that just finished, and any earlier one of its game left unrated, in order.

    Idempotent: a game is rated once. A game whose finish time comes before a game
    already rated (two tables finishing at once, committed in the other order)
    winds its game's ratings back to it and rates it and the later ones again, so
    the order stays that of the finish times and the figures those a rebuild gives.
    """
    game = Match.objects.filter(pk=match_id).values_list("game", flat=True).first()
    if game is None:
        return
    with transaction.atomic():
        lock_games([game])
        match = Match.objects.get(pk=match_id)
        if RatedMatch.objects.filter(match=match).exists() or match_entrants(match) is None:
            return
        last = RatedMatch.objects.filter(game=game).order_by("-finished", "-match").first()
        if last is not None and (match.finished, match.pk) < (last.finished, last.match_id):
            replay(game, match)
            return
        pending = Match.objects.filter(rated_matches(), game=game, rated__isnull=True)
        if last is not None:
            pending = pending.filter(from_key(last, strict=True))
        for each in pending.order_by("finished", "pk"):
            rate_one(each)


def unwind(game: str, since: Match | None) -> None:
    """Take back the ratings of ``game``'s games from ``since`` on (all of them for ``None``).

    Each player's rating goes back to their last change left: its ``mu`` and
    ``sigma``, exactly as they were stored then.
    """
    later = RatedMatch.objects.filter(game=game)
    if since is not None:
        later = later.filter(
            Q(finished__gt=since.finished) | Q(finished=since.finished, match_id__gte=since.pk)
        )
    players = set(RatingChange.objects.filter(rated__in=later).values_list("player_id", flat=True))
    later.delete()
    if since is None:
        Rating.objects.filter(game=game).delete()
        return
    for player in players:
        kept = RatingChange.objects.filter(rated__game=game, player_id=player).select_related("rated")
        last = kept.order_by("-rated__finished", "-rated__match_id").first()
        if last is None:
            Rating.objects.filter(game=game, player_id=player).delete()
            continue
        Rating.objects.filter(game=game, player_id=player).update(
            mu=last.mu,
            sigma=last.sigma,
            ordinal=ordinal(last.mu, last.sigma),
            games=kept.count(),
            updated=last.rated.finished,
        )


def replay(game: str, since: Match | None = None) -> int:
    """Rate ``game``'s finished games again from ``since`` on (all for ``None``), in order; return how many.

    The caller holds the game's lock, inside a transaction.
    """
    unwind(game, since)
    matches = Match.objects.filter(rated_matches(), game=game)
    if since is not None:
        matches = matches.filter(from_key(since, strict=False))
    return sum(rate_one(match) is not None for match in matches.order_by("finished", "pk"))


def rebuild(games: Iterable[str] | None = None) -> int:
    """Rebuild ratings exactly from the game records (every game, or those named); return the games rated."""
    with transaction.atomic():
        if games is None:
            played = Match.objects.values_list("game", flat=True).distinct()
            games = {*played, *Rating.objects.values_list("game", flat=True)}
        games = sorted(set(games))
        lock_games(games)
        return sum(replay(game) for game in games)


def on_match_finished(event: MatchFinished) -> None:
    """``MatchFinished``'s handler: rate the game (after its result committed, in the committing thread)."""
    rate_finished(event.match_id)
