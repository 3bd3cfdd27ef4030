"""RECYCLE games of other decks and other choices drawn so a person can play them.

Five descriptions written here, each uploaded by staff and played to the end
against bots at 1280x800 (with motion on: a card drawn from a face must
animate like any card) and on a 390x844 phone:

- word ranks with a colour attribute (Lost Cities' deck): cards with their
  value large and their colour, corners readable in a fanned hand;
- number ranks, two decks, 25 cards a hand (No Thanks' deck), after a bid of
  1 to 5: every legal card of the hand can be tapped, a bid reads as a number;
- four places per player (Golf's): in the description's order, "Turn up One";
- teams and strings set by a bid (Euchre's): buttons that differ, the trump in
  words on the felt and the program's own markers nowhere;
- a pile per colour named in play (Lost Cities'): each card played to the pile its
  colour names, the piles named in words on the felt.

At every few moves: nothing overlaps (test_recycle_table's bounding boxes), no
two buttons read the same, no name as the program spells it on the page, and
no error in the console.
"""

from __future__ import annotations

# ruff: noqa: E501 - descriptions and page scripts read best whole
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.driver import (
    VISIBLE_SPOT_JS,
    choose_name,
    create_table,
    fill_with_bots,
    play_to_end,
    sit,
    start,
)
from tests.browser.test_recycle_page import staff_page
from tests.browser.test_recycle_table import add_game, lasting_problems

pytestmark = [pytest.mark.browser]

FRENCH = "(RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K)) (COLOR (RED (SUIT (HEARTS, DIAMONDS))) (BLACK (SUIT (CLUBS, SPADES))))"
NUMBERS = ", ".join(
    [
        "THREE",
        "FOUR",
        "FIVE",
        "SIX",
        "SEVEN",
        "EIGHT",
        "NINE",
        "TEN",
        "ELEVEN",
        "TWELVE",
        "THIRTEEN",
        "FOURTEEN",
        "FIFTEEN",
        "SIXTEEN",
        "SEVENTEEN",
        "EIGHTEEN",
        "NINETEEN",
        "TWENTY",
        "TWENTYONE",
        "TWENTYTWO",
        "TWENTYTHREE",
        "TWENTYFOUR",
        "TWENTYFIVE",
        "TWENTYSIX",
        "TWENTYSEVEN",
        "TWENTYEIGHT",
        "TWENTYNINE",
        "THIRTY",
        "THIRTYONE",
        "THIRTYTWO",
        "THIRTYTHREE",
        "THIRTYFOUR",
        "THIRTYFIVE",
    ]
)

GAMES = {
    "Expeditions": """(game
 (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, WAGER))
                                       (COLOR (RED, BLUE, GREEN, YELLOW, WHITE)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 8 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc EXPEDITION)))))))
 (scoring max (size ((current player) vloc EXPEDITION))))""",
    "Big numbers": f"""(game
 (setup (create players 2)
  (repeat 2 (create deck (game iloc STOCK) (deck (RANK ({NUMBERS}))))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 25 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (> ('P sto BID) 0)))
  (choice ((any (range 1..5) 'N (set ((current player) sto BID) 'N)))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc TAKEN)))))))
 (scoring max ((current player) sto BID)))""",
    "Four spots": f"""(game
 (declare (ONE, TWO, THREE, FOUR) 'PLOCS)
 (setup (create players 2) (create deck (game iloc STOCK) (deck {FRENCH})))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (all 'PLOCS 'L (move (top (game iloc STOCK)) (top ('P hloc 'L)))))))
 (stage player (end (all player 'P (== (size (union (all 'PLOCS 'L ('P hloc 'L)))) 0)))
  (choice ((any 'PLOCS 'L ((!= (size ((current player) hloc 'L)) 0)
                           (move (top ((current player) hloc 'L)) (top ((current player) vloc 'L)))))
           (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
 (scoring max (size ((current player) iloc HAND))))""",
    "Partners bid": f"""(game
 (setup (create players 4) (create teams (0, 2) (1, 3))
  (create deck (game iloc STOCK) (deck {FRENCH})))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 5 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (set (game str TRUMPSUIT) NONE)
      (set (game str TESTING) NOB)))
 (stage player (end (!= (game str TRUMPSUIT) NONE))
  (choice ((set ((current player) str BID) PASS)
           (do ((set ((current player) str BID) ALONE) (set (game str TRUMPSUIT) HEARTS) (set (game str TRUMPCOLOR) RED)))
           (do ((set ((current player) str BID) ALONE) (set (game str TRUMPSUIT) SPADES) (set (game str TRUMPCOLOR) BLACK)))
           (do ((set ((current player) str BID) CALL) (set (game str TRUMPSUIT) CLUBS) (set (game str TRUMPCOLOR) BLACK))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc TRICK)))))))
 (scoring max (size ((current player) vloc TRICK))))""",
    "Colour piles": """(game
 (declare (RED, BLUE, GREEN) 'COLORS)
 (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)) (COLOR (RED, BLUE, GREEN)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (== (size (game iloc STOCK)) 0))
  (choice ((any 'COLORS 'C
             (any (filter ((current player) iloc HAND) 'MC (== (cardatt COLOR 'MC) 'C)) 'AC
               (move 'AC (top (game vloc 'C)))))))
  (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
 (scoring max (size ((current player) iloc HAND))))""",
}

