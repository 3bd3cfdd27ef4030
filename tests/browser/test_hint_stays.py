"""The hint's ribbons in Hearts' pass stay when another seat passes (the version
changes, the hint does not), and go when the player passes; its toast goes with it,
and an answer that comes after the player has moved is not shown."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.driver import choose_name, create_table, fill_with_bots, play_against_bots, sit, start

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


def pass_cards(page: Page, cards: list[str]) -> None:
    """Choose ``cards`` in the hand and press "Pass cards"; wait until the page has sent the pass."""
    for card in cards:
        page.locator(f"#hand button.card[data-card='{card}']").click()
    page.locator("#actions").get_by_role("button", name="Pass cards").click()
    expect(page.locator("#turn-banner")).not_to_have_text(re.compile("choose 3 cards"))


def test_the_hints_toast_goes_when_the_player_moves(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800})
    play_against_bots(page, site_server.url, "Ann", "hearts", 4, {"Play to": "50"})
    expect(page.locator("#actions").get_by_role("button", name="Pass cards")).to_be_visible()
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#toast")).to_contain_text("Hint:")
    ribbons = page.locator("#hand button.card.mark-hint")
    expect(ribbons).to_have_count(3)
    pass_cards(page, ribbons.evaluate_all("bs => bs.map(b => b.dataset.card)"))
    # Hidden now, not when its four seconds are up: it names cards no longer in the hand.
    expect(page.locator("#toast")).to_be_hidden(timeout=1_000)
    assert page.errors == []


def test_a_hint_answered_after_the_player_moved_is_not_shown(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800})
    held: list[str] = []
    sockets: list[WebSocketRoute] = []

    def hold_hints(ws: WebSocketRoute) -> None:
        # The page's socket, through the test: the server's hint answers are kept back.
        server = ws.connect_to_server()
        sockets.append(ws)
        server.on_message(lambda m: held.append(m) if '"type":"hint"' in str(m) else ws.send(m))

    page.route_web_socket(re.compile(r"/ws/tables/"), hold_hints)
    play_against_bots(page, site_server.url, "Ann", "hearts", 4, {"Play to": "50"})
    expect(page.locator("#actions").get_by_role("button", name="Pass cards")).to_be_visible()
    page.get_by_role("button", name="Hint").click()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the server never answered the hint"
    three = "bs => bs.slice(0, 3).map(b => b.dataset.card)"
    pass_cards(page, page.locator("#hand button.card.legal").evaluate_all(three))
    sockets[-1].send(held[0])  # the answer, late: it suggests a pass already made
    page.wait_for_timeout(300)
    assert page.locator("#toast").is_hidden()
    expect(page.locator("#hand button.card.mark-hint")).to_have_count(0)
    assert page.errors == []
