"""The review in the replay, in Chromium on a laptop and a phone: each player's costliest
decisions with their expected values, each jumping the replay to its move."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal

import pytest

from tests.browser.conftest import ARTIFACTS, PHONE, ROOT, LiveServer, _new_server
from tests.server.helpers import short_options

pytestmark = pytest.mark.browser

# A Hearts game with a person in seat 0 playing at random, reviewed on a small budget, its
# table then ended (so anyone may see every review). Run by ``manage.py shell`` in the
# server's database; prints the table's id.
SCRIPT = """
import random
from cardtable.reviews import jobs
from cardtable.tables.authority import moving, seating, staff
from cardtable.tables.models import Match, MoveRecord, Player, Table
from games import get_game
host = Player.objects.create(name="Ana")
table = seating.create_table(host, "hearts", None, OPTIONS, seated=True)
seating.sit(table.pk, host, 0)
for seat in (1, 2, 3):
    seating.add_bot(table.pk, host, seat, "random")
seating.start(table.pk, host)
rng, game = random.Random(4), get_game("hearts")
table = Table.objects.get(pk=table.pk)
while table.status == Table.PLAYING:
    state = game.from_json(table.state)
    seat = game.to_act(state)[0]
    by = MoveRecord.HUMAN if seat == 0 else MoveRecord.BOT
    moving.apply_move(table.pk, rng.choice(game.legal_moves(state, seat)), table.version, seat=seat, by=by)
    table = Table.objects.get(pk=table.pk)
for row in jobs.queue_match(Match.objects.get(table=table, number=1)):
    jobs.run(row)
staff.end_table(table.pk)
print("table:", table.pk)
"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """A server of this module's own."""
    yield from _new_server()


@pytest.fixture(scope="module")
def reviewed(server: LiveServer) -> str:
    """The id of a table whose one game was played and reviewed."""
    script = SCRIPT.replace("OPTIONS", repr(short_options("hearts")))
    env = {**server.env(), "REVIEW_JOBS": "0", "REVIEW_PLAYOUTS": "40"}
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=240,
    ).stdout
    return out.split("table: ")[1].split()[0]


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_the_review_lists_the_mistakes_and_jumps_to_them(
    server: LiveServer, reviewed: str, new_page, device: str
) -> None:
    with urllib.request.urlopen(f"{server.url}/api/tables/{reviewed}/games/1/review/") as response:
        data = json.load(response)
    (review,) = data["reviews"]
    assert review["status"] == "done" and review["mistakes"], review
    worst = review["mistakes"][0]
    page = new_page(**(PHONE if device == "phone" else {}))
    width = 390 if device == "phone" else 1280
    page.goto(f"{server.url}/replay/{reviewed}/1/")
    page.wait_for_function("document.body.dataset.review === 'ready'")
    page.get_by_role("button", name="Review", exact=True).click()
    jump = page.locator(".rv-jump").first
    jump.wait_for(state="visible")
    assert jump.get_attribute("data-step") == str(worst["step"])
    text = page.locator(".rv-text").first.text_content()
    assert text.startswith("Ana played ") and "expected" in text and "points" in text
    # As the page's toFixed(1) rounds: the float's exact value, halves up.
    assert f"{Decimal(worst['cost']).quantize(Decimal('0.1'), ROUND_HALF_UP)} ±" in text
    box = page.locator(".rv-seat").first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    jump.click()
    page.wait_for_function(f"document.body.dataset.step === '{worst['step']}'")
    assert page.locator("#step-label").text_content().startswith(f"move {worst['step']} of")
    assert jump.get_attribute("aria-current") == "step"
    # On a phone the drawer closes, so the table shows the move.
    assert page.locator("#turn-banner").is_visible()
    assert "open" not in (page.locator("#side").get_attribute("class") or "")
    # A link to the review (from a player's page) opens the replay at its panel.
    page.goto("about:blank")
    page.goto(f"{server.url}/replay/{reviewed}/1/#review")
    page.locator(".rv-jump").first.wait_for(state="visible")
    assert "current" in (page.locator("#review-panel").get_attribute("class") or "") or device != "phone"
    page.screenshot(path=str(ARTIFACTS / f"review-{width}.png"))
    assert page.errors == []
