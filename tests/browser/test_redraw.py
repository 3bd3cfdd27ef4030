"""The same state sent again (presence, a sync) redraws the page without taking the player's
click or keyboard focus away: a button drawn the same stays the same button."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.driver import ANSWER_TIMEOUT, click_card, play_against_bots, read_state

pytestmark = [pytest.mark.browser]

# Count the states the page draws from here on.
COUNT_RENDERS_JS = """() => {
  const client = window.cardtable.client;
  const draw = client.handlers.onState;
  window.renders = 0;
  client.handlers.onState = (msg) => { draw(msg); window.renders += 1; };
}"""


def redraw_with_the_same_state(page: Page) -> None:
    """Ask the server for the state again (the same version) and wait until the page has drawn it."""
    before = page.evaluate("() => window.renders")
    page.evaluate("() => window.cardtable.client.sync()")
    page.wait_for_function("n => window.renders > n", arg=before, timeout=ANSWER_TIMEOUT)


def at_the_pass(page: Page, url: str) -> str:
    """Sit at Hearts against bots until the pass; choose three cards; return the version shown."""
    play_against_bots(page, url, "Ann", "hearts", 4, {"Play to": "50"})
    pass_button = page.locator("#actions").get_by_role("button", name="Pass cards", exact=True)
    expect(pass_button).to_be_visible(timeout=ANSWER_TIMEOUT)
    for card in read_state(page)["legal"][:3]:
        click_card(page, card)
    expect(pass_button).to_be_enabled()
    page.evaluate(COUNT_RENDERS_JS)
    return read_state(page)["version"]


def test_a_click_pressed_before_a_redraw_and_released_after_it_counts(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800})
    version = at_the_pass(page, site_server.url)
    box = page.locator("#actions").get_by_role("button", name="Pass cards", exact=True).bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    redraw_with_the_same_state(page)
    assert read_state(page)["version"] == version  # the redraw was of the same state
    page.mouse.up()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version, timeout=ANSWER_TIMEOUT)
    expect(page.locator("#actions").get_by_role("button", name="Pass cards", exact=True)).to_have_count(0)
    assert page.errors == []


def test_the_keyboard_focus_stays_on_a_button_the_redraw_draws_the_same(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800})
    at_the_pass(page, site_server.url)
    page.locator("#actions").get_by_role("button", name="Pass cards", exact=True).focus()
    page.evaluate("() => { for (const seat of document.querySelectorAll('#seats .seat')) seat.kept = true; }")
    redraw_with_the_same_state(page)
    # The seats, drawn the same, are the same nodes (their buttons keep a click as well).
    assert page.evaluate("() => [...document.querySelectorAll('#seats .seat')].every((s) => s.kept)")
    assert page.evaluate("() => document.activeElement.textContent") == "Pass cards"
    assert page.evaluate("() => document.activeElement.isConnected")
    page.keyboard.press("Enter")
    expect(page.locator("#actions").get_by_role("button", name="Pass cards", exact=True)).to_have_count(0)
    assert page.errors == []
