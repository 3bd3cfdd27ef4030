"""A review of one seat's decisions in one finished game (docs/review.md)."""

from __future__ import annotations

from django.db import models

from cardtable.tables.models import Match, Player


class Review(models.Model):
    """One seat's decisions in one finished game, weighed by search in a background job.

    ``figures`` is what ``games.bots.review.review`` returns (every decision, each
    legal move's expected value with its standard error, the mistakes); ``reviewed``,
    ``total_cost`` and ``average_cost`` repeat its figures for the player's page.
    ``status``, ``worker`` and ``message`` are the job's (``cardtable/jobs.py``).
    """

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    # Who sat there when the game started (null once the player is deleted).
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="reviews"
    )
    game = models.CharField(max_length=64)
    seed = models.BigIntegerField(default=0)
    playouts = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=8, default=QUEUED)
    worker = models.CharField(max_length=100, blank=True, default="")
    message = models.TextField(blank=True, default="")
    unit = models.CharField(max_length=16, blank=True, default="")
    # Decisions weighed, the sum of their costs and its mean (null: none weighed).
    reviewed = models.PositiveIntegerField(default=0)
    total_cost = models.FloatField(default=0)
    average_cost = models.FloatField(null=True, blank=True)
    figures = models.JSONField(default=dict, blank=True)
    seconds = models.FloatField(default=0)
    queued = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_review_per_seat")]
        indexes = [models.Index(fields=["status", "queued"]), models.Index(fields=["player", "game"])]

    def __str__(self) -> str:
        return f"review of seat {self.seat} in {self.match}"
