"""The hint's ribbons in Hearts' pass stay when another seat passes (the version
changes, the hint does not), and go when the player passes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.driver import choose_name, create_table, fill_with_bots, sit, start

pytestmark = [pytest.mark.browser]


def test_hint_ribbons_survive_another_seats_pass(site_server, new_page) -> None:
    ann = new_page(viewport={"width": 1280, "height": 800})
    ann.goto(site_server.url + "/")
    choose_name(ann, "Ann")
    url = create_table(ann, "hearts", 4, {"Passing": "Rotating"})
    bob = new_page(viewport={"width": 1280, "height": 800})
    bob.goto(url)
    choose_name(bob, "Bob")
    sit(bob)
    fill_with_bots(ann, "random")
    start(ann)
    for page in (ann, bob):
        expect(page.locator("#actions").get_by_role("button", name="Pass cards")).to_be_visible()
    ann.get_by_role("button", name="Hint").click()
    ribbons = ann.locator("#hand button.card.mark-hint")
    expect(ribbons).to_have_count(3)
    hinted = ribbons.evaluate_all("bs => bs.map(b => b.dataset.card)")
    version = ann.locator("body").get_attribute("data-version")
    # Bob passes: Ann's page gets a new version, and keeps the hint.
    three = "bs => bs.slice(0, 3).map(b => b.dataset.card)"
    for card in bob.locator("#hand button.card.legal").evaluate_all(three):
        bob.locator(f"#hand button.card[data-card='{card}']").click()
    bob.locator("#actions").get_by_role("button", name="Pass cards").click()
    expect(ann.locator(".seat .tag.ok")).to_have_count(3)  # the two bots and Bob have passed
    assert ann.locator("body").get_attribute("data-version") != version
    expect(ribbons).to_have_count(3)
    assert ribbons.evaluate_all("bs => bs.map(b => b.dataset.card)") == hinted
    expect(ann.get_by_role("button", name="Hint shown")).to_be_disabled()
    ann.screenshot(path=str(ARTIFACTS / "hint-after-another-pass.png"))
    # Ann passes what the hint suggested: the ribbons go with the cards.
    for card in hinted:
        ann.locator(f"#hand button.card[data-card='{card}']").click()
    ann.locator("#actions").get_by_role("button", name="Pass cards").click()
    expect(ann.locator("#turn-banner")).not_to_have_text(re.compile("choose 3 cards"))
    expect(ann.locator("#hand button.card.mark-hint")).to_have_count(0)
    assert ann.errors == [] and bob.errors == []
