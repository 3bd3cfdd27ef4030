"""Animations that tell the story (the deal, the pass sliding in, the trick gathered toward
its winner) run when motion is allowed, and none runs under reduced motion."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from tests.browser.driver import play_against_bots, read_state, take_turn

pytestmark = [pytest.mark.browser]

COUNTS_JS = "() => ({ ...window.cardtable.animations })"


def play_a_while(page: Page, done, limit: int = 300) -> dict:
    """Play this page's turns until ``done(counts)``, or ``limit`` looks; return the counts."""
    rng = random.Random(4)
    for _ in range(limit):
        counts = page.evaluate(COUNTS_JS)
        if done(counts):
            return counts
        state = read_state(page)
        if not take_turn(page, rng, state=state):
            page.wait_for_timeout(50)
    return page.evaluate(COUNTS_JS)


def test_the_deal_the_pass_and_the_gathered_trick_are_animated(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800}, reduced_motion="no-preference")
    play_against_bots(page, site_server.url, "Ann", "hearts", 4, {"Play to": "50"})
    counts = play_a_while(page, lambda c: c["deal"] and c["pass"] and c["gather"] >= 2)
    assert counts["deal"] >= 1 and counts["pass"] >= 1 and counts["gather"] >= 2, counts
    assert page.errors == []


def test_reduced_motion_moves_nothing(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    play_against_bots(page, site_server.url, "Ann", "hearts", 4, {"Play to": "50"})
    # Past the pass and a few tricks: the same moments, and no animation ran. (Thirty looks,
    # not more: sixty may be sixty turns of the page's, enough to end a game to 50.)
    play_a_while(page, lambda c: False, limit=30)
    assert read_state(page)["status"] == "playing"
    assert page.evaluate(COUNTS_JS) == {"deal": 0, "gather": 0, "pass": 0}
    assert page.evaluate("() => document.getAnimations().length") == 0
    assert page.errors == []
