"""On a phone nothing of the felt's words lies over its cards: who took the trick reads in
the headline (Agram), and so does what a card took (Stealing Bundles); no card on the felt
lies under a seat's name or bundle."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.driver import play_against_bots, read_state, take_turn

pytestmark = [pytest.mark.browser]

# Pairs of things on the felt that meet, as "a / b"; [] when nothing covers anything.
CLASHES_JS = """() => {
  const meet = (n, m) => {
    const a = n.getBoundingClientRect(), b = m.getBoundingClientRect();
    if (!a.width || !b.width) return false;
    return a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  };
  const sel = '#felt .trick-caption, #felt .felt-note, #felt-info .felt-news';
  const words = [...document.querySelectorAll(sel)]
    .filter((n) => getComputedStyle(n).display !== 'none');
  const things = [...document.querySelectorAll(
    '#center .card, #center .stack-label, #center .stack-count, #seats .bundle-badge, #seats .plate'
  )];
  const clashes = [];
  for (const w of words) for (const t of things) {
    if (meet(w, t)) clashes.push(`${w.textContent.trim()} / ${t.dataset.card || t.textContent.trim()}`);
  }
  // The cards on the felt and the seats' parts (names, bundles) stay apart too.
  const seats = [...document.querySelectorAll('#seats .bundle-badge, #seats .plate')];
  for (const c of document.querySelectorAll('#center .card')) for (const t of seats) {
    if (meet(c, t)) clashes.push(`${c.dataset.card} / ${t.textContent.trim()}`);
  }
  return clashes;
}"""


def play_until(page: Page, shown: str, limit: int = 400) -> None:
    """Make this page's moves until ``shown`` (a selector) is on the page, on our turn."""
    rng = random.Random(9)
    for _ in range(limit):
        state = read_state(page)
        if state["myTurn"] and page.locator(shown).count():
            return
        if not take_turn(page, rng, tap=True, state=state):
            page.wait_for_timeout(50)
    raise AssertionError(f"{shown} never showed; the page shows {read_state(page)}")


@pytest.mark.parametrize(
    ("game", "players", "options", "shown"),
    [
        ("agram", 4, {"Deals to win": "7"}, "#felt-info .felt-news"),
        ("stealing_bundles", 4, {}, "#felt-info .felt-news"),
    ],
)
def test_words_on_the_felt_cover_no_card(site_server, new_page, game, players, options, shown) -> None:
    page = new_page(**PHONE)
    play_against_bots(page, site_server.url, "Ann", game, players, options)
    play_until(page, shown)
    page.screenshot(path=str(ARTIFACTS / f"overlaps-{game}-390x844.png"))
    assert page.evaluate(CLASHES_JS) == []
    assert page.errors == []
