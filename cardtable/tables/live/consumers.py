"""The table's websocket: a thin transport between PROTOCOL.md messages and the authority.

The consumer parses and checks a frame's shape, hands the request to
``services``, and answers with an error or lets the resulting change bring the
new state (through the process's hub, ``fanout.py``). It keeps no game state:
every state it sends is built by ``state.message_for`` for its own player's
seat, from the snapshot of the change (the committer's, the one a wake carries,
or one read of the table shared by the process's connections).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError

from cardtable.tables.authority import chat, moving, seating
from cardtable.tables.authority.state import Snapshot, message_for, snapshot
from cardtable.tables.autoplay import hints, searches, turns
from cardtable.tables.dbthreads import db_call
from cardtable.tables.errors import TableError
from cardtable.tables.events import DeadlineSet, TableOpened, emit
from cardtable.tables.live import arrival, dberrors, fanout, heartbeat, shutdown, sockets
from cardtable.tables.models import Player
from cardtable.tables.players import ratelimit
from cardtable.tables.players.limits import MAX_FRAME_BYTES, TokenBucket

log = logging.getLogger(__name__)

# Each message type and the fields it must carry, with their JSON types.
SHAPES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "sit": {"seat": int},
    "stand": {},
    "bot": {"seat": int, "level": str},
    "unbot": {"seat": int},
    "start": {},
    "move": {"move": dict, "version": int},
    "sync": {},
    "chat": {"text": str},
    "rematch": {},
    "leave": {},
    "takeover": {"seat": int},
    "hint": {},
}


def _echo_id(message: dict[str, Any]) -> str | int | None:
    """Return the message's id if it is well formed (a string or number of at most 64 characters)."""
    message_id = message.get("id")
    if not isinstance(message_id, bool) and isinstance(message_id, str | int) and len(str(message_id)) <= 64:
        return message_id
    return None


async def _read_snapshot(table_id: str) -> Snapshot:
    return await db_call(snapshot)(table_id)


