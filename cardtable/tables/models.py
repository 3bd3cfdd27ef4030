"""The table's records: players, tables, seats, games played, the move log, chat and its moderation.

The database is the store of record. A table's current game state is a JSON
column beside its version; every move is also appended to the log of the game
(``Match``) it belongs to, so any game can be replayed from its seed and moves.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

# A game's shuffles all come from its seed, so the seed is the game's secret: 128
# bits of the OS's randomness leaves no search over seeds (31 bits once did: a
# player found the seed from their own hand in an hour). See docs/security.md.
SEED_BITS = 128


def new_seed() -> int:
    """Return a fresh game seed: ``SEED_BITS`` bits from the operating system's CSPRNG."""
    return secrets.randbits(SEED_BITS)


class SeedField(models.CharField):
    """A whole number of any size, stored as decimal text (a database integer holds 64 bits at most).

    Python sees an ``int``; the column is text, so a 128-bit seed round-trips exactly.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 80)
        super().__init__(*args, **kwargs)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> int | None:
        """Turn the stored text back into the number."""
        return None if value is None else int(value)

    def to_python(self, value: Any) -> int | None:
        """Accept a number or its decimal text."""
        if value is None or isinstance(value, int):
            return value
        return int(value)

    def get_prep_value(self, value: Any) -> str | None:
        """Store the number as decimal text."""
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise TypeError(f"a seed is a whole number, not {value!r}")
        return str(int(value))


def new_table_id() -> str:
    """Return a fresh, hard-to-guess table id (10 lowercase letters and digits)."""
    alphabet = "abcdefghijkmnopqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(10))


class Player(models.Model):
    """Someone who can sit at a table: a guest with a name, or a logged-in user."""

    name = models.CharField(max_length=24)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="player"
    )
    # The name's confusable skeleton (players/names.py ``skeleton``), kept by whoever sets
    # the name: an account's name is compared with every other player's by it.
    shape = models.CharField(max_length=100, blank=True, default="", db_index=True)
    # The account was deleted: the row keeps its seats and games under a "Former player"
    # name, and no session or user can be this player again.
    former = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name

    def to_json(self) -> dict:
        """Return the player as the protocol shows it."""
        return {"id": self.pk, "name": self.name}


class Table(models.Model):
    """A table for one game with its seats; it plays one game after another."""

    WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
    ABANDONED, STAFF = "abandoned", "staff"  # why an ended table ended
    STATUSES = [(WAITING, "waiting"), (PLAYING, "playing"), (FINISHED, "finished")]

    id = models.CharField(primary_key=True, max_length=16, default=new_table_id, editable=False)
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    host = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL, related_name="hosted_tables")
    status = models.CharField(max_length=10, choices=STATUSES, default=WAITING)
    # The current game's whole state (games' to_json) and the table's version:
    # every change to seats, status or game adds one.
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    # Who plays the seats changes without a new version when a stand-in takes a
    # seat or gives it back (presence): this counts those changes, in the same
    # transaction, so a move guarded on (version, seating) knows exactly who
    # plays each seat (known.apply_on_known, the bot driver's look).
    seating = models.PositiveIntegerField(default=0)
    game_number = models.PositiveIntegerField(default=0)
    # The turn clock: seconds per turn (0: none), and the time by which the
    # seats to act must move. Kept here so a restart or another process sees it.
    clock = models.PositiveSmallIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    # The seats the server moved for when the last deadline passed ([] otherwise).
    last_timeout = models.JSONField(default=list, blank=True)
    # Since when no websocket at all has been open here (null while someone is).
    alone_since = models.DateTimeField(null=True, blank=True)
    # Why an ended table ended: "abandoned" (nobody came back) or "staff"; "" while open.
    ended = models.CharField(max_length=10, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-updated"])]

    def __str__(self) -> str:
        return f"{self.game} {self.id}"


class Seat(models.Model):
    """One place at a table: empty, a human player, or a bot of some level."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats")
    bot_level = models.CharField(max_length=10, blank=True, default="")
    # A seated human whose connections have all gone: since when, and whether the
    # grace has run out so a bot now plays for them (``stand_in``).
    away_since = models.DateTimeField(null=True, blank=True)
    stand_in = models.BooleanField(default=False)
    # The name of the player who left this seat mid-game; a bot plays it now.
    left = models.CharField(max_length=24, blank=True, default="")
    # The turn clock's timeouts in a row for this seat's human (two make them away).
    timeouts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="one_seat_per_index"),
            models.UniqueConstraint(
                fields=["table", "player"], condition=Q(player__isnull=False), name="one_seat_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} seat {self.index}"

    @property
    def kind(self) -> str:
        """Return ``human``, ``bot`` or ``empty``."""
        if self.player_id is not None:
            return "human"
        return "bot" if self.bot_level else "empty"


class Match(models.Model):
    """One game played at a table: its seed and seats, its log, and its result."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField()
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    # Secret until the game ends: the whole deal follows from it (never sent to a client before).
    seed = SeedField()
    # Who sat where when it started: [{"seat", "name", "kind", "level", "player"}].
    seats = models.JSONField(default=list)
    first_deal = models.JSONField(null=True, blank=True)
    # The table's version when this game started (its first state).
    version = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    # Per seat, the deals in which it shot the moon, for a game that says (Hearts'
    # ``moons``); null for the others, and while the game runs.
    moons = models.JSONField(null=True, blank=True)
    # Who left mid-game: [{"seat", "player", "name", "moves"}] (moves made before
    # they last left), and who took the seat over from the bot ("taken_by", a player
    # id). One entry per seat and player, at most HOLDERS_PER_SEAT a seat (departures.py).
    left = models.JSONField(default=list, blank=True)
    # The table ended with nobody present before this game was over.
    abandoned = models.BooleanField(default=False)
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name_plural = "matches"
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="one_match_per_number")]

    def __str__(self) -> str:
        return f"{self.table_id} game {self.number}"


class MatchPlayer(models.Model):
    """A player who held a seat in a game: at its start (``started``) or by taking it over (``took_over``).

    What ``Match.seats`` and ``Match.left[*]["taken_by"]`` say, kept as rows so a
    player's games are found by an index. The authority writes them in the
    transaction that starts the game or records the takeover (``seating``).
    """

    STARTED, TOOK_OVER = "started", "took_over"
    HOW = [(STARTED, "started"), (TOOK_OVER, "took over")]

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="holders")
    # The index below leads with the player, so the foreign key needs none of its own.
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="played", db_index=False)
    seat = models.PositiveSmallIntegerField()
    how = models.CharField(max_length=10, choices=HOW, default=STARTED)
    # The game's ``Match.started``, copied so a player's games come newest first from the index alone.
    started = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player", "seat"], name="one_row_per_player_seat")
        ]
        indexes = [models.Index(fields=["player", "-started"], name="played_by_player_newest")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.match_id} seat {self.seat} ({self.how})"


class MoveRecord(models.Model):
    """One move in a game's append-only log, numbered from 1."""

    HUMAN, BOT, STAND_IN, ADMIN, TIMEOUT = "human", "bot", "stand_in", "admin", "timeout"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    by = models.CharField(max_length=10, default=HUMAN)
    # The table's version after this move, and who was to act before it (the
    # simultaneous-phase rule in moving.check_version reads both).
    version = models.PositiveIntegerField()
    to_act = models.JSONField(default=list)
    events = models.JSONField(default=list)
    # The words the move was offered with (``Game.move_words``: a RECYCLE choice's), for the log.
    said = models.JSONField(null=True, blank=True, default=None)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_move_per_seq")]

    def __str__(self) -> str:
        return f"{self.match} move {self.seq}"


class ChatMessage(models.Model):
    """A line of table chat: plain text, never rendered as HTML."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    player = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    name = models.CharField(max_length=24)
    text = models.CharField(max_length=500)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "at", "id"]

    def to_json(self) -> dict:
        """Return the protocol's chat message."""
        return {
            "type": "chat",
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "at": self.at.isoformat(),
        }


class HiddenChat(models.Model):
    """A chat line hidden by staff: its original text, who hid it and when (``staff.hide_chat``)."""

    message = models.OneToOneField(ChatMessage, on_delete=models.CASCADE, related_name="hidden")
    text = models.CharField(max_length=500)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"hidden chat {self.message_id}"


class Connection(models.Model):
    """One open websocket, for presence across server processes.

    ``seen`` is refreshed by a heartbeat; a row not seen for a while belongs to a
    process that died and no longer counts. ``process`` names the process, so a
    restarted server can tell its dead predecessor's rows at once.
    """

    channel = models.CharField(max_length=200, primary_key=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="connections")
    player = models.ForeignKey(Player, null=True, on_delete=models.CASCADE)
    seen = models.DateTimeField()
    # The server process holding the socket ("host:pid:boot"): after a restart the
    # rows of a dead process on this host go at once, however young (presence.recover).
    process = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["table", "player"])]
