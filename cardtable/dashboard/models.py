"""What the dashboard keeps beside the tables' records.

``GameSummary`` holds the figures of one finished game, computed once from its
replay (a finished game never changes), so the statistics need not replay every
game on every page load. (Chat moderation, ``HiddenChat``, lives with the chat
in the tables app.)
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from cardtable.tables.models import Match


class GameSummary(models.Model):
    """The figures of one finished game, from its replay (see docs/dashboard.md)."""

    match = models.OneToOneField(Match, primary_key=True, on_delete=models.CASCADE, related_name="summary")
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    # The options as canonical JSON: games with other options are another variant.
    variant = models.CharField(max_length=500)
    moves = models.PositiveIntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)
    # The first seat to act alone (the first player), and how often the sole lead changed hands.
    first_player = models.PositiveSmallIntegerField(null=True)
    lead_changes = models.PositiveIntegerField(default=0)
    winners = models.JSONField(default=list)
    scores = models.JSONField(default=list)
    bot_only = models.BooleanField(default=False)
    # Set when the log no longer replays under the current rules; the game is left out.
    error = models.TextField(blank=True, default="")
    computed = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["game", "players", "variant"])]
        verbose_name_plural = "game summaries"

    def __str__(self) -> str:
        return f"summary of {self.match}"


class DesignStats(models.Model):
    """CardStock's design statistics of one game variant, computed offline by
    ``manage.py designstats`` or, for a RECYCLE game staff add, by a background job
    (``designjobs``; ``games.stats.measure``; docs/dashboard.md)."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

    game = models.CharField(max_length=64)
    players = models.PositiveSmallIntegerField()
    # The options as asked (a preset and/or options) as canonical JSON, and a label for people.
    variant = models.CharField(max_length=500)
    label = models.CharField(max_length=200, blank=True, default="")
    # fairness, convergence, spread, drama, security, order (each 0-1, or null when not run).
    heuristics = models.JSONField(default=dict)
    # Each heuristic's standard error (same keys; null when not run).
    errors = models.JSONField(default=dict)
    # Per experiment: games, moves per game, seat 0's win rate.
    experiments = models.JSONField(default=dict)
    # One all-search game's lead history: [{"seat": chooser, "lead": [estimate per seat]}, ...].
    lead_history = models.JSONField(default=list)
    playouts = models.PositiveIntegerField()
    seed = models.IntegerField(default=0)
    seconds = models.FloatField(default=0)
    computed = models.DateTimeField(auto_now=True)
    # A background job's progress: queued, running (by ``worker``, "host:pid"), done or failed
    # (``message`` says why). Rows the management command stores are done.
    status = models.CharField(max_length=8, default=DONE)
    worker = models.CharField(max_length=100, blank=True, default="")
    message = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "players", "variant"], name="designstats_one_per_variant")
        ]
        ordering = ["game", "players", "variant"]
        verbose_name = "design statistics"
        verbose_name_plural = "design statistics"

    def __str__(self) -> str:
        return f"design statistics of {self.game} ({self.players} players, {self.label or self.variant})"


class StoredGame(models.Model):
    """A RECYCLE description staff added on the dashboard: a game the lobby lists as
    experimental once its playability check is done (``cardtable/dashboard/recycle_games.py``,
    the check's job ``checkjobs.py``; docs/dashboard.md)."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

    game_id = models.CharField(max_length=32, unique=True)
    name = models.CharField(max_length=80)
    # What staff wrote about the game; empty: "How to play" opens with the file's leading comments.
    description = models.TextField(blank=True, default="")
    text = models.TextField()
    players = models.PositiveSmallIntegerField()
    # The random games played before storing it: games, moves per game (mean, most), wins per seat.
    checked = models.JSONField(default=dict)
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)
    # The check's background job: queued, running (by ``worker``, "host:pid"), done (offered at
    # tables) or failed (``message`` says why; never offered).
    status = models.CharField(max_length=8, default=DONE)
    worker = models.CharField(max_length=100, blank=True, default="")
    message = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.game_id})"
