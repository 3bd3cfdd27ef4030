"""A RECYCLE choice of any set of a 14-card hand at a table: the state message stays small and
a set picked goes through the one move service, a wrong one refused with nothing changed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable.dashboard import recycle_games
from cardtable.dashboard.models import StoredGame
from cardtable.tables.authority import moving, seating
from cardtable.tables.authority.state import state_message
from cardtable.tables.errors import TableError
from cardtable.tables.models import MoveRecord, Table
from tests.server.conftest import make_player

pytestmark = pytest.mark.django_db(transaction=True)

SHED = Path(__file__).parents[1] / "games" / "recycle" / "families" / "shed.rcy"
ANY_SET = SHED.read_text().replace("(<= (sum 'S using (game points PIPS)) 10)", "(<= (size 'S) 14)")


@pytest.fixture
def any_set() -> Iterator[str]:
    """Shed with any non-empty set of the hand allowed (16,383 options), stored by staff."""
    StoredGame.objects.create(game_id="recycle_any_set", name="Any set", text=ANY_SET, players=2)
    yield "recycle_any_set"
    recycle_games.forget("recycle_any_set")


def test_a_pick_at_the_table_is_a_small_message_and_a_checked_move(any_set: str) -> None:
    (ann, _), (bob, _) = make_player("Ann"), make_player("Bob")
    table = seating.create_table(ann, any_set, 2, {})
    seating.sit(table.pk, bob, 1)
    seating.start(table.pk, ann)
    message = state_message(table.pk, ann.pk)
    assert message["to_act"] == [0]
    # The seat to act: the cards to pick and a few sets listed, not 16,383 of them (833 KiB).
    assert len(json.dumps(message).encode()) < 10_000
    cards = message["view"]["pick"][0]["cards"]
    assert len(cards) == 14 and len(message["legal_moves"]) <= 24
    assert "pick" not in state_message(table.pk, bob.pk)["view"]
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(TableError) as refused:
        moving.apply_move(table.pk, {"choice": [0, [cards[3], cards[1]]]}, version, player=ann)
    assert refused.value.code == "illegal_move" and "order the pick gives" in refused.value.message
    assert Table.objects.get(pk=table.pk).version == version
    assert not MoveRecord.objects.filter(match__table_id=table.pk).exists()
    chosen = cards[1:12]
    moving.apply_move(table.pk, {"choice": [0, chosen]}, version, player=ann)
    after = state_message(table.pk, bob.pk)
    assert after["to_act"] == [1] and after["view"]["last"]["move"] == {"choice": [0, chosen]}
    assert MoveRecord.objects.get(match__table_id=table.pk).move == {"choice": [0, chosen]}
