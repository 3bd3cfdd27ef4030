"""One full game of each other game through the page, one person against bots."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.driver import play_against_bots, play_to_end

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAMES = {
    # game: (players, options by label, what the felt must show, our moves before the screenshot)
    "agram": (4, {"Deals to win": "1"}, ".trick", 2),
    "ninety_eight": (2, {"Lives": "1"}, ".big-number", 2),
    "stealing_bundles": (3, {}, ".bundle-badge", 3),
    "cribbage": (2, {"Play to": "61"}, ".board", 3),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_against_bots(site_server, new_page, game):
    players, options, marker, shoot_at = GAMES[game]
    page = new_page()
    play_against_bots(page, site_server.url, "Ann", game, players, options)
    expect(page.locator(marker).first).to_be_visible()
    # "How to play" ends with the game's words, each a term and its meaning (not "[object HTMLElement]").
    terms = page.locator("#rules dl > dt")
    expect(terms.first).to_be_attached()
    assert terms.count() >= 4
    assert page.locator("#rules dl > dd").count() == terms.count()
    assert "[object" not in page.locator("#rules").inner_text()

    shot = {}

    def screenshot(page, moves):
        if moves >= shoot_at and not shot:
            page.wait_for_timeout(400)  # let the bots answer, so the table is busy
            page.screenshot(path=str(ARTIFACTS / f"{game}.png"))
            shot["done"] = True

    play_to_end([page], seed=3, limit=300, on_move=screenshot)
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    # A seat with no cards left shows no card count (a lone "0" bubble reads as a score).
    counts = page.locator(".seat .backs .count").all_text_contents()
    assert "0" not in counts, counts
    expect(dialog.locator("table.score-table tr")).to_have_count(players + 1)
    assert page.errors == []

    if game == "ninety_eight":  # the deal's ending ("Over 98!") is on the sheet beside the result
        expect(page.locator("#summary")).to_be_visible()
    # The host starts a rematch at the same table: the last game's sheet goes with its result.
    dialog.get_by_role("button", name="Rematch").click()
    expect(page.locator("body")).to_have_attribute("data-status", "playing")
    expect(dialog).to_be_hidden()
    expect(page.locator("#summary")).to_be_hidden()
