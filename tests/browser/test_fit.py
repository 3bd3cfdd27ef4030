"""The table fits the window: every game, every phase reached, at six window sizes.

A person must see every seat, what is on the table, the whole hand, whose turn it
is and the move buttons without scrolling. For each game one page reaches its
phases once; at each phase the same page is resized through the sizes and the
bounding boxes of those parts are checked against the window (scroll 0).
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.driver import choose_name, create_table, fill_with_bots, read_state, start, take_turn

pytestmark = [pytest.mark.browser]

# Laptops and desktops, then phones held upright.
SIZES = [(1280, 800), (1366, 768), (1440, 900), (1920, 1080), (375, 667), (390, 844)]

# What must be in view, and which of it must exist in a phase where it is shown.
# Returns [problem, ...]; an empty list is a fit.
FIT_JS = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const problems = [];
  const root = document.scrollingElement;
  if (root.scrollTop !== 0 || window.scrollY !== 0) problems.push(`scrolled to ${window.scrollY}`);
  if (root.scrollHeight > vh + 1) problems.push(`page is ${root.scrollHeight}px tall in ${vh}px`);
  if (root.scrollWidth > vw + 1) problems.push(`page is ${root.scrollWidth}px wide in ${vw}px`);
  const parts = {
    'turn banner': '#turn-banner',
    'seat': '#seats .seat .plate',
    'table card': '#center .card, #center .stack, #center .pile, #center .big-number',
    'hand card': '#hand button.card',
    'move button': '#actions button, #actions select',
    'board': '#below .board',
    'summary button': '#summary:not([hidden]) button',
  };
  const seen = {};
  for (const [name, selector] of Object.entries(parts)) {
    const nodes = [...document.querySelectorAll(selector)];
    seen[name] = nodes.length;
    for (const node of nodes) {
      const r = node.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) {
        const label = node.dataset.card || node.textContent.trim().slice(0, 30);
        const box = [r.left, r.top, r.right, r.bottom].map(Math.round).join(', ');
        problems.push(`${name} ${label} at [${box}]`);
      }
    }
  }
  return { problems, seen, status: document.body.dataset.status };
}"""


def check_fit(page: Page, game: str, phase: str, must_show: tuple[str, ...]) -> None:
    """Resize through SIZES and assert that everything a player needs is in the window."""
    failures = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        found = page.evaluate(FIT_JS)
        missing = [part for part in must_show if not found["seen"].get(part)]
        if found["problems"] or missing:
            shot = ARTIFACTS / f"fit-{game}-{phase}-{width}x{height}.png"
            page.screenshot(path=str(shot))
            failures.append(f"{width}x{height}: {found['problems']} missing {missing} (see {shot.name})")
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    assert not failures, f"{game} ({phase}) does not fit:\n" + "\n".join(failures)


def play_until(page: Page, done, limit: int = 60) -> None:
    """Make this page's moves (bots make theirs) until ``done(state)`` holds."""
    rng = random.Random(5)
    for _ in range(limit * 10):
        state = read_state(page)
        if done(state):
            return
        if not take_turn(page, rng, state=state):
            page.wait_for_timeout(100)
    raise AssertionError(f"never reached the phase; the page shows {read_state(page)}")


# game: (players, options by label, what a phase after the first must show)
GAMES = {
    "hearts": (4, {"Passing": "Rotating"}),
    "cribbage": (2, {}),
    "stealing_bundles": (3, {}),
    "ninety_eight": (3, {"Lives": "3"}),
    "agram": (4, {}),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_phase_fits_every_window(site_server, new_page, game):
    players, options = GAMES[game]
    page = new_page(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    page.goto(site_server.url + "/")
    choose_name(page, "Ann")
    create_table(page, game, players, options)
    # The creator is seated already: no "Sit here" for them, their name on a seat.
    expect(page.get_by_role("button", name="Leave seat")).to_be_visible()
    check_fit(page, game, "waiting", ("turn banner", "seat", "move button"))
    fill_with_bots(page, "random")
    start(page)
    page.wait_for_function("document.body.dataset.myTurn === 'yes'")
    check_fit(page, game, "first-turn", ("turn banner", "seat", "hand card"))
    # A later phase: Hearts plays after the pass, Cribbage pegs after the discard;
    # the other games are a few moves on.
    moves = {"n": 0}

    def later(state: dict) -> bool:
        if state["myTurn"] and not state["confirm"]:
            moves["n"] += 1
        return state["myTurn"] and not state["confirm"] and state["legal"] and moves["n"] > 2

    play_until(page, later)
    check_fit(page, game, "play", ("turn banner", "seat", "hand card", "table card"))
    assert page.errors == []
