"""Texts a person reads use the game's own words, and the lobby starts where a new player is.

"At this table" names the options and choices as the lobby does; the lobby at 1280x800
shows "Create table" without scrolling before a name is given, and offers Hearts first.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.driver import choose_name, create_table

pytestmark = [pytest.mark.browser]

IN_VIEW_JS = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
}"""


def test_at_this_table_uses_the_games_words(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800})
    page.goto(site_server.url + "/")
    choose_name(page, "Ann")
    create_table(
        page, "hearts", 4, {"Points on first trick": "Yes", "Shooting the moon": "Shooter gets minus 26"}
    )
    options = page.locator("#rules .table-options")
    expect(options).to_contain_text("Points on first trick: Yes.")
    expect(options).to_contain_text("Shooting the moon: Shooter gets minus 26.")
    expect(options).to_contain_text("First lead: Lowest club leads.")
    expect(options).to_contain_text("Rules: Standard rules.")
    text = options.text_content()
    assert "_" not in text and "true" not in text and "false" not in text, text
    assert page.errors == []


def test_the_lobby_offers_hearts_and_create_table_in_view_before_a_name(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800})
    page.goto(site_server.url + "/")
    expect(page.get_by_label("Your name")).to_be_visible()
    expect(page.get_by_label("Game", exact=True)).to_have_value("hearts")
    page.screenshot(path=str(ARTIFACTS / "lobby-1280x800.png"))
    assert page.evaluate(IN_VIEW_JS, "#create-button"), "Create table is below the fold"
    assert page.evaluate(IN_VIEW_JS, "#name-input")
    assert page.errors == []


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_lobby_is_laid_out_before_any_script_runs(site_server, new_page, size) -> None:
    """The first paint already has the name form and says why Create table waits: nothing jumps."""
    view = PHONE if size == "phone" else {"viewport": {"width": 1280, "height": 800}}
    page = new_page(**view, java_script_enabled=False)
    page.goto(site_server.url + "/")
    assert page.locator("#name-form").is_visible()
    assert page.locator("#create-button").is_disabled()
    assert page.locator("#create-needs-name").is_visible()
    assert "name" in page.locator("#create-needs-name").inner_text()
    # With the scripts: the same places, and once named the button works and the note goes.
    page = new_page(**view)
    page.goto(site_server.url + "/")
    choose_name(page, "Ann")
    expect(page.locator("#create-needs-name")).to_be_hidden()
    expect(page.locator("#create-button")).to_be_enabled()
    if size == "laptop":  # the phone's note is hidden; the laptop's says something, never a blank gap
        assert page.locator("#option-note").inner_text().strip()
    page.reload()
    assert page.locator("#name-form").is_hidden()
    assert page.errors == []
