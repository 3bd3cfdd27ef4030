"""A first game teaches: the first time a player meets a moment (here Hearts' pass and
Cribbage's crib), a tip in the game's words says what to do, once per browser."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.driver import play_against_bots

pytestmark = [pytest.mark.browser]


def tips_of(site_url: str, game: str) -> dict:
    with urllib.request.urlopen(site_url + "/api/games/") as response:
        return next(g for g in json.load(response) if g["id"] == game)["tips"]


def test_the_pass_tip_shows_once_per_browser(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800})
    play_against_bots(page, site_server.url, "Ann", "hearts", 4, {"Play to": "50"})
    tip = page.locator("#tip-bar .tip")
    expect(tip).to_have_attribute("data-moment", "pass")
    expect(tip.locator(".tip-text")).to_have_text(tips_of(site_server.url, "hearts")["pass"])
    page.screenshot(path=str(ARTIFACTS / "tip-pass-1280x800.png"))
    tip.get_by_role("button", name="Got it").click()
    expect(tip).to_have_count(0)
    # Back on the page later in the same browser: the pass is still to make, the tip is not repeated.
    page.reload()
    expect(page.locator("#actions").get_by_role("button", name="Pass cards")).to_be_visible()
    page.wait_for_timeout(300)
    expect(page.locator("#tip-bar .tip[data-moment='pass']")).to_have_count(0)
    assert page.errors == []


def test_the_crib_tip_on_a_phone(site_server, new_page) -> None:
    page = new_page(**PHONE)
    play_against_bots(page, site_server.url, "Ann", "cribbage", 2, {"Play to": "61"})
    tip = page.locator("#tip-bar .tip")
    expect(tip).to_have_attribute("data-moment", "crib")
    expect(tip.locator(".tip-text")).to_have_text(tips_of(site_server.url, "cribbage")["crib"])
    box = tip.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844
    page.screenshot(path=str(ARTIFACTS / "tip-crib-390x844.png"))
    assert page.errors == []
