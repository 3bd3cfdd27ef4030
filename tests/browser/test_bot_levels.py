"""The page offers the bot levels the server serves (``bot_levels``, GET /api/games/), no list of its own."""

from __future__ import annotations

from playwright.sync_api import expect

from games.bots import LEVELS
from tests.browser.conftest import LiveServer
from tests.browser.driver import choose_name, create_table


def test_fill_with_bots_offers_the_levels_of_the_registry(site_server: LiveServer, new_page) -> None:
    page = new_page()
    page.goto(site_server.url + "/")
    choose_name(page, "Ann")
    create_table(page, "agram", 2)
    select = page.get_by_label("Bot level")
    expect(select).to_be_visible()
    assert select.locator("option").all_inner_texts() == list(LEVELS)
    expect(select).to_have_value("normal")
    # A level the page offers is one the server seats.
    select.select_option(LEVELS[-1])
    page.get_by_role("button", name="Fill with bots").click()
    expect(page.locator(".seat.kind-bot .badge")).to_have_text([LEVELS[-1]])
    assert page.errors == []
