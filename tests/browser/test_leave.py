"""After "Leave game" the way back to the lobby is in view (at 1280x800 and on a phone), and the
player is offered only their own old seat back, by that name (the server's rule: docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, PHONE, LiveServer, _new_server
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


@pytest.fixture(scope="module")
def slow_bots() -> Iterator[LiveServer]:
    """A server whose bots pause between moves, so a game is still running when Ann comes back."""
    yield from _new_server({"BOT_PAUSE": "0.4"})


OVERLAP_JS = """([a, b]) => {
  const r = document.querySelector(a).getBoundingClientRect();
  const s = document.querySelector(b).getBoundingClientRect();
  return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
}"""


def _log_lines(page) -> list[str]:
    return [line.strip() for line in page.locator("#move-log li").all_text_contents()]


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_taking_the_seat_back_covers_nothing_and_the_log_keeps_the_bots_moves(
    slow_bots, new_page, size
) -> None:
    page = new_page(**PHONE) if size == "phone" else new_page(viewport={"width": 1280, "height": 800})
    play_against_bots(page, slow_bots.url, "Ann", "hearts", 4, {"Play to": "50"})
    page.get_by_role("button", name="Leave game").click()
    page.get_by_role("button", name="Leave", exact=True).click()
    take_back = page.get_by_role("button", name="Take back your seat")
    expect(take_back).to_be_visible()
    take_back.scroll_into_view_if_needed()
    assert not page.evaluate(OVERLAP_JS, [".evening-gone p", ".evening-takeover"])
    assert not page.evaluate(OVERLAP_JS, [".evening-takeover", "#back-to-lobby"])
    page.screenshot(path=str(ARTIFACTS / f"take-back-{size}.png"), timeout=60_000)
    # The stand-in bot moves for the seat before Ann takes it back.
    page.wait_for_function(
        """() => {
          const lines = [...document.querySelectorAll('#move-log li')].map((li) => li.textContent);
          const left = lines.findIndex((t) => t.startsWith('Ann left'));
          return left >= 0 && lines.slice(left).some((t) => t.startsWith('Bot 1 '));
        }""",
        timeout=60_000,  # the stand-in's search and pause, on a machine the other tests keep busy
    )
    take_back.click()
    expect(page.locator("#move-log li", has_text="Ann took back their seat")).to_have_count(1, timeout=30_000)
    lines = _log_lines(page)
    left = next(i for i, t in enumerate(lines) if t.startswith("Ann left"))
    away = lines[left : lines.index("Ann took back their seat")]
    assert any(t.startswith("Bot 1 ") for t in away), lines
    assert not any(t.startswith("You ") for t in away), lines
    assert page.errors == []
