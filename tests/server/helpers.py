"""Checks shared by the server tests: what a message may contain, rebuilt from the move log; games played
through the authority."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from cardtable.tables.authority import moving, seating
from cardtable.tables.models import Match, MoveRecord, Player, Table
from cardtable.tables.replay import replay
from games import get_game

CARD = re.compile(r"^[A2-9TJQK][CDHS]$")


def cards_in(value: Any) -> set[str]:
    """Every card string anywhere in a JSON value (keys included)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if CARD.match(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def short_options(game_id: str) -> dict[str, Any]:
    """The options that make the shortest game (lowest target or lives), for fast tests."""
    options = {}
    for name, option in get_game(game_id).info.options.items():
        if name in ("target", "lives") and all(isinstance(c, int) for c in option.choices):
            options[name] = min(option.choices)
    return options


def roundtrip(value: Any) -> Any:
    """The value as a client receives it: through JSON."""
    return json.loads(json.dumps(value))


def check_messages(table_id: str, received: dict[int | None, list[dict]]) -> int:
    """Check every state message each seat (``None``: spectator) received against the log.

    For each message, the game is rebuilt from its seed and log at the message's
    version. The message's ``view`` must be exactly ``view(state, seat)``, its
    ``legal_moves`` exactly that seat's, no card may appear in the message beyond
    those in its own view, and outside the ``show``/``over`` phases no card held
    in another seat's hand may appear unless this seat held it earlier (a card it
    passed). Returns the number of messages checked.
    """
    table = Table.objects.get(pk=table_id)
    game = get_game(table.game)
    by_version: dict[int, list[tuple[int | None, dict]]] = {}
    for seat, messages in received.items():
        for message in messages:
            if message["type"] == "state":
                by_version.setdefault(message["version"], []).append((seat, message))
    held: dict[int | None, set[str]] = {seat: set() for seat in received}
    checked = 0
    for match in Match.objects.filter(table=table).order_by("number"):
        for version, state in replay(match):
            for seat, message in by_version.pop(version, []):
                view = roundtrip(game.view(state, seat))
                assert message["view"] == view, f"seat {seat} at version {version} got another view"
                acting = seat is not None and seat in game.to_act(state)
                assert message["legal_moves"] == (roundtrip(game.legal_moves(state, seat)) if acting else [])
                assert message["to_act"] == list(game.to_act(state))
                assert message["you"]["seat"] == seat
                allowed = cards_in(view)
                assert cards_in(message) <= allowed, f"seat {seat} saw cards beyond its view"
                if seat is not None:
                    held[seat] |= set(view.get("hand", []))
                else:
                    assert "hand" not in view
                if view["phase"] not in ("show", "over"):
                    others = set()
                    for other in range(match.players):
                        if other != seat:
                            others |= set(game.view(state, other).get("hand", []))
                    # The last deal's final trick (Hearts recalls it for its summary) was
                    # public; its cards were dealt anew and say nothing of the new hands.
                    recalled = {play["card"] for play in (view.get("final_trick") or {}).get("cards", [])}
                    leaked = (cards_in(message) & others) - held[seat] - recalled
                    assert not leaked, f"seat {seat} saw {leaked} from another hand at version {version}"
                checked += 1
    for version, items in by_version.items():
        for _seat, message in items:
            assert message["view"] is None, f"a view at version {version} matches no game state"
            checked += 1
    return checked


def random_move(message: dict, rng: random.Random) -> dict:
    """Pick a legal move from a state message, as a client that knows no rule would."""
    return rng.choice(message["legal_moves"])


def play(table_id: str, rng: random.Random, moves: int | None = None) -> None:
    """Random legal moves through ``apply_move`` until the game ends (or ``moves`` are made)."""
    made = 0
    table = Table.objects.get(pk=table_id)
    while table.status == Table.PLAYING and (moves is None or made < moves):
        game = get_game(table.game)
        state = game.from_json(table.state)
        seat = game.to_act(state)[0]
        move = rng.choice(game.legal_moves(state, seat))
        moving.apply_move(table_id, move, table.version, seat=seat, by=MoveRecord.BOT)
        table = Table.objects.get(pk=table_id)
        made += 1


def hearts_with_a_takeover(ann: Player, bob: Player, cy: Player) -> Table:
    """Ann and Bob start a three-seat Hearts game with a bot; Bob leaves and Cy takes his seat over."""
    table = seating.create_table(ann, "hearts", 3, short_options("hearts"))
    seating.sit(table.pk, bob, 1)
    seating.add_bot(table.pk, ann, 2, "easy")
    seating.start(table.pk, ann)
    play(table.pk, random.Random(3), moves=12)
    seating.leave(table.pk, bob)
    seating.takeover(table.pk, cy, 1)
    return table
