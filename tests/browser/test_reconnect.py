"""A dropped connection shows a banner and recovers by itself; a reload keeps seat and hand."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.driver import choose_name, hand, play_against_bots

pytestmark = pytest.mark.browser


def test_the_page_recovers_from_a_killed_socket_and_a_killed_server(own_server, new_page):
    page = new_page()
    # Hearts begins with a pass that waits for us, so the table stands still.
    url = play_against_bots(page, own_server.url, "Ann", "hearts", 4)
    expect(page.get_by_role("button", name="Pass cards")).to_be_visible()
    before = hand(page)
    assert len(before) == 13
    banner = page.get_by_role("alert").filter(has_text="Connection lost")
    page.get_by_label("Message").fill("brb")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#chat-log li")).to_have_count(1)

    # The socket dies under the page: it says so, then reconnects and resyncs.
    page.evaluate("window.cardtable.client.ws.close()")
    expect(page.locator("body")).to_have_attribute("data-connection", "open")
    expect(page.locator("#conn")).to_have_text("Connected")
    assert hand(page) == before
    page.wait_for_timeout(300)  # the server replays recent chat on connect: still one line
    expect(page.locator("#chat-log li")).to_have_count(1)

    # The whole server dies: the banner stays up until a new server answers.
    own_server.kill()
    expect(banner).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-connection", "lost")
    own_server.start()
    expect(banner).to_be_hidden(timeout=30_000)
    assert hand(page) == before

    # And the game goes on: choose three cards and pass them.
    for card in before[:3]:
        page.get_by_role("button", name=card, exact=True).click(position={"x": 8, "y": 34})
    page.get_by_role("button", name="Pass cards").click()
    expect(page.locator("#hand button.card")).to_have_count(13)
    expect(page.get_by_role("button", name="Pass cards")).to_have_count(0)
    after_pass = hand(page)

    # A reload returns the player to the same seat and hand.
    page.reload()
    expect(page.locator(".seat.mine")).to_contain_text("Ann")
    expect(page.locator("#hand button.card")).to_have_count(len(after_pass))
    assert page.url == url
    assert hand(page) == after_pass
    assert page.errors == []


def test_a_wrong_link_says_so_instead_of_retrying_forever(site_server, new_page):
    page = new_page()
    page.goto(site_server.url + "/t/no-such-table/")
    choose_name(page, "Zed")
    expect(page.locator("#center")).to_contain_text("No such table")
    expect(page.get_by_role("link", name="Back to the lobby")).to_be_visible()
    expect(page.get_by_role("alert").filter(has_text="Connection lost")).to_be_hidden()
