"""A phone-sized screen, the keyboard, and the names a screen reader hears."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.conftest import PHONE as PHONE_SIZE
from tests.browser.driver import (
    choose_name,
    create_table,
    fill_with_bots,
    play_against_bots,
    play_to_end,
    sit,
    start,
)

pytestmark = pytest.mark.browser

# The other tests ask for reduced motion (cheaper on CI's two cores); a phone
# plays a whole game with the page's animations and transitions on.
PHONE = {**PHONE_SIZE, "reduced_motion": "no-preference"}
CARD_NAME = re.compile(r"^(Ace|[2-9]|10|Jack|Queen|King) of (clubs|diamonds|hearts|spades)$")


def test_a_phone_plays_a_game_by_tapping(site_server, new_page):
    page = new_page(**PHONE)
    page.goto(site_server.url + "/")
    choose_name(page, "Pia")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    create_table(page, "hearts", 4, {"Play to": "50", "Passing": "No passing"})
    sit(page)
    fill_with_bots(page, "random")
    start(page)
    cards = page.locator("#hand button.card")
    expect(cards).to_have_count(13)
    # The whole hand fits the screen, and nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    boxes = [cards.nth(i).bounding_box() for i in range(13)]
    assert min(b["x"] for b in boxes) >= 0
    assert max(b["x"] + b["width"] for b in boxes) <= 390
    assert min(b["width"] for b in boxes) >= 44  # big enough to read and tap

    shot = {}

    def screenshot(page, moves):
        if moves >= 4 and not shot and page.locator("body[data-my-turn=yes]").count():
            page.evaluate("window.scrollTo(0, 0)")  # the felt and the hand fill one phone screen
            page.screenshot(path=str(ARTIFACTS / "phone.png"))
            shot["done"] = True

    play_to_end([page], seed=5, limit=300, on_move=screenshot, tap=True)
    expect(page.get_by_role("dialog")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.errors == []


def test_tab_to_a_card_and_press_enter(site_server, new_page):
    page = new_page()
    play_against_bots(page, site_server.url, "Kim", "agram", 2)
    # Every card is a button named for a person: "Queen of spades", "10 of hearts".
    names = page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    assert len(names) == 6 and all(CARD_NAME.match(n) for n in names)
    expect(page.locator("body")).to_have_attribute("data-my-turn", "yes", timeout=15_000)
    expect(page.locator("#announce")).to_contain_text("Your turn")
    legal = page.locator("#hand button.card.legal")
    expect(legal.first).to_be_visible()

    # Tab until a legal card has the focus, then Enter plays it.
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#hand button.card.legal')"):
            break
    else:
        raise AssertionError("Tab never reached a legal card")
    played = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name=played, exact=True)).to_have_count(0)
    expect(page.locator("#hand button.card")).to_have_count(5)
    assert page.errors == []
