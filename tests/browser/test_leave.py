"""After "Leave game" the way back to the lobby is in view (at 1280x800 and on a phone), and the
player is offered only their own old seat back, by that name (the server's rule: docs/protocol.md)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.driver import play_against_bots

pytestmark = [pytest.mark.browser]

IN_VIEW_JS = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  const inside = r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  return r.width > 0 && inside;
}"""


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_after_leaving_the_lobby_is_one_click_away(site_server, new_page, size) -> None:
    page = new_page(**PHONE) if size == "phone" else new_page(viewport={"width": 1280, "height": 800})
    play_against_bots(page, site_server.url, "Ann", "hearts", 4, {"Play to": "50"})
    page.get_by_role("button", name="Leave game").click()
    page.get_by_role("button", name="Leave", exact=True).click()
    back = page.get_by_role("link", name="Back to the lobby")
    expect(back).to_be_visible()
    expect(page.locator(".seat .evening-left")).to_have_text("Ann left")
    assert page.evaluate(IN_VIEW_JS, "#back-to-lobby")
    expect(page.get_by_role("button", name="Take over")).to_have_count(0)
    expect(page.get_by_role("button", name="Take back your seat")).to_have_count(1)
    expect(page.locator(".tip-text")).to_have_count(0)  # the seat's first-game tip went with the seat
    page.screenshot(path=str(ARTIFACTS / f"after-leave-{size}.png"))
    # Coming back to the page later, the same: the seat names them.
    page.reload()
    expect(back).to_be_visible()
    expect(page.get_by_role("button", name="Take over")).to_have_count(0)
    back.click()
    page.wait_for_url(site_server.url + "/")
    assert page.errors == []
