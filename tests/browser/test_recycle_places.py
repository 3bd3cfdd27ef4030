"""A RECYCLE card that can go to two places is tapped in the hand, then sent where it goes.

The game written here (Lost Cities' choice, smaller): on your turn, a card of your hand goes to
your expedition of its colour or to the discard, so each card has two moves. A person taps the
card (never picks it from a row of card-and-place buttons), then presses one of two buttons
that say where ("Play to your side · Red", "Play to the discard"). Played to the end so, at
1280x800 and on a 390x844 phone.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.driver import click_card, play_against_bots, play_to_end
from tests.browser.test_recycle_page import staff_page
from tests.browser.test_recycle_table import add_game, lasting_problems

pytestmark = [pytest.mark.browser]

TWO_WAYS = """(game
 (declare (RED, BLUE) 'COLORS)
 (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)) (COLOR (RED, BLUE)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any 'COLORS 'C
             (any (filter ((current player) iloc HAND) 'MC (== (cardatt COLOR 'MC) 'C)) 'AC
               (move 'AC (top ((current player) vloc 'C)))))
           (any ((current player) iloc HAND) 'D (move 'D (top (game vloc DISCARD)))))))
 (scoring max (size ((current player) vloc RED))))"""

# The move buttons under the hand, by what they say, and the hand's cards the page lights.
READ_JS = """() => ({
  buttons: [...document.querySelectorAll('#actions button')].map((b) => b.textContent.trim()),
  places: [...document.querySelectorAll('#actions .card-places button')].map((b) => b.textContent.trim()),
  legal: [...document.querySelectorAll('#hand button.card.legal')].map((b) => b.dataset.card),
  raised: [...document.querySelectorAll('#hand button.card.raised')].map((b) => b.dataset.card),
})"""


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_card_with_two_places_is_tapped_then_sent_where_it_goes(own_server, new_page, device) -> None:
    staff = staff_page(own_server, new_page)
    game_id = add_game(staff, "Two ways", TWO_WAYS)
    page = new_page(**(PHONE if device == "phone" else {"viewport": {"width": 1280, "height": 800}}))
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    play_against_bots(page, own_server.url, "Ann", game_id)
    expect(page.locator(".recycle-table")).to_be_visible()
    tag = f"places-{device}"
    seen = {"turns": 0, "asked": 0}

    def on_turn(p: Page, state: dict) -> None:
        seen["turns"] += 1
        read = p.evaluate(READ_JS)
        # Every card of the hand can be tapped; no button names a card before one is tapped.
        assert sorted(read["legal"]) == sorted(state["hand"]), read
        assert read["places"] == [] and read["raised"] == [], read
        assert not [b for b in read["buttons"] if re.search(r"\b(Red|Blue) [1-4]\b|·.*·", b)], read
        expect(p.locator("#tap-a-card")).to_have_text("Tap a card, then choose where it goes.")
        if seen["asked"] == 1:
            # The hint raises the card it suggests and marks the one place it would go.
            p.locator("#hint-button").click()
            expect(p.locator("#actions .card-places button.hinted")).to_have_count(1)
            read = p.evaluate(READ_JS)
            assert len(read["raised"]) == 1 and read["raised"][0] in state["hand"], read
            expect(p.locator("#hand button.card.raised.mark-hint")).to_have_count(1)
            click_card(p, read["raised"][0], tap=device == "phone")
            seen["asked"] += 1
        if seen["asked"]:
            return
        # Tap a card: it rises, and two buttons say where it may go; a second tap lowers it.
        card = state["hand"][0]
        colour = "Red" if card.startswith("RED") else "Blue"
        click_card(p, card, tap=device == "phone")
        read = p.evaluate(READ_JS)
        assert read["raised"] == [card], read
        assert sorted(read["places"]) == sorted([f"Play to your side · {colour}", "Play to the discard"]), (
            read
        )
        assert lasting_problems(p) == []
        p.screenshot(path=str(ARTIFACTS / f"recycle-{tag}-asked.png"))
        click_card(p, card, tap=device == "phone")
        read = p.evaluate(READ_JS)
        assert read["raised"] == [] and read["places"] == [], read
        seen["asked"] += 1

    moves = play_to_end([page], seed=3, limit=200, on_turn=on_turn, tap=device == "phone")
    assert moves == 3 and seen["turns"] == 3, (moves, seen)
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator("#over-card")).to_contain_text(re.compile("win|tie", re.I))
    page.locator("#over").get_by_role("button", name="See the table").click()
    # Each of the three cards went to an expedition or the discard, as the buttons said.
    piles = page.locator("#center .rpile, #seats .rpile").evaluate_all(
        "(ps) => ps.map((p) => p.dataset.location)"
    )
    assert set(piles) & {"Red", "Blue", "Discard"}, piles
    page.screenshot(path=str(ARTIFACTS / f"recycle-{tag}-over.png"))
    assert page.errors == [] and console == [], (page.errors, console)