def _encode(message: dict[str, Any]) -> str:
    """A message as a frame's JSON text."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson stops at integers wider than 64 bits; json does not
        return json.dumps(message, separators=(",", ":"))


class TableConsumer(AsyncWebsocketConsumer):
    """One websocket at one table, for a player (seated or not) or a spectator.

    It has no channel-layer channel of its own: the process's hub (``fanout.py``)
    hands it every change of its table (``show_state``) and chat line
    (``show_chat``). Its ``channel_name`` is only its unique name, the key of its
    presence row and of this process's socket list.
    """

    # No layer for this consumer (an alias with no layer configured): the hub owns the process's one channel.
    channel_layer_alias = "none: the hub in fanout.py wakes the consumers"
    table_id: str
    player: Player | None
    sent_version = -1
    socket: sockets.Socket | None = None  # listed in this process's sockets once admitted
    hub: fanout.Hub | None = None  # the hub serving this connection, once joined
    accepted = False

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Run the handler of a message, without Channels' own ``aclose_old_connections`` first.

        Channels (4.2 and later) runs that cleanup before every handler as a call on
        the one sync thread, where it queues behind the database work of every
        other connection: four extra hops per four-seat move. Every database call
        made here goes through ``database_sync_to_async`` or ``db_call``, which
        close stale connections around the call themselves.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        """``connect``; if the database cannot record the connection in time: ``unavailable``, closed 4503."""
        try:
            await super().websocket_connect(message)
        except DatabaseError as error:
            if not self.accepted:
                await self.accept()
            await self._send_json(dberrors.unavailable(error, "connecting").to_json())
            await self.close(code=dberrors.TRY_AGAIN_LATER)

    async def accept(self, subprotocol: str | None = None, headers: list | None = None) -> None:
        """Accept the handshake (once)."""
        self.accepted = True
        await super().accept(subprotocol, headers)

    async def connect(self) -> None:
        """Accept the connection, join the process's hub for the table and send the current state."""
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        # The player and the table in one trip to a thread (a storm makes each trip wait: arrival.py).
        self.player, found = await db_call(arrival.identify)(self.scope, self.table_id)
        self.messages = TokenBucket(settings.WS_RATE, settings.WS_BURST)
        self.address = ratelimit.scope_address(self.scope)
        await self.accept()
        try:  # new websockets per address, counted in every process (docs/security.md)
            await ratelimit.allowance("connect", None, self.address).atake("new connections")
        except TableError as error:
            await self._send_json(error.to_json())
            await self.close(code=4429)
            return
        if not found:
            await self._send_json({"type": "error", "code": "not_found", "message": "there is no such table"})
            await self.close(code=4404)
            return
        self.socket = sockets.admit(self.channel_name, self.table_id, self._player_id)
        if self.socket is None:  # this player holds too many sockets already (docs/security.md S2)
            limits = f"{settings.WS_PER_TABLE} at a table, {settings.WS_PER_PLAYER} in all"
            message = f"too many connections: a player may hold {limits}"
            await self._send_json({"type": "error", "code": "rate_limited", "message": message})
            await self.close(code=4429)
            return
        shutdown.register(self)
        heartbeat.start()
        # Before the first read: a change committed after it reaches this socket. (Redis
        # down: the hub serves the table anyway and joins its group once Redis is back.)
        self.hub = await fanout.attach()
        await self.hub.join(self)
        self.socket.hooks.append(self._leave_hub)
        # Shielded: if Daphne cancels us now, the row is still written and then released.
        # One call writes it and reads the clock, the state, the chat and what a stand-in did.
        self.socket.joining = asyncio.ensure_future(
            db_call(arrival.arrive)(self.channel_name, self.table_id, self._player_id)
        )
        arrived = await asyncio.shield(self.socket.joining)
        emit(TableOpened(self.table_id, arrived.snapshot))  # a table paused with nobody here plays on
        emit(DeadlineSet(self.table_id, arrived.deadline))
        await self._send_snapshot(arrived.snapshot)
        for line in arrived.chat:
            await self._send_json(line)
        if arrived.stood_in is not None:
            await self._send_json(arrived.stood_in)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        """Serve the socket; however the consumer ends (closed, crashed, cancelled), release its presence."""
        self.channel_name = fanout.connection_name()
        try:
            await self._serve(scope, receive, send)
        finally:
            if self.socket is not None and not self.socket.released:
                self.socket.closed = True
                await asyncio.shield(sockets.release_soon(self.socket))

    async def _serve(self, scope: dict, receive: Callable, send: Callable) -> None:
        """Channels' ``AsyncConsumer.__call__`` for a consumer without a layer: each message in turn.

        Channels waits on its sources with a fresh task per message and
        ``asyncio.wait``, which costs every incoming frame two or three more turns
        of the event loop before its handler runs (docs/performance.md, "The move
        path"). With the client as the only source, a plain loop does the same.
        """
        self.scope = scope
        self.channel_layer = None
        self.base_send = send
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass

    async def disconnect(self, code: int) -> None:
        """Leave the group and presence; start the grace if a seated human has gone."""
        try:
            if self.socket is not None:
                self.socket.closed = True
                await sockets.release(self.socket)
        finally:
            shutdown.unregister(self)  # after the release: a stop waits for it

    async def _leave_hub(self) -> None:
        if self.hub is not None:
            await self.hub.leave(self)

    @property
    def _player_id(self) -> int | None:
        return self.player.pk if self.player is not None else None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Check a frame, run the request it carries, and answer any error."""
        message_id = None
        try:
            size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
            if size > MAX_FRAME_BYTES:
                raise TableError("too_large", f"a frame may carry at most {MAX_FRAME_BYTES} bytes")
            if not self.messages.take():
                raise TableError("rate_limited", "too many messages; slow down")
            if shutdown.draining:  # the process is stopping: this socket closes (4012) in a moment
                return
            message = self._decode(text_data)
            message_id = _echo_id(message)
            self._check(message)
            with shutdown.handling():  # a stop waits for this request to finish
                # A change it commits reaches this socket through the hub, Redis or not.
                await self._handle(message)
        except DatabaseError as error:  # nothing changed: the request's transaction rolled back
            await self._send_json(dberrors.unavailable(error, "handling a message").to_json(message_id))
        except TableError as error:
            await self._send_json(error.to_json(message_id))

    def _decode(self, text_data: str | None) -> dict[str, Any]:
        if text_data is None:
            raise TableError("bad_message", "frames are JSON text, not binary")
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: nesting deeper than json can follow
            raise TableError("bad_message", "the frame is not JSON") from None
        if not isinstance(message, dict):
            raise TableError("bad_message", "a message is a JSON object with a type")
        return message

    def _check(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        shape = SHAPES.get(kind) if isinstance(kind, str) else None  # a list or object is unhashable
        if shape is None:
            known = ", ".join(SHAPES)
            named = repr(kind) if isinstance(kind, str) else "(not a string)"  # no repr of deep nesting
            raise TableError("bad_message", f"unknown message type {named} (known: {known})")
        if message.get("id") is not None and _echo_id(message) is None:
            raise TableError("bad_message", "id is a string or number of at most 64 characters")
        for field, expected in shape.items():
            value = message.get(field)
            if isinstance(value, bool) or not isinstance(value, expected):
                raise TableError("bad_message", f"{kind} needs {field!r} ({expected.__name__})")

    async def _handle(self, message: dict[str, Any]) -> None:
        kind, player = message["type"], self.player
        if kind == "sync":  # a full read each: limited per player and per address (docs/security.md)
            await ratelimit.allowance("sync", player, self.address).atake("sync requests")
            await self._send_state(force=True)
        elif kind == "chat":
            # rate_limited comes first in the protocol's order, but only a line that
            # would be posted spends the allowance: refused ones cost nothing.
            await self._limited("chat", "chat lines", lambda: self._post_chat(message["text"]))
        elif kind == "hint":
            await self._limited("hint", "hints", lambda: self._hint(message))
        elif kind == "move":
            if player is None:
                raise TableError("no_player", "spectators cannot move; choose a name and sit first")
            await db_call(moving.apply_move)(
                self.table_id, message["move"], message["version"], player=player
            )
        elif kind in ("leave", "takeover"):  # each changes the table for everyone: limited per player
            call = {
                "leave": lambda: seating.leave(self.table_id, player),
                "takeover": lambda: seating.takeover(self.table_id, player, message["seat"]),
            }[kind]
            await self._limited(kind, f"{kind}s", database_sync_to_async(call))
        else:
            call = {
                "sit": lambda: seating.sit(self.table_id, player, message["seat"]),
                "stand": lambda: seating.stand(self.table_id, player),
                "bot": lambda: seating.add_bot(self.table_id, player, message["seat"], message["level"]),
                "unbot": lambda: seating.remove_bot(self.table_id, player, message["seat"]),
                "start": lambda: seating.start(self.table_id, player),
                "rematch": lambda: seating.rematch(self.table_id, player),
            }[kind]
            await database_sync_to_async(call)()

    async def _limited(self, kind: str, what: str, run: Callable[[], Awaitable[Any]]) -> None:
        """Count the action against its limits, then run it; a refusal gives the count back."""
        allowance = ratelimit.allowance(kind, self.player, self.address)
        await allowance.atake(what)
        try:
            await run()
        except (TableError, DatabaseError):
            await allowance.arefund()
            raise

    async def _post_chat(self, text: str) -> None:
        chat.check_chat(self.player, text)
        await database_sync_to_async(chat.post_chat)(self.table_id, self.player, text)

    async def _hint(self, message: dict[str, Any]) -> None:
        """Answer this connection (only) with the normal bot's move for its own seat."""
        # Hints take only spare search capacity: bots' moves at every table come first.
        if searches.waiting() >= 2 * settings.SEARCH_WORKERS:
            raise TableError("rate_limited", "the server is busy thinking; ask for a hint again in a moment")
        job = await db_call(hints.hint_job)(self.table_id, self.player)
        move = await turns.search(job.game, job.state, job.seat, "normal", job.seed)
        await self._send_json({"type": "hint", "move": move, "id": _echo_id(message)})

    @property
    def viewer(self) -> int | None:
        """Whose eyes this connection's frames are built for (the hub shares a frame between its tabs)."""
        return self._player_id

    def frame_for(self, snap: Snapshot) -> str:
        """This connection's seat's state frame of ``snap``, as text (built ahead by ``Hub.prepare``)."""
        return _encode(message_for(snap, self._player_id))

    async def show_state(self, snap: Snapshot, frame: str | None = None) -> None:
        """The hub's call after a change of the table: send our seat's state if it is news.

        ``frame`` is that state as ``frame_for`` built it, or ``None`` to build it now.
        """
        await self._send_snapshot(snap, frame=frame)

    async def show_chat(self, message: dict[str, Any]) -> None:
        """The hub's call for a chat line: forward it."""
        await self._send_json(message)

    async def _send_state(self, force: bool = False) -> None:
        await self._send_snapshot(await _read_snapshot(self.table_id), force)

    async def _send_snapshot(self, snap: Snapshot, force: bool = False, frame: str | None = None) -> None:
        if force or snap.version >= self.sent_version:
            self.sent_version = snap.version
            await self.send(text_data=frame if frame is not None else self.frame_for(snap))

    async def _send_json(self, message: dict[str, Any]) -> None:
        await self.send(text_data=_encode(message))