# The program's own spellings that must never reach the page.
INTERNAL = re.compile(
    r"\b(THIRTEEN|TWENTY\w*|WAGER|EXPEDITION|PLOCS|TRUMPSUIT|TRUMPCOLOR|Trumpcolor|TESTING|Testing|NOB|BID|TAKEN|COLORS|Colors|Option \d)\b"
)

# Everything a player reads on the table (textContent: the program's words before any CSS capitals),
# the hand's cards by their names, and the move buttons by what they say.
READ_JS = """() => {
  const text = ['#seats', '#center', '#felt-info', '#actions', '#scores', '#turn-banner', '#over-card']
    .map((s) => document.querySelector(s)).filter(Boolean).map((n) => n.textContent).join(' | ');
  const cards = [...document.querySelectorAll('#hand button.card, #felt .card')].map((b) => b.getAttribute('aria-label') || '');
  const buttons = [...document.querySelectorAll('#actions button')].map((b) => b.dataset.label || b.textContent.trim());
  return { text, cards, buttons };
}"""

# Hand cards of another deck whose corner value lies partly under another card: [] when all read.
CORNERS_JS = """() => [...document.querySelectorAll('#hand button.card')].filter((card) => {
  // The top-left corner (the one a fan leaves in view): the highest one shown.
  const shown = [...card.querySelectorAll('.word-corner')].filter((c) => getComputedStyle(c).display !== 'none');
  const corner = shown.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0];
  if (!corner) return false;
  // The value's whole width: its left and right ends are this card's, not a neighbour's.
  const r = corner.getBoundingClientRect();
  const y = r.top + r.height / 2;
  return ![r.left + 1, r.left + r.width / 2, r.right - 1].every((x) => {
    const hit = document.elementFromPoint(x, y);
    return hit && card.contains(hit);
  });
}).map((card) => card.dataset.card)"""


