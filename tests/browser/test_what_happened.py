"""What happened stays visible, and the page teaches: a whole Hearts game at 1280x800
(the pass highlighted with who passed it, the last trick reviewed, the deal's final
trick in its summary, the history table), a Cribbage deal (the count kept after it
ends, each card's pegging score, the pegs), and the hint."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.driver import (
    choose_name,
    create_table,
    play_against_bots,
    play_to_end,
    read_state,
    take_turn,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LAPTOP = {"width": 1280, "height": 800}

# Cribbage's felt, read in one call: the pairs of things a player must see apart
# (the crib's and the start's labels; a count card's pegging badge and another card;
# the count's last line and the seats or their bubbles; a seat's bubble and the
# table), and how much each count card hides of the one before it (a fraction of
# the card's width).
KEPT_COUNT_ON_OUR_TURN_JS = """() => document.body.dataset.myTurn === 'yes'
  && !!document.querySelector('.count-pile.finished .card')"""

CRIBBAGE_CLASHES_JS = """() => {
  const box = (n) => n.getBoundingClientRect();
  const meet = (n, m) => {
    const a = box(n), b = box(m);
    return a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  };
  const all = (selector) => [...document.querySelectorAll(selector)];
  const name = (n) => n.dataset.card || n.textContent.trim() || n.className;
  const clashes = [];
  const crib = document.querySelector('#center .crib .stack-label');
  const start = document.querySelector('#center .start-card ~ .stack-label');
  if (crib && start && meet(crib, start)) clashes.push(`crib label ${crib.textContent} / start label`);
  const cards = all('#center .count-pile .card');
  const hidden = [];
  cards.forEach((card, i) => {
    if (i) hidden.push((box(cards[i - 1]).right - box(card).left) / box(card).width);
    const badge = card.querySelector('.peg-badge');
    for (const other of badge ? cards : []) {
      if (other !== card && meet(badge, other)) clashes.push(`badge ${badge.textContent} on ${name(other)}`);
    }
  });
  const over = document.querySelector('#center .count-over');
  for (const n of over ? all('#seats .plate, #seats .bubble, #center .count-pile .card') : []) {
    if (meet(over, n)) clashes.push(`count line on ${name(n)}`);
  }
  const table = all('#center :is(.card, .stack, .big-number, .stack-label, .peg-badge)');
  for (const b of all('#seats .bubble')) {
    for (const n of table) if (meet(b, n)) clashes.push(`bubble ${b.textContent} on ${name(n)}`);
  }
  return { clashes, hidden };
}"""

# The trick the page shows on the felt (cards with their seats), read in one call.
FELT_TRICK_JS = """() => [...document.querySelectorAll('#center .trick .card')].map(
  (c) => c.dataset.seat + ':' + c.dataset.card).sort()"""


def test_a_whole_hearts_game_shows_what_happened(site_server, new_page):
    page = new_page(viewport=LAPTOP)
    play_against_bots(page, site_server.url, "Ann", "hearts", 4, {"Play to": "50"})
    seen = {"received": False, "review": False, "final": 0, "tricks": {}}

    def on_turn(page: Page, state: dict) -> None:
        # After the pass: the three cards received are marked, with who passed them.
        received = page.locator("#hand button.card.mark-received")
        if not seen["received"] and received.count():
            expect(received).to_have_count(3)
            expect(received.first).to_have_attribute("data-mark", re.compile(r"^from (Bot \d)$"))
            giver = received.first.get_attribute("data-mark").removeprefix("from ")
            expect(page.locator(".received-note")).to_contain_text(f"{giver} passed you")
            page.screenshot(path=str(ARTIFACTS / "hearts-pass-received.png"))
            seen["received"] = True
        # A finished trick stays on the felt until the next lead (our lead: it is still there).
        tools = page.locator("#last-trick-button")
        on_felt = page.evaluate(FELT_TRICK_JS)
        if not seen["review"] and tools.count() and len(on_felt) == 4:
            tools.click()
            dialog = page.locator("#review [role=dialog]")
            expect(dialog).to_be_visible()
            shown = page.evaluate(
                "() => [...document.querySelectorAll('#review .card')].map("
                "(c) => c.dataset.seat + ':' + c.dataset.card).sort()"
            )
            assert shown == on_felt, "the review shows the trick just taken"
            expect(dialog).to_contain_text("took it")
            page.screenshot(path=str(ARTIFACTS / "hearts-last-trick.png"))
            dialog.get_by_role("button", name="Close").click()
            expect(dialog).to_be_hidden()
            seen["review"] = True
        # A deal's summary shows its final trick (the next deal took it off the table).
        final = page.locator("#summary:not([hidden]) .final-trick .card")
        if final.count():
            expect(final).to_have_count(4)
            expect(page.locator("#summary")).to_contain_text("took the last trick")
            seen["final"] += 1

    play_to_end([page], seed=11, limit=600, on_turn=on_turn)
    assert seen["received"] and seen["review"] and seen["final"] >= 1, seen

    # The history table: a row per deal, ending at the final scores, the queen marked.
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="See the table").click()
    history = page.locator("#history-table")
    expect(history).to_be_visible()
    rows = history.locator("tr:has(th[scope=row])")
    deals = rows.count()
    assert deals >= 2
    now = page.locator("#scores table.score-table:not(.history) td.num")
    final = [int(t) for t in now.all_text_contents()]
    last = rows.nth(deals - 1).locator("td").all_text_contents()
    assert [int(re.match(r"-?\d+", t).group()) for t in last] == final
    for i in range(deals):
        marks = rows.nth(i).locator(".mark").all_text_contents()
        assert any("Q♠" in m or "moon" in m for m in marks), f"deal {i + 1} names who took the queen"
    page.screenshot(path=str(ARTIFACTS / "hearts-history.png"))
    assert page.errors == []


def test_cribbage_keeps_the_count_and_pegs_the_board(site_server, new_page):
    page = new_page(viewport=LAPTOP)
    play_against_bots(page, site_server.url, "Ann", "cribbage", 2, {"Play to": "61"})
    rng = random.Random(4)
    for _ in range(400):
        # On our turn (read in one call), so that no bot's move changes the felt while it is read.
        if page.evaluate(KEPT_COUNT_ON_OUR_TURN_JS):
            break
        state = read_state(page)
        if not take_turn(page, rng, state=state):
            page.wait_for_timeout(50)
    finished = page.locator(".count-pile.finished")
    expect(finished.locator(".card").first).to_be_visible()
    # The count that just ended says how it ended, and each scoring card its points.
    expect(finished.locator(".count-over")).to_contain_text(re.compile(r"Count over at \d+"))
    labels = finished.locator(".card").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    badges = finished.locator(".card .peg-badge").count()
    scoring = [label for label in labels if re.search(r"(fifteen|pair|run|thirty-one) \d", label)]
    assert badges == len(scoring)
    page.screenshot(path=str(ARTIFACTS / "cribbage-count-kept.png"))
    # Nothing on the felt runs into anything else, at laptop and phone sizes.
    for width, height in [(1280, 800), (1366, 768), (390, 844)]:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        page.screenshot(path=str(ARTIFACTS / f"cribbage-count-{width}x{height}.png"))
        felt = page.evaluate(CRIBBAGE_CLASHES_JS)
        assert felt["clashes"] == [], f"{width}x{height}: {felt['clashes']}"
        assert all(part <= 0.3 for part in felt["hidden"]), (
            f"{width}x{height}: count cards hide {felt['hidden']}"
        )
    page.set_viewport_size(LAPTOP)
    # The pegs: the front peg of each side stands at its score; the back one behind it.
    scores = page.locator("#scores table.score-table:not(.history) td.num").all_text_contents()
    for side, score in enumerate(scores):
        front = page.locator(f".peg.front[data-side='{side}']")
        back = page.locator(f".peg.back[data-side='{side}']")
        assert int(front.get_attribute("data-hole")) == int(score)
        assert int(back.get_attribute("data-hole")) <= int(score)
    holes = page.locator(".board-svg .hole").count()
    assert holes == 2 * 61  # 60 holes and the finishing hole, per side
    assert page.errors == []


def test_the_hint_marks_a_card_you_may_play(site_server, new_page):
    page = new_page(viewport=LAPTOP)
    play_against_bots(page, site_server.url, "Ann", "agram", 3, {"Deals to win": "1"})
    page.wait_for_function("document.body.dataset.myTurn === 'yes'")
    legal = read_state(page)["legal"]
    page.get_by_role("button", name="Hint").click()
    marked = page.locator("#hand button.card.mark-hint")
    expect(marked).to_have_count(1)
    assert marked.get_attribute("data-card") in legal
    expect(page.locator("#toast")).to_contain_text("Hint:")
    expect(page.get_by_role("button", name="Hint shown")).to_be_disabled()
    assert page.errors == []


def test_seats_can_change_and_sound_and_motion_are_the_players_settings(site_server, new_page):
    page = new_page(viewport={"width": 390, "height": 844}, reduced_motion="no-preference")
    page.goto(site_server.url + "/")
    choose_name(page, "Ann")
    create_table(page, "agram", 2)
    # The creator sits at seat 0 at once, and may move to another seat before the start.
    expect(page.locator(".seat.mine")).to_have_attribute("data-seat", "0")
    page.get_by_role("button", name="Move here").click()
    expect(page.locator(".seat.mine")).to_have_attribute("data-seat", "1")
    expect(page.locator(".seat.kind-empty")).to_have_attribute("data-seat", "0")
    page.get_by_role("button", name="Settings").click()
    sound = page.get_by_label("Sounds (your turn, cards played)")
    expect(sound).not_to_be_checked()
    expect(page.locator("#motion-note")).to_be_hidden()
    page.get_by_label("Card animations").select_option("off")
    expect(page.locator("body")).to_have_class(re.compile(r"\bno-motion\b"))
    page.reload()
    expect(page.locator("body")).to_have_class(re.compile(r"\bno-motion\b"))  # kept in this browser
    # A system that asks for less motion is obeyed whatever the setting, and told so.
    calm = new_page(reduced_motion="reduce")
    calm.goto(page.url)
    choose_name(calm, "Bea")
    expect(calm.locator("body")).to_have_class(re.compile(r"\bno-motion\b"))
    assert page.errors == [] and calm.errors == []
