"""The "confirm card plays" setting: off by default with a mouse, on by default on a touch
screen (a first tap raises the card, a second plays it), and the player's choice is kept."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.driver import click_card, play_against_bots, read_state

pytestmark = [pytest.mark.browser]


def our_turn(page: Page) -> dict:
    page.wait_for_function("document.body.dataset.myTurn === 'yes'")
    state = read_state(page)
    assert state["legal"] and not state["confirm"]
    return state


def played(page: Page, version: str) -> None:
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)


def test_a_mouse_plays_at_once(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800})
    play_against_bots(page, site_server.url, "Ann", "agram", 2, {"Deals to win": "3"})
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_label("Confirm card plays", exact=False)).not_to_be_checked()
    state = our_turn(page)
    click_card(page, state["legal"][0])
    played(page, state["version"])
    assert page.errors == []


def test_a_touch_screen_raises_first_and_the_choice_is_kept(site_server, new_page) -> None:
    page = new_page(**PHONE)
    play_against_bots(page, site_server.url, "Ann", "agram", 2, {"Deals to win": "3"})
    state = our_turn(page)
    card = state["legal"][-1]
    click_card(page, card, tap=True)
    raised = page.locator(f'#hand button.card.raised[data-card="{card}"]')
    expect(raised).to_have_count(1)
    expect(page.locator("#play-raised")).to_be_visible()
    page.wait_for_timeout(300)
    assert read_state(page)["version"] == state["version"], "a first tap only raises the card"
    page.screenshot(path=str(ARTIFACTS / "confirm-raised-390x844.png"))
    # Another card's tap raises that one instead; a second tap on it plays it.
    other = state["legal"][0]
    if other != card:
        click_card(page, other, tap=True)
        expect(page.locator(f'#hand button.card.raised[data-card="{other}"]')).to_have_count(1)
        expect(raised).to_have_count(0)
        card = other
    click_card(page, card, tap=True)
    played(page, state["version"])
    assert card not in read_state(page)["hand"]
    # Turned off, a tap plays at once; the choice is kept in this browser.
    page.get_by_role("button", name="Settings").tap()
    box = page.get_by_label("Confirm card plays", exact=False)
    expect(box).to_be_checked()
    box.tap()
    page.get_by_role("button", name="Close").tap()
    page.reload()
    state = our_turn(page)
    click_card(page, state["legal"][0], tap=True)
    played(page, state["version"])
    page.get_by_role("button", name="Settings").tap()
    expect(page.get_by_label("Confirm card plays", exact=False)).not_to_be_checked()
    assert page.errors == []
