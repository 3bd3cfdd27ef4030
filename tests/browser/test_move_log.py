"""The move log of the current deal: in view beside the table at 1280x800, one tap away
on a phone, and it names the move the turn clock made for you."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.driver import choose_name, fill_with_bots, read_state, start, take_turn

pytestmark = [pytest.mark.browser]

IN_VIEW_JS = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
}"""

# A table with a 5-second turn clock, made through the API (the lobby offers 15 s at least).
CLOCKED_TABLE_JS = """async () => {
  const { api } = await import('/static/js/client.js');
  const table = await api('/api/tables/', { game: 'agram', players: 2, clock: 5 });
  return table.url;
}"""


def test_the_log_names_the_clocks_move_for_you(site_server, new_page) -> None:
    page = new_page(viewport={"width": 1280, "height": 800})
    page.goto(site_server.url + "/")
    choose_name(page, "Ann")
    page.goto(site_server.url + page.evaluate(CLOCKED_TABLE_JS))
    fill_with_bots(page, "random")
    start(page)
    page.wait_for_function("document.body.dataset.myTurn === 'yes'")
    before = set(read_state(page)["hand"])
    assert page.evaluate(IN_VIEW_JS, "#move-log"), "the log is in view beside the table"
    # We let the clock run out. A toast says what it played, over the felt, never over the
    # turn banner (measured while it shows: it goes after 4 s).
    clear = page.wait_for_function(
        """() => {
          const toast = document.getElementById('toast');
          if (toast.hidden || !/the clock played/.test(toast.textContent)) return null;
          const t = toast.getBoundingClientRect();
          const b = document.getElementById('turn-banner').getBoundingClientRect();
          return { clear: t.top >= b.bottom || t.bottom <= b.top };
        }""",
        timeout=20_000,
    ).json_value()
    assert clear["clear"], "the toast covers the turn banner"
    # The log says which card it played, for us.
    entry = page.locator("#move-log li.by-timeout").first
    expect(entry).to_have_text(re.compile(r"^Time ran out: the clock played (\S+) for you$"), timeout=20_000)
    played = re.search(r"played (\S+) for", entry.text_content()).group(1)
    suit = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}[played[-1]]
    card = ("T" if played[:-1] == "10" else played[:-1]) + suit
    # It was ours, and it left our hand (the clock goes on playing while we wait).
    assert card in before and card not in read_state(page)["hand"]
    page.screenshot(path=str(ARTIFACTS / "move-log-clock-1280x800.png"))
    # A page opened now (a friend coming back) reads the same log from the server, and no old toast.
    again = new_page(viewport={"width": 1280, "height": 800})
    again.goto(page.url)
    seen_again = again.locator("#move-log li.by-timeout").first
    expect(seen_again).to_have_text(entry.text_content().replace("for you", "for Ann"))
    expect(again.locator("#toast")).to_be_hidden()
    assert page.errors == [] and again.errors == []


def test_on_a_phone_the_log_is_one_tap_away_and_follows_the_deal(site_server, new_page) -> None:
    page = new_page(**PHONE)
    page.goto(site_server.url + "/")
    choose_name(page, "Ann")
    page.get_by_label("Game", exact=True).select_option("hearts")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/$"))
    fill_with_bots(page, "random")
    start(page)
    rng = random.Random(2)
    for _ in range(200):
        state = read_state(page)
        if state["myTurn"] and state["legal"] and not state["confirm"]:
            break
        if not take_turn(page, rng, tap=True, state=state):
            page.wait_for_timeout(50)
    page.get_by_role("button", name="Log").tap()
    log = page.locator("#move-log")
    expect(log).to_be_visible()
    lines = log.locator("li").all_text_contents()
    # The four passes: ours and the one passed to us with their cards, the others' as a count.
    passes = [line for line in lines if " passed " in line]
    assert len(passes) == 4, lines
    assert any(line.startswith("You passed ") and "3 cards" not in line for line in passes), passes
    assert sum(line.endswith("passed 3 cards") for line in passes) == 2, passes
    page.screenshot(path=str(ARTIFACTS / "move-log-phone.png"))
    assert page.errors == []
