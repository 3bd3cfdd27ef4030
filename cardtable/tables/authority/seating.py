"""Tables and their seats: create, sit, stand, leave, take over, bots in and out, start and rematch.

Each operation locks the table, checks the request in the protocol's order of
precedence (``errors.CODES``), saves and ends with ``commit.save_changed``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from cardtable.tables.authority import clocks, departures
from cardtable.tables.authority.checks import (
    check_level,
    own_seat,
    require_host,
    require_player,
    require_status,
    seat_at,
    seats_of,
)
from cardtable.tables.authority.commit import locked_table, save_changed
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, MatchPlayer, Player, Seat, Table, new_seed
from games import get_game
from games.engine import GameError


def create_table(
    player: Player | None,
    game_id: object,
    players: object = None,
    options: object = None,
    clock: object = None,
    seated: bool = True,
) -> Table:
    """Create a waiting table; ``player`` becomes its host, seated at seat 0, the other seats empty.

    ``clock`` is the seconds each turn may take: 0 or ``None`` for none, else
    ``clocks.MIN_CLOCK`` to ``clocks.MAX_CLOCK``. ``seated=False`` leaves every
    seat empty: a host who only watches (bot-only games).
    """
    player = require_player(player)
    seconds = clocks.check_clock(clock)
    try:
        game = get_game(game_id)
        count = game.info.check_players(players)  # type: ignore[arg-type]
        if options is not None and not isinstance(options, dict):
            raise GameError("options must be a JSON object")
        resolved = game.info.resolve_options(options)  # type: ignore[arg-type]
    except GameError as error:
        raise TableError("bad_options", str(error)) from None
    with transaction.atomic():
        table = Table.objects.create(
            game=game.info.id,
            players=count,
            options=resolved,
            host=player,
            clock=seconds,
            alone_since=timezone.now(),  # nobody has connected yet
        )
        # The creator sits down at once: a table made to play at is one's own seat.
        Seat.objects.bulk_create(
            Seat(table=table, index=i, player=player if seated and i == 0 else None) for i in range(count)
        )
    return table


def sit(table_id: str, player: Player | None, index: object) -> int:
    """Seat ``player`` in an empty seat; return the new version."""
    with locked_table(table_id) as table:
        seats = seats_of(table)
        seat = seat_at(table, seats, index)
        player = require_player(player)
        if seat.player_id == player.pk and table.status == Table.WAITING:
            # Sitting where one sits already (the creator, seated on creation) changes nothing.
            return save_changed(table, [])
        if seat.kind != "empty":
            raise TableError("seat_taken", f"seat {seat.index} is taken")
        if any(s.player_id == player.pk for s in seats):
            raise TableError("seat_taken", "you already hold a seat at this table")
        require_status(table, Table.WAITING, "sit down")
        seat.player = player
        seat.save(update_fields=["player"])
        return save_changed(table, [])


def stand(table_id: str, player: Player | None) -> int:
    """Take ``player`` out of their seat before the game starts."""
    with locked_table(table_id) as table:
        player = require_player(player)
        seat = own_seat(table, player)
        require_status(table, Table.WAITING, "stand up")
        seat.player = None
        seat.away_since, seat.stand_in = None, False
        seat.save(update_fields=["player", "away_since", "stand_in"])
        return save_changed(table, [])


def leave(table_id: str, player: Player | None) -> int:
    """Leave your seat: before a game it is ``stand``; during or after one a bot plays it on.

    The bot is the stand-in level's; the seat shows who left (``Seat.left``) and
    the game's record notes the departure (``Match.left``, one entry per seat
    and player: ``departures.record_departure``), so its result is not counted
    as an ordinary loss. Leaving is final for that game except for taking the
    same seat back (``takeover``). The host stays the host, and the turn's
    deadline stands: a seat changing hands is not a new turn.
    """
    with locked_table(table_id) as table:
        player = require_player(player)
        seat = own_seat(table, player)
        if table.status == Table.WAITING:
            seat.player = None
            seat.away_since, seat.stand_in, seat.timeouts = None, False, 0
            seat.save(update_fields=["player", "away_since", "stand_in", "timeouts"])
            return save_changed(table, [])
        if table.ended:
            raise TableError("wrong_status", "the table has ended")
        match = Match.objects.filter(table=table, number=table.game_number).first()
        if match is not None and match.result is None:
            moves = match.moves.count()
            departure = {"seat": seat.index, "player": player.pk, "name": player.name, "moves": moves}
            match.left = departures.record_departure(match.left, departure)
            match.save(update_fields=["left"])
        # ``timeouts`` stays: the turn clock's count is the seat's until someone else takes it over.
        seat.player, seat.bot_level, seat.left = None, settings.STAND_IN_LEVEL, player.name
        seat.away_since, seat.stand_in = None, False
        seat.save(update_fields=["player", "bot_level", "left", "away_since", "stand_in"])
        return save_changed(table, [], keep_deadline=True)


def takeover(table_id: str, player: Player | None, index: object) -> int:
    """A player takes over the seat a bot plays for someone who left, during a game.

    Nobody holds, or has held, two seats of one game: a player who held a seat
    in this game (at its start, or by a takeover) may take back only that
    seat, and at most ``departures.HOLDERS_PER_SEAT`` players hold one seat in
    one game. The host stays the host, and the turn's deadline stands. The
    game's record notes the takeover (``Match.left``'s ``taken_by``) and the
    player's row among its holders (``MatchPlayer``, ``took_over``).
    """
    with locked_table(table_id) as table:
        seats = seats_of(table)
        seat = seat_at(table, seats, index)
        player = require_player(player)
        if any(s.player_id == player.pk for s in seats):
            raise TableError("seat_taken", "you already hold a seat at this table")
        if not seat.left or seat.kind != "bot":
            raise TableError("seat_taken", f"seat {seat.index} is not open to take over (nobody left it)")
        match = Match.objects.filter(table=table, number=table.game_number).first()
        seats_then, left = (match.seats, match.left) if match is not None else ([], [])
        held = departures.held_seats(seats_then, left, player.pk)
        if held - {seat.index}:
            other = min(held - {seat.index})
            raise TableError(
                "seat_taken", f"you held seat {other} in this game: you may take back only that seat"
            )
        returning = seat.index in held
        if (
            not returning
            and len(departures.holders(seats_then, left, seat.index)) >= departures.HOLDERS_PER_SEAT
        ):
            raise TableError("seat_taken", f"seat {seat.index} has changed hands too often in this game")
        if match is None or table.status != Table.PLAYING or table.ended:
            raise TableError("wrong_status", f"take over a seat during a game (the table is {table.status})")
        match.left = departures.record_takeover(match.left, seat.index, player.pk, match.moves.count())
        match.save(update_fields=["left"])
        # A player taking back the seat they started in, or took over before, has their row already.
        MatchPlayer.objects.get_or_create(
            match=match,
            player=player,
            seat=seat.index,
            defaults={"how": MatchPlayer.TOOK_OVER, "started": match.started},
        )
        seat.player, seat.bot_level, seat.left = player, "", ""
        if not returning:
            seat.timeouts = 0  # the turn clock's count of the one who left is not the newcomer's
        seat.save(update_fields=["player", "bot_level", "left", "timeouts"])
        return save_changed(table, [], keep_deadline=True)


def add_bot(table_id: str, player: Player | None, index: object, level: object) -> int:
    """The host puts a bot of ``level`` in an empty seat."""
    check_level(level)
    with locked_table(table_id) as table:
        seat = seat_at(table, seats_of(table), index)
        player = require_player(player)
        if seat.kind != "empty":
            raise TableError("seat_taken", f"seat {seat.index} is taken")
        require_host(table, player)
        require_status(table, Table.WAITING, "add a bot")
        seat.bot_level = str(level)
        seat.save(update_fields=["bot_level"])
        return save_changed(table, [])


def remove_bot(table_id: str, player: Player | None, index: object) -> int:
    """The host takes a bot out of its seat before the game starts."""
    with locked_table(table_id) as table:
        seat = seat_at(table, seats_of(table), index)
        if seat.kind != "bot":
            raise TableError("bad_message", f"seat {seat.index} holds no bot")
        require_host(table, require_player(player))
        require_status(table, Table.WAITING, "remove a bot")
        seat.bot_level = ""
        seat.save(update_fields=["bot_level"])
        return save_changed(table, [])


def start(table_id: str, player: Player | None) -> int:
    """The host starts the first game once every seat is filled."""
    with locked_table(table_id) as table:
        require_host(table, require_player(player))
        require_status(table, Table.WAITING, "start")
        return _begin_game(table)


def rematch(table_id: str, player: Player | None) -> int:
    """The host starts a new game at a finished table: same seats, same options."""
    with locked_table(table_id) as table:
        require_host(table, require_player(player))
        require_status(table, Table.FINISHED, "ask for a rematch")
        return _begin_game(table)


def _begin_game(table: Table) -> int:
    seats = seats_of(table)
    empty = [s.index for s in seats if s.kind == "empty"]
    if empty:
        raise TableError("seats_empty", f"fill every seat first (empty: {', '.join(map(str, empty))})")
    game = get_game(table.game)
    seed = new_seed()
    state = game.new(table.players, {k: v for k, v in table.options.items()}, seed)
    table.game_number += 1
    match = Match.objects.create(
        table=table,
        number=table.game_number,
        game=table.game,
        players=table.players,
        options=table.options,
        seed=seed,
        seats=[
            {
                "seat": s.index,
                "kind": s.kind,
                "level": s.bot_level or None,
                "player": s.player_id,
                "name": s.player.name if s.player else None,
            }
            for s in seats
        ],
        first_deal=game.deal_event(state),
        version=table.version + 1,
    )
    MatchPlayer.objects.bulk_create(
        MatchPlayer(match=match, player_id=s.player_id, seat=s.index, started=match.started)
        for s in seats
        if s.player_id is not None
    )
    table.state = game.to_json(state)
    table.status = Table.PLAYING
    return save_changed(table, ["state", "status", "game_number"])
