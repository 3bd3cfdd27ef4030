"""A toast (a hint, a server's refusal) covers no card, pile or seat of the felt: Cribbage's crib
and start sit where it used to stand."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.driver import play_against_bots, play_to_end

pytestmark = [pytest.mark.browser, pytest.mark.slow]

COVERED_JS = """() => {
  const box = document.getElementById('toast').getBoundingClientRect();
  const felt = document.getElementById('felt');
  return [...felt.querySelectorAll('.card, .stack, .seat, .board, .big-number')]
    .filter((el) => {
      const r = el.getBoundingClientRect();
      const apart = r.right <= box.left || box.right <= r.left || r.bottom <= box.top || box.bottom <= r.top;
      return r.width > 0 && !apart;
    })
    .map((el) => el.className.baseVal ?? el.className);
}"""


def test_a_hint_toast_covers_nothing_on_cribbages_felt(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800})
    play_against_bots(page, site_server.url, "Ann", "cribbage", 2, {"Play to": "61"})
    checked: list[list[str]] = []

    def ask_for_a_hint(page, state) -> None:
        if len(checked) >= 6 or not page.locator(".stack").count():
            return  # the crib and the start are on the felt from the play on
        page.locator("#toast").evaluate("box => { box.hidden = true; }")
        page.locator("#hint-button").click()
        expect(page.locator("#toast")).to_be_visible(timeout=30_000)
        checked.append(page.evaluate(COVERED_JS))

    play_to_end([page], seed=2, limit=300, on_turn=ask_for_a_hint)
    assert checked, "no hint was asked while the crib and start were on the felt"
    assert all(covered == [] for covered in checked), checked
    assert page.errors == []