def check_readable(page: Page, where: str) -> dict:
    """Nothing overlaps, no two buttons alike, no internal name, every word card's value in view."""
    problems = lasting_problems(page)
    if problems:
        page.screenshot(path=str(ARTIFACTS / f"recycle-drawn-clash-{where.replace(' ', '-')}.png"))
    assert problems == [], f"{where}: {problems}"
    read = page.evaluate(READ_JS)
    assert len(read["buttons"]) == len(set(read["buttons"])), f"{where}: buttons alike {read['buttons']}"
    found = INTERNAL.findall(" ".join([read["text"], *read["cards"], *read["buttons"]]))
    assert not found, f"{where}: internal names {found} in {read}"
    hidden = page.evaluate(CORNERS_JS)
    if hidden:
        page.screenshot(path=str(ARTIFACTS / f"recycle-drawn-corners-{where.replace(' ', '-')}.png"))
    assert hidden == [], f"{where}: the values of {hidden} are covered"
    return read


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_cards_piles_and_choices_of_other_decks_read_at_the_table(own_server, new_page, device) -> None:
    staff = staff_page(own_server, new_page)
    ids = {title: add_game(staff, title, text) for title, text in GAMES.items()}
    # Motion on at 1280x800: a card of another deck flies in as any card does (animateLast). On
    # the phone motion is off, as in the suite: a tap waits for a page scrolled smoothly to rest.
    options = (
        PHONE
        if device == "phone"
        else {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "no-preference"}
    )
    page = new_page(**options)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(own_server.url + "/")
    choose_name(page, "Ann")
    size = page.viewport_size
    for title, game_id in ids.items():
        page.goto(own_server.url + "/")
        create_table(page, game_id)
        sit(page)
        fill_with_bots(page, "random")
        start(page)
        expect(page.locator(".recycle-table")).to_be_visible()
        tag = f"{game_id}-{size['width']}x{size['height']}"
        seen: dict = {"labels": set(), "tapped": False, "headline": ""}

        def on_turn(p: Page, state: dict, title=title, seen=seen, tag=tag) -> None:
            read = check_readable(p, f"{title} turn")
            seen["labels"].update(read["buttons"])
            if title == "Big numbers" and len(state["hand"]) == 25 and state["legal"]:
                # Every legal card of the 25-card hand (two decks: names repeat) has a part a finger can reach.
                legal = p.locator("#hand button.card.legal")
                assert legal.count() == 25
                for i in range(legal.count()):
                    spot = legal.nth(i).evaluate(VISIBLE_SPOT_JS)
                    assert spot is not None, f"{legal.nth(i).get_attribute('data-card')} cannot be tapped"
                seen["tapped"] = True
                p.screenshot(path=str(ARTIFACTS / f"recycle-drawn-{tag}-hand.png"))

        def on_move(p: Page, moves: int, title=title, seen=seen, tag=tag) -> None:
            if moves % 3 == 1:
                check_readable(p, f"{title} move {moves}")
            headline = p.locator("#felt-info").text_content() or ""
            seen["headline"] = headline or seen["headline"]
            if moves == 2:
                p.screenshot(path=str(ARTIFACTS / f"recycle-drawn-{tag}.png"))

        play_to_end([page], seed=5, limit=400, on_move=on_move, on_turn=on_turn, tap=device == "phone")
        expect(page.locator("#over")).to_be_visible()
        expect(page.locator("#over-card")).to_contain_text(re.compile("win|tie", re.I))
        page.locator("#over").get_by_role("button", name="See the table").click()
        check_readable(page, f"{title} over")
        page.screenshot(path=str(ARTIFACTS / f"recycle-drawn-{tag}-over.png"))
        labels = seen["labels"]
        if title == "Expeditions":
            # Values large, colours from the colour attribute, named as a person says them.
            expect(
                page.locator("#seats .word-card.colour-blue, #seats .word-card.colour-red").first
            ).to_be_attached()
            assert (
                page.locator(
                    '#seats .card[aria-label^="Blue "], #seats .card[aria-label^="Red "], #seats .card[aria-label^="Green "], #seats .card[aria-label^="Yellow "], #seats .card[aria-label^="White "]'
                ).count()
                > 0
            )
        if title == "Big numbers":
            assert seen["tapped"]
            assert {f"Bid {n}" for n in range(1, 6)} <= labels, labels
            assert (
                page.locator(
                    '#seats .card[aria-label="13"], #seats .card[aria-label="35"], #seats .card[aria-label="3"]'
                ).count()
                + page.locator("#seats .word-value").count()
                > 0
            )
        if title == "Four spots":
            assert labels & {"Turn up One", "Turn up Two", "Turn up Three", "Turn up Four"}, labels
            assert "Draw from stock" in labels or len(labels) >= 2, labels
            spots = page.locator('#seats .seat[data-seat="0"] .rpile').evaluate_all(
                "(ps) => ps.map((p) => p.dataset.location)"
            )
            order = [s for s in spots if s in ("One", "Two", "Three", "Four")]
            assert order == sorted(order, key=["One", "Two", "Three", "Four"].index), spots
        if title == "Partners bid":
            assert labels & {"Pass", "Alone · Hearts", "Alone · Spades", "Call"}, labels
            assert re.search(r"Trump suit: (Hearts|Spades|Clubs)", seen["headline"]), seen["headline"]
        if title == "Colour piles":
            # The piles take the names computed in play, said as words; a card lies on its colour's.
            piles = page.locator("#center .rpile").evaluate_all("(ps) => ps.map((p) => p.dataset.location)")
            assert piles and set(piles) <= {"Red", "Blue", "Green"}, piles
            for pile in piles:
                top = page.locator(f'#center .rpile[data-location="{pile}"] .card').last
                assert (top.get_attribute("aria-label") or "").startswith(pile), (
                    pile,
                    top.get_attribute("aria-label"),
                )
    assert page.errors == [] and console == [], (page.errors, console)
