"""A finished game's table page links to its replay, and the link opens a replay that steps."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.driver import play_against_bots, play_to_end

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_watch_the_replay_after_a_finished_game(site_server, new_page):
    page = new_page()
    url = play_against_bots(page, site_server.url, "Ann", "agram", 4, {"Deals to win": "1"})
    table_id = re.search(r"/t/([^/]+)/$", url).group(1)
    expect(page.locator("body")).to_have_attribute("data-status", "playing")
    replay = page.get_by_role("link", name="Watch the replay")
    expect(replay).to_have_count(0)  # nothing to watch while the game runs

    play_to_end([page], seed=5, limit=180)
    href = f"/replay/{table_id}/1/"
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("link", name="Watch the replay")).to_have_attribute("href", href)
    page.screenshot(path=str(ARTIFACTS / "result-with-replay-link.png"))
    # The page keeps the link after the dialog is closed.
    dialog.get_by_role("button", name="See the table").click()
    expect(dialog).to_be_hidden()
    in_page = page.locator("#actions").get_by_role("link", name="Watch the replay")
    expect(in_page).to_have_attribute("href", href)
    page.screenshot(path=str(ARTIFACTS / "finished-table-replay-link.png"))
    assert page.errors == []

    in_page.click()
    page.wait_for_url(site_server.url + href)
    label = page.locator("#step-label")
    expect(label).to_have_text(re.compile(r"^move 0 of \d+"))
    last = int(re.search(r"of (\d+)", label.text_content()).group(1))
    assert last >= 2  # the game the page just played, not an empty one
    page.get_by_role("button", name="Forward one move").click()
    expect(label).to_have_text(re.compile(rf"^move 1 of {last}"))
    page.get_by_role("button", name="Forward one move").click()
    expect(label).to_have_text(re.compile(rf"^move 2 of {last}"))
    assert page.errors == []

    # The replay is the table: the felt, every seat named as the table named it,
    # every hand face up, and a trick at a time.
    names = page.locator("#seats .seat .seat-name").all_text_contents()
    assert names == ["Ann", "Bot 2", "Bot 3", "Bot 4"]
    expect(page.locator("#seats .seat .rp-card").first).to_be_visible()
    page.get_by_role("button", name="First state").click()
    expect(label).to_have_text(re.compile(rf"^move 0 of {last}"))
    assert page.locator("#seats .seat .rp-card").count() == 4 * 6  # Agram deals six each
    page.get_by_role("button", name="Forward one trick").click()
    moved = int(re.match(r"move (\d+)", label.text_content()).group(1))
    assert moved == 4  # the first trick: one card from each of the four seats
    expect(page.locator("#center .trick .card")).to_have_count(4)
    expect(page.locator("#turn-banner")).to_contain_text("played")
    page.screenshot(path=str(ARTIFACTS / "replay-table.png"))
    assert page.errors == []
