"""The ratings' records: each registered player's rating per game, the games rated and what each changed.

Every row follows from the game records (``Match``) alone: ``manage.py
rebuild_ratings`` deletes them and replays every finished game in order, and
gets the same numbers to the last bit.
"""

from __future__ import annotations

from django.db import models

from cardtable.tables.models import Match, Player


class Rating(models.Model):
    """A registered player's skill in one game: openskill's ``mu`` and ``sigma``, and the games rated."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    # What the leaderboard shows and sorts by: the model's ordinal (mu - 3 sigma),
    # kept beside mu and sigma so the database can order by it.
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    # The finish time of the last game rated: a fact of the records, so a rebuild writes it again.
    updated = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="one_rating_per_game")]
        indexes = [models.Index(fields=["game", "-ordinal"])]

    def __str__(self) -> str:
        return f"{self.player} in {self.game}"


class RatedMatch(models.Model):
    """A finished game that changed ratings; its existence is what makes rating a game happen once."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="rated")
    game = models.CharField(max_length=32)
    # The match's finish time, copied: the order games are rated in is (finished, match).
    finished = models.DateTimeField()

    class Meta:
        ordering = ["finished", "match"]
        indexes = [models.Index(fields=["game", "finished", "match"])]

    def __str__(self) -> str:
        return f"ratings of {self.match}"


class RatingChange(models.Model):
    """One registered player's rating before and after one rated game, and their rank in it (0 best).

    A player's current ``Rating`` is their last change's ``mu`` and ``sigma``: so the
    ratings can be wound back to any game and replayed from there.
    """

    rated = models.ForeignKey(RatedMatch, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["rated", "player"]
        constraints = [models.UniqueConstraint(fields=["rated", "player"], name="one_change_per_player")]

    def __str__(self) -> str:
        return f"{self.player} in {self.rated}"


class RatedGame(models.Model):
    """One row per game with ratings: every update of that game's ratings locks it first.

    So two games finishing at once are rated one after the other, in the order
    of their finish times (``rating.rate_finished``).
    """

    game = models.CharField(max_length=32, primary_key=True)

    def __str__(self) -> str:
        return self.game
