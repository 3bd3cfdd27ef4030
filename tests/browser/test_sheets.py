"""Summaries and Cribbage's show are whole sheets that hide nothing of the game.

For every game that sums up a deal, a page plays until its sheet shows, then at
1280x800, 1366x768 and 390x844 the sheet's bounding box must be inside the window,
nothing in it may need scrolling (the sheet, or the side column it heads) unless
the felt above it has shrunk to its least (a show of many scores on a phone), and
it must cover no seat, no card of the hand, no count or table card, the turn
banner or a move button. Closed, it can be opened again ("Last deal", "The show").
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.driver import play_against_bots, read_state, take_turn

pytestmark = [pytest.mark.browser]

SIZES = [(1280, 800), (1366, 768), (390, 844)]

# Returns [problem, ...] for the sheet as it stands; [] when it is whole and covers nothing.
SHEET_JS = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const sheet = document.getElementById('summary');
  if (!sheet || sheet.hidden) return ['no sheet'];
  const problems = [];
  const r = sheet.getBoundingClientRect();
  const box = [r.left, r.top, r.right, r.bottom].map(Math.round).join(', ');
  if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) {
    problems.push(`sheet at [${box}] in ${vw}x${vh}`);
  }
  for (let n = sheet; n && n !== document.body; n = n.parentElement) {
    if (n.scrollHeight > n.clientHeight + 1 && getComputedStyle(n).overflowY !== 'visible' && n.scrollTop > 0)
      problems.push(`${n.id || n.className} scrolled by ${n.scrollTop}`);
  }
  // Only a sheet the window cannot hold scrolls: the felt above it has shrunk to its least.
  const felt = document.getElementById('felt');
  const floor = felt ? parseFloat(getComputedStyle(felt).minHeight) : 0;
  const feltAtLeast = felt && felt.getBoundingClientRect().height <= floor + 1;
  if (sheet.scrollHeight > sheet.clientHeight + 1 && !feltAtLeast) {
    problems.push(`sheet needs scrolling: ${sheet.scrollHeight} in ${sheet.clientHeight}`);
  }
  // Every part of the sheet is inside its scrolling ancestors' visible boxes.
  for (let n = sheet.parentElement; n && n !== document.body; n = n.parentElement) {
    const style = getComputedStyle(n);
    if (style.overflowY === 'visible') continue;
    const p = n.getBoundingClientRect();
    if (r.top < p.top - 1 || r.bottom > p.bottom + 1) problems.push(`sheet cut by ${n.id || n.className}`);
  }
  const game = [
    '#seats .plate', '#hand button.card', '#center .card', '#center .stack', '#center .big-number',
    '#center .count-pile', '#turn-banner', '#actions button', '#below .board',
  ];
  for (const node of document.querySelectorAll(game.join(', '))) {
    const b = node.getBoundingClientRect();
    if (!b.width || !b.height) continue;
    if (b.left < r.right - 1 && r.left < b.right - 1 && b.top < r.bottom - 1 && r.top < b.bottom - 1) {
      problems.push(`covers ${node.dataset.card || node.textContent.trim().slice(0, 24) || node.className}`);
    }
  }
  return problems;
}"""

# game: (players, options by label, the button that opens the sheet again)
GAMES = {
    "hearts": (4, {"Play to": "50"}, "Last deal"),
    "cribbage": (2, {"Play to": "61"}, "The show"),
    "agram": (3, {"Deals to win": "3"}, "Last deal"),
    "ninety_eight": (3, {"Lives": "3"}, "Last deal"),
}


def play_until_sheet(page: Page, limit: int = 1500) -> None:
    """Make this page's moves until a summary sheet shows (it shows after a deal ends)."""
    rng = random.Random(7)
    for _ in range(limit):
        state = read_state(page)
        if state["summary"]:
            return
        if state["status"] != "playing":
            raise AssertionError(f"the game ended before a sheet showed: {state}")
        if not take_turn(page, rng, state=state):
            page.wait_for_timeout(50)
    raise AssertionError(f"no sheet; the page shows {read_state(page)}")


def settle(page: Page) -> None:
    """Wait two frames, so the layout after a resize is the one measured."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


@pytest.mark.parametrize("game", list(GAMES))
def test_the_sheet_is_whole_and_covers_nothing(site_server, new_page, game):
    players, options, again = GAMES[game]
    page = new_page(viewport={"width": 1280, "height": 800})
    play_against_bots(page, site_server.url, "Ann", game, players, options)
    play_until_sheet(page)
    failures = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        shot = ARTIFACTS / f"sheet-{game}-{width}x{height}.png"
        page.screenshot(path=str(shot))
        problems = page.evaluate(SHEET_JS)
        if problems:
            failures.append(f"{width}x{height}: {problems} (see {shot.name})")
    assert not failures, f"{game}'s sheet:\n" + "\n".join(failures)
    # Closed, the sheet is one tap away until the next one.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#summary").get_by_role("button", name="OK").click()
    expect(page.locator("#summary")).to_be_hidden()
    expect(page.locator("#sheet-again")).to_have_text(again)
    page.locator("#sheet-again").click()
    expect(page.locator("#summary")).to_be_visible()
    assert page.locator("#sheet-again").count() == 0
    assert page.errors == []


def test_a_tall_show_on_a_phone_leaves_the_seats_clear(site_server, new_page):
    """However many lines the show scores, the felt above it may shrink, but no seat goes under the sheet."""
    players, options, _ = GAMES["cribbage"]
    page = new_page(viewport={"width": 390, "height": 844})
    play_against_bots(page, site_server.url, "Ann", "cribbage", players, options)
    play_until_sheet(page)
    felt = page.locator("#felt")
    for extra in (60, 100, 140, 180):
        # A show with more lines than this deal's: the sheet grows by ``extra`` pixels.
        page.evaluate(
            "(px) => { const s = document.getElementById('summary');"
            " (s.querySelector('.stand-in') || s.appendChild(Object.assign(document.createElement('div'),"
            " {className: 'stand-in'}))).style.height = px + 'px'; }",
            extra,
        )
        settle(page)
        height = felt.bounding_box()["height"]
        problems = page.evaluate(SHEET_JS)
        page.screenshot(path=str(ARTIFACTS / f"sheet-cribbage-tall-{extra}.png"))
        assert problems == [], f"a show {extra}px taller, the felt {height:.0f}px tall: {problems}"
        assert height >= 95  # the sheet scrolls instead
    # The first show's tip waits, hidden, for the sheet to close.
    expect(page.locator("#tip-bar .tip")).to_have_count(1)
    expect(page.locator("#tip-bar")).to_be_hidden()
    page.locator("#summary").get_by_role("button", name="OK").click()
    expect(page.locator("#summary")).to_be_hidden()
    expect(page.locator("#tip-bar .tip")).to_be_visible()
