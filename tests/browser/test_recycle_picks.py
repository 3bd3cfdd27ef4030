"""A RECYCLE choice of any set of cards of a 14-card hand, played at the table by picking
cards and confirming (static/js/picker.js), at 1280x800 with the mouse and the keyboard
and on a 390x844 phone by taps, to the end of the game.

The game (tests/games/recycle/families/shed.rcy): each turn put down cards of your hand
whose points add up to 10 at most; the first to empty their hand wins. Its first choice
has thousands of options; the page gets the cards to pick and the rule, not a button each.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.driver import choose_name, create_table, fill_with_bots, sit, start
from tests.browser.test_recycle_page import staff_page, wait_checked

pytestmark = [pytest.mark.browser]

SHED = Path(__file__).parents[1] / "games" / "recycle" / "families" / "shed.rcy"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

# The picker's cards with their points (from their accessible names), and where each lies.
CARDS_JS = """() => [...document.querySelectorAll('#actions .pick-card')].map((b) => {
  const r = b.getBoundingClientRect();
  return {card: b.dataset.card, points: Number(/, (\\d+) points/.exec(b.getAttribute('aria-label'))[1]),
          pressed: b.getAttribute('aria-pressed') === 'true',
          box: [r.left, r.top, r.right, r.bottom]};
})"""


TURN_OR_END_JS = (
    "() => document.querySelector('#actions .picker-confirm') || !document.getElementById('over').hidden"
)


def _upload(page: Page, path: Path) -> str:
    """Add the file as staff; its check plays 100 games, slow on a busy machine: waited for longer."""
    page.get_by_label("or a file").set_input_files(str(path))
    page.get_by_role("button", name="Check and add").click(no_wait_after=True)
    expect(page.locator("#added")).to_be_visible(timeout=120_000)
    wait_checked(page)  # offered at tables once its check (a background job) passes
    return page.locator("#added code").first.text_content().strip()


def _greedy(cards: list[dict]) -> list[str]:
    """Cards of fewest points first while they add up to 10 at most (a legal set, never empty)."""
    chosen, total = [], 0
    for card in sorted(cards, key=lambda c: c["points"]):
        if total + card["points"] <= 10:
            chosen.append(card["card"])
            total += card["points"]
    return chosen


def _in_window(page: Page, box: list[float]) -> bool:
    size = page.viewport_size
    return box[0] >= -1 and box[2] <= size["width"] + 1 and box[1] < box[3]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_game_of_picks_plays_to_the_end_by_picking_and_confirming(own_server, new_page, device) -> None:
    staff = staff_page(own_server, new_page)
    game_id = _upload(staff, SHED)
    phone = device == "phone"
    page = new_page(**(PHONE if phone else DESKTOP))
    frames: list[int] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(len(f))))
    page.goto(own_server.url + "/")
    choose_name(page, "Ann")
    create_table(page, game_id)
    sit(page)
    fill_with_bots(page, "random")
    start(page)
    confirm = page.locator("#actions .picker-confirm")
    over = page.locator("#over")
    turns = 0
    while True:
        page.wait_for_function(TURN_OR_END_JS, timeout=30_000)
        if over.is_visible():
            break
        expect(confirm).to_be_disabled()  # nothing picked yet: a set has one card at least
        cards = page.evaluate(CARDS_JS)
        assert cards and not any(c["pressed"] for c in cards)
        # Each card can be reached: inside the window's width, none over another.
        for i, a in enumerate(cards):
            assert _in_window(page, a["box"]), f"{a['card']} is out of the window: {a['box']}"
            for b in cards[i + 1 :]:
                apart = a["box"][2] <= b["box"][0] + 1 or b["box"][2] <= a["box"][0] + 1
                assert apart or a["box"][3] <= b["box"][1] + 1 or b["box"][3] <= a["box"][1] + 1
        chosen = _greedy(cards)
        if turns == 0:
            # A hint is one of the sets listed (the normal bot's choice), said as its cards.
            page.locator("#table-tools").get_by_role("button", name="Hint").click()
            expect(page.locator("#toast")).to_contain_text(re.compile(r"Hint: \S"), timeout=30_000)
            expect(page.locator("#toast")).not_to_contain_text(re.compile("undefined|Option|,"))
        if turns == 0 and sum(c["points"] for c in cards) > 10:
            # Past 10 points the page does not let the set be confirmed, and says why.
            for card in cards:
                page.locator(f'#actions .pick-card[data-card="{card["card"]}"]').click()
            expect(confirm).to_be_disabled()
            expect(page.locator("#actions .picker-status")).to_contain_text("at most 10")
            for card in cards:
                page.locator(f'#actions .pick-card[data-card="{card["card"]}"]').click()
        for card in chosen:
            button = page.locator(f'#actions .pick-card[data-card="{card}"]')
            if phone:
                button.tap()
            elif turns % 2:  # the keyboard: the focus stays on the card toggled
                button.focus()
                page.keyboard.press("Space")
                expect(button).to_be_focused()
            else:
                button.click()
            expect(button).to_have_attribute("aria-pressed", "true")
        expect(confirm).to_be_enabled()
        expect(page.locator("#actions .picker-status")).to_contain_text(f"{len(chosen)} picked")
        if turns == 1:
            page.screenshot(path=str(ARTIFACTS / f"recycle-picks-{device}.png"))
        before = len(page.locator("#hand button.card").all())
        version = page.locator("body").get_attribute("data-version")
        if phone:
            confirm.tap()
        elif turns % 2:
            confirm.focus()
            page.keyboard.press("Enter")
        else:
            confirm.click()
        page.wait_for_function("v => document.body.dataset.version !== v", arg=version, timeout=30_000)
        turns += 1
        if not over.is_visible():
            # The cards put down left the hand (a bot may have moved since: never more cards).
            page.wait_for_function(
                "n => document.querySelectorAll('#hand button.card').length <= n", arg=before - len(chosen)
            )
        assert turns < 40
    expect(page.locator("#over-card")).to_contain_text(re.compile("win|tie", re.I))
    page.screenshot(path=str(ARTIFACTS / f"recycle-picks-{device}-over.png"))
    assert turns >= 2
    # The frames stayed small: the first choice alone listed 833 KiB of moves before.
    assert frames and max(frames) < 40_000, max(frames)
    state = page.evaluate("() => document.body.dataset.status")
    assert state == "finished", json.dumps(state)
    assert page.errors == []
