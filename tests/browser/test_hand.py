"""The hand as a person sees it: every card shows enough of itself to click or tap,
choosing a card does not shift the fan, a hovered card stays under the pointer,
and the "your turn" glow runs only when the player allows motion, cheaply."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE
from tests.browser.driver import (
    VISIBLE_SPOT_JS,
    choose_name,
    click_card,
    play_against_bots,
    play_to_end,
)

pytestmark = pytest.mark.browser

SIZES = {
    # size: (context options, the least width in px each card shows of itself)
    "desktop": ({"viewport": {"width": 1280, "height": 900}}, 40),
    "phone": (PHONE, 18),
}

# The lowest point, a few pixels above the card's lower edge, straight below
# ``spot`` (a point the card shows), in page coordinates.
LOW_POINT_JS = """(card, spot) => {
  const box = card.getBoundingClientRect();
  const x = box.left + spot.x;
  for (let y = Math.floor(box.bottom) - 1; y > box.top; y--) {
    const hit = document.elementFromPoint(x, y);
    if (hit && card.contains(hit)) return { x, y: y - 3 };
  }
  return null;
}"""


def deal_a_hearts_hand(page: Page, url: str, name: str = "Ann") -> None:
    """Start a Hearts game against bots; wait for the first pass, when all 13 cards are legal."""
    play_against_bots(page, url, name, "hearts", 4, {"Play to": "50"})
    expect(page.locator("#hand button.card.legal")).to_have_count(13)


@pytest.mark.parametrize("size", list(SIZES))
def test_every_card_shows_a_part_to_click(site_server, new_page, size):
    options, least = SIZES[size]
    page = new_page(**options)
    deal_a_hearts_hand(page, site_server.url)
    cards = page.locator("#hand button.card")
    names = cards.evaluate_all("bs => bs.map(b => b.dataset.card)")
    for name in names:
        spot = page.locator(f'#hand button.card[data-card="{name}"]').evaluate(VISIBLE_SPOT_JS)
        assert spot is not None and spot["width"] >= least, f"{name} shows {spot} of itself"

    # Choosing cards raises them and stands them upright; the fan's spacing stays.
    overlap_js = "getComputedStyle(document.getElementById('hand')).getPropertyValue('--overlap')"
    overlap = page.evaluate(overlap_js)
    for i in (0, 1):
        click_card(page, names[i], tap=size == "phone")
        expect(cards.nth(i)).to_have_class(re.compile(r"\bselected\b"))
    assert page.evaluate(overlap_js) == overlap
    assert page.evaluate("document.documentElement.scrollWidth") <= options["viewport"]["width"]
    assert page.errors == []


def test_a_hovered_card_stays_under_the_pointer(site_server, new_page):
    page = new_page()
    deal_a_hearts_hand(page, site_server.url)
    card = page.locator("#hand button.card.legal").nth(6)
    point = card.evaluate(LOW_POINT_JS, card.evaluate(VISIBLE_SPOT_JS))
    assert point is not None
    # Near its lower edge: a card that rose from under the pointer would lose the
    # hover, drop back under the pointer, rise again, and flicker.
    page.mouse.move(point["x"], point["y"])
    for _ in range(6):
        page.wait_for_timeout(50)
        assert card.evaluate(
            "(c, p) => c.matches(':hover') && c.contains(document.elementFromPoint(p.x, p.y))", point
        ), "the hovered card moved away from the pointer"


# The running "glow" animations, each as the properties its keyframes animate.
GLOWS_JS = """() => document.getAnimations()
  .filter((a) => a.animationName === 'glow' && a.playState === 'running')
  .map((a) => [...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k)))]
    .filter((p) => !['offset', 'computedOffset', 'easing', 'composite'].includes(p)))"""


def test_the_turn_glow_runs_only_when_motion_is_allowed(site_server, new_page):
    lively = new_page(reduced_motion="no-preference")
    deal_a_hearts_hand(lively, site_server.url)
    expect(lively.locator("#turn-banner.mine")).to_be_visible()
    expect(lively.locator(".seat.turn")).to_have_count(1)
    # The banner's glow and the seat's: each fades a halo in and out (opacity only:
    # the compositor runs it, where a box-shadow would repaint every frame).
    glows = lively.evaluate(GLOWS_JS)
    assert glows == [["opacity"], ["opacity"]], glows

    # A watcher who asked for less motion sees whose turn it is, without the pulse.
    calm = new_page(reduced_motion="reduce")
    calm.goto(lively.url)
    choose_name(calm, "Cal")
    expect(calm.locator(".seat.turn")).to_have_count(1)
    assert calm.evaluate(GLOWS_JS) == []
    assert lively.errors == [] and calm.errors == []


# Counts the page's script animations (the played card's slide uses Element.animate).
COUNT_SLIDES_JS = """() => {
  window.slides = 0;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) { window.slides += 1; return animate.apply(this, args); };
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_played_card_slides_in_only_when_motion_is_allowed(site_server, new_page, motion):
    page = new_page(reduced_motion=motion)
    page.add_init_script(f"({COUNT_SLIDES_JS})()")
    play_against_bots(page, site_server.url, "Mo", "ninety_eight", 2)
    assert play_to_end([page], seed=3, limit=120) > 0
    slides = page.evaluate("window.slides")
    assert (slides > 0) if motion == "no-preference" else (slides == 0), slides
    assert page.errors == []
