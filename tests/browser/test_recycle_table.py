"""RECYCLE games of three families at the table, uploaded by staff and played to the end.

A staff member uploads the library's Whist (a team trick-taker with trumps), Crazy
Eights (shedding) and Go Fish (fishing) through the dashboard's form, a file
alone; a player opens a table, fills it with bots and plays to the end. Along the
way the page is checked by bounding boxes at the six window sizes: no name plate,
pile, label, card or banner lies over another, and the hand and the turn banner
are in view. The finished game's replay draws the same table.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.recycle import library
from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.driver import (
    choose_name,
    create_table,
    fill_with_bots,
    play_against_bots,
    play_to_end,
    read_state,
    sit,
    start,
    take_turn,
)
from tests.browser.test_recycle_page import staff_page, wait_checked

pytestmark = [pytest.mark.browser]

SIZES = [(1280, 800), (1366, 768), (1440, 900), (1920, 1080), (375, 667), (390, 844)]
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

# Finite animations only: a glowing turn marker runs forever.
FLYING_DONE_JS = """() => document.getAnimations().every(
  (a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)"""

# Pairs of the table's parts that meet, and parts out of the window; [] when all is clear,
# null when cards began to fly while it waited.
CLEAR_JS = """async () => {
  // The page places the middle's piles once the felt has its new size: let it.
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  // A bot's move may have come in those frames and set cards flying: not at rest, measure again.
  if (!(FLYING_DONE)()) return null;
  const vw = window.innerWidth, vh = window.innerHeight;
  const strip = document.getElementById('actions').getBoundingClientRect();
  const clip = (r, box) => ({ left: r.left, right: r.right,
    top: Math.max(r.top, box.top), bottom: Math.min(r.bottom, box.bottom) });
  const all = (sel, name) => [...document.querySelectorAll(sel)].map((n) => [name(n), n]);
  const parts = [
    ...all('#seats .plate', () => 'plate'),
    ...all('#seats .rpile, #center .rpile', (n) => 'pile ' + n.dataset.location),
    ...all('#turn-banner, #felt-info .felt-info', () => 'banner'),
    ...all('#hand button.card', (n) => 'hand ' + n.dataset.card),
    ...all('#actions button', () => 'button'),
  ].map(([name, node]) => [name, node, node.getBoundingClientRect()]).filter(([, , r]) => r.width)
    // The actions' strip scrolls: a button is drawn only where the strip shows it.
    .map(([name, node, r]) => [name, node, name.startsWith('button') ? clip(r, strip) : r])
    .filter(([, , r]) => r.bottom - r.top > 1);
  const problems = [];
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const out = (r) => r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1;
  for (let i = 0; i < parts.length; i++) {
    const [name, node, r] = parts[i];
    if (out(r)) problems.push(`${name} out of the window`);
    for (let j = i + 1; j < parts.length; j++) {
      const [other, node2, r2] = parts[j];
      if (node.contains(node2) || node2.contains(node)) continue;
      if (name.startsWith('hand') && other.startsWith('hand')) continue; // the hand is fanned
      if (name.startsWith('button') && other.startsWith('button')) continue;
      if (meet(r, r2)) problems.push(`${name} / ${other}`);
    }
  }
  return problems;
}""".replace("FLYING_DONE", FLYING_DONE_JS)


def upload(page: Page, path: Path) -> str:
    """Add the file alone (no title, no description) on the staff RECYCLE games page; return its id."""
    page.get_by_label("or a file").set_input_files(str(path))
    page.get_by_role("button", name="Check and add").click()
    expect(page.locator("#added")).to_be_visible(timeout=60_000)
    wait_checked(page)
    return page.locator("#added code").first.text_content().strip()


def add_game(staff: Page, title: str, text: str) -> str:
    """Add a description on the staff RECYCLE games page; return the game's id once its check passed."""
    staff.locator("#game-name").fill(title)
    staff.locator("#game-text").fill(text)
    staff.get_by_role("button", name="Check and add").click()
    expect(staff.locator("#added")).to_be_visible(timeout=60_000)
    wait_checked(staff)  # the lobby offers it once its check (a background job) has passed
    return staff.locator("#added code").first.text_content().strip()


def problems_at_rest(page: Page) -> list[str]:
    """What overlaps or leaves the window, measured with no card flying (animate.js), before or during."""
    for _ in range(100):
        page.wait_for_function(FLYING_DONE_JS)
        problems = page.evaluate(CLEAR_JS)
        if problems is not None:
            return problems
    raise AssertionError("the table never came to rest: cards were flying at every look")


def lasting_problems(page: Page) -> list[str]:
    """``problems_at_rest``, looked at again a moment later when there are any: a bot's move drawn
    between two looks is a frame of a new layout, a clash where things rest stays."""
    problems = problems_at_rest(page)
    if problems:
        page.wait_for_timeout(300)
        problems = problems_at_rest(page)
    return problems


def check_clear(page: Page, where: str, sizes: list[tuple[int, int]]) -> None:
    """At each window size, nothing on the table overlaps and the hand and banner are in view."""
    size = page.viewport_size
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(60)
        problems = lasting_problems(page)
        if problems:
            page.screenshot(path=str(ARTIFACTS / f"recycle-clash-{where}-{width}x{height}.png"))
        assert problems == [], f"{where} at {width}x{height}: {problems}"
    page.set_viewport_size(size)


@pytest.mark.parametrize(
    ("stem", "device"),
    [(stem, device) for stem in ("whist", "crazy_eights", "go_fish") for device in ("desktop", "phone")],
)
def test_a_recycle_game_plays_to_the_end_with_nothing_overlapping(own_server, new_page, stem, device) -> None:
    staff = staff_page(own_server, new_page)
    game_id = upload(staff, library()[stem])

    page = new_page(**(PHONE if device == "phone" else DESKTOP))
    page.goto(own_server.url + "/")
    choose_name(page, "Ann")
    create_table(page, game_id)
    sit(page)
    fill_with_bots(page, "random")
    start(page)
    expect(page.locator(".recycle-table")).to_be_visible()
    size = page.viewport_size
    tag = f"{stem}-{size['width']}x{size['height']}"
    check_clear(page, f"{stem}-start", SIZES)
    page.screenshot(path=str(ARTIFACTS / f"recycle-{tag}-start.png"))
    seen = {"checks": 0, "hint": False, "trick": False}
    if stem == "whist":
        # A spectator sees the table: every hand a face-down pile with its count, no hand of their own.
        watcher = new_page(**DESKTOP)
        watcher.goto(page.url)
        choose_name(watcher, "Bea")
        expect(watcher.locator(".recycle-table")).to_be_visible()
        expect(watcher.locator('#seats .rpile[data-location="Hand"][data-show="hidden"]')).to_have_count(4)
        expect(watcher.locator("#hand button.card")).to_have_count(0)
        watcher.close()

    def on_turn(p: Page, state: dict) -> None:
        # A hint once (the normal bot's move, a search in the pool's workers), the last trick once.
        if not seen["hint"]:
            p.locator("#table-tools").get_by_role("button", name="Hint").click()
            expect(p.locator("#toast")).to_contain_text("Hint")
            expect(p.locator("#toast")).not_to_contain_text("undefined")  # a choice's items are no cards
            seen["hint"] = True
        if not seen["trick"] and p.locator("#last-trick-button").count():
            p.locator("#last-trick-button").click()
            expect(p.locator("#review .review-trick .card")).to_have_count(4)
            p.locator("#review").get_by_role("button", name="Close").click()
            seen["trick"] = True

    def on_move(p: Page, moves: int) -> None:
        # Every few moves, at this size; a few times, at every size.
        if moves % 4 == 0:
            check_clear(p, f"{stem}-move{moves}", [(size["width"], size["height"])])
        if moves in (6, 20):
            p.screenshot(path=str(ARTIFACTS / f"recycle-{tag}-move{moves}.png"))
            check_clear(p, f"{stem}-move{moves}", SIZES)
        seen["checks"] += 1

    moves = play_to_end([page], seed=3, limit=420, on_move=on_move, on_turn=on_turn, tap=device == "phone")
    assert moves >= 5 and seen["checks"] == moves and seen["hint"]
    assert seen["trick"] == (stem == "whist")  # the trick-taker's last trick, and only there
    expect(page.locator("#over"), f"no result shown; page errors: {page.errors}").to_be_visible()
    page.screenshot(path=str(ARTIFACTS / f"recycle-{tag}-over.png"))
    expect(page.locator("#over-card")).to_contain_text(re.compile("win|tie", re.I))
    expect(page.locator("#over-card")).not_to_contain_text("null")
    # The score history, then a rematch; the first game's replay is drawn by the table's own layout.
    page.locator("#over").get_by_role("button", name="See the table").click()
    check_clear(page, f"{stem}-over", SIZES)
    expect(page.locator("#history-table")).to_have_count(1)
    replay = page.get_by_role("link", name="Watch the replay").first.get_attribute("href")
    assert replay.endswith("/1/")
    page.reload()  # the result shows again, with "Rematch" for the host
    page.locator("#over").get_by_role("button", name="Rematch").click()
    expect(page.locator("body")).to_have_attribute("data-status", "playing")
    expect(page.locator(".recycle-table")).to_be_visible()
    page.goto(own_server.url + replay)
    assert page.locator("#step-label").count() == 1, page.locator("main").inner_text()[:600]
    page.wait_for_function("document.getElementById('step-label').textContent.startsWith('move 0 of')")
    expect(page.locator("body")).to_have_attribute("data-layout", "recycle")
    expect(page.locator(".rp-seat .rp-card").first).to_be_visible()
    # Every hand is face up in a replay: so is every score, even one counted from cards in hand.
    expect(page.locator("#scores td.num").first).to_have_text(re.compile(r"^-?\d+$"))
    page.keyboard.press("End")  # the "Last state" button is hidden on a phone
    expect(page.locator("#seats .rpile, #center .rpile").first).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / f"recycle-{tag}-replay.png"))
    assert page.errors == []


def many_places(players: int) -> str:
    """A description for ``players`` seats, each with a hand, a face-down and a face-up place;
    a shared stock, discard and remembered card."""
    return f"""(game
 (setup (create players {players})
        (create deck (game iloc STOCK)
                     (deck (RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K))
                                             (SUIT (CLUBS, DIAMONDS, HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 4 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P hloc SECRET)))))
      (move (top (game iloc STOCK)) (top (game vloc DISCARD)))
      (remember (top (game vloc DISCARD)) (top (game mem LASTDISCARD)))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc PLAYED))))
           (any ((current player) iloc HAND) 'C
                (do ((move 'C (top (game vloc DISCARD)))
                     (remember (top (game vloc DISCARD)) (top (game mem LASTDISCARD)))))))))
 (scoring max (size ((current player) vloc PLAYED))))"""


def test_two_to_six_players_with_many_places_leave_nothing_overlapping(own_server, new_page) -> None:
    staff = staff_page(own_server, new_page)
    page = new_page(**DESKTOP)
    page.goto(own_server.url + "/")
    choose_name(page, "Ann")
    for players in (2, 3, 5, 6):
        game_id = add_game(staff, f"Places {players}", many_places(players))
        page.goto(own_server.url + "/")
        create_table(page, game_id)
        sit(page)
        fill_with_bots(page, "random")
        start(page)
        expect(page.locator('#center .rpile[data-location="Discard"]')).to_be_visible()
        check_clear(page, f"places{players}-start", SIZES)
        # A few moves in: a face-up place in front of a seat, a remembered card in the middle.
        play_to_end([page], seed=players, limit=120, on_move=lambda p, moves: None)
        page.locator("#over").get_by_role("button", name="See the table").click()
        expect(page.locator('#seats .rpile[data-location="Played"]').first).to_be_visible()
        expect(page.locator('#center .rpile[data-show="memory"]')).to_contain_text("(remembered)")
        check_clear(page, f"places{players}-over", SIZES)
        page.screenshot(path=str(ARTIFACTS / f"recycle-places{players}-over.png"))
    assert page.errors == []


def six_places_each() -> str:
    """Four seats of six one-card places each, named in words; a stock and a discard between them."""
    deal = "\n".join(
        f"      (all player 'P (move (top (game iloc STOCK)) (top ('P vloc {place}))))"
        for place in ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX")
    )
    return f"""(game
 (setup (create players 4)
        (create deck (game iloc STOCK)
                     (deck (RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K))
                           (SUIT (CLUBS, DIAMONDS, HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
{deal}
      (move (top (game iloc STOCK)) (top (game vloc DISCARD)))))
 (stage player (end (< (size (game iloc STOCK)) 8))
  (choice ((move (top (game iloc STOCK)) (top (game vloc DISCARD)))
           (move (top (game vloc DISCARD)) (top ((current player) vloc ONE))))))
 (scoring max (size ((current player) vloc ONE))))"""


def test_a_row_of_six_places_at_each_of_four_seats_leaves_the_middle_clear(own_server, new_page) -> None:
    # On a phone the top seat's row of six places reaches down past every fixed spot of the
    # middle's piles: they go where no seat's part crosses the felt.
    game_id = add_game(staff_page(own_server, new_page), "Six places", six_places_each())
    page = new_page(**PHONE)
    play_against_bots(page, own_server.url, "Ann", game_id)
    expect(page.locator('#center .rpile[data-location="Discard"]')).to_be_visible()
    expect(page.locator('#seats .rpile[data-location="Six"]')).to_have_count(4)
    check_clear(page, "six-places", [(390, 844), (375, 667), (1280, 800)])
    page.screenshot(path=str(ARTIFACTS / "recycle-six-places.png"))
    assert page.errors == []


MANY_BIDS = """(game
 (setup (create players 3)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (CLUBS, HEARTS)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (> ('P sto BID) 0)))
  (choice ((any (range 1..120) 'N (set ((current player) sto BID) 'N)))))
 (scoring max ((current player) sto BID)))"""


def test_a_choice_of_120_moves_scrolls_on_a_phone_and_leaves_the_felt_its_room(own_server, new_page) -> None:
    game_id = add_game(staff_page(own_server, new_page), "Many bids", MANY_BIDS)
    page = new_page(**PHONE)
    play_against_bots(page, own_server.url, "Ann", game_id)
    bids = page.locator("#actions button")
    expect(bids).to_have_count(120)
    felt = page.locator("#felt").bounding_box()
    assert felt is not None and felt["height"] >= 0.3 * 844, felt  # not squeezed under the buttons
    check_clear(page, "many-bids", [(390, 844), (375, 667)])
    page.screenshot(path=str(ARTIFACTS / "recycle-many-bids.png"))
    # The last bid, scrolled into view in its strip, is a move like any.
    version = page.locator("body").get_attribute("data-version")
    page.locator("#actions").get_by_role("button", name="Bid 120", exact=True).tap()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
    assert page.errors == []


def test_the_hearts_coding_shows_its_remembered_lead_clear_of_the_seats(own_server, new_page) -> None:
    staff = staff_page(own_server, new_page)
    game_id = upload(staff, library()["hearts"])
    page = new_page(**PHONE)
    page.goto(own_server.url + "/")
    choose_name(page, "Ann")
    create_table(page, game_id)
    sit(page)
    fill_with_bots(page, "random")
    start(page)
    rng = random.Random(4)
    moves = 0
    while moves < 6 or not page.locator('#center .rpile[data-show="memory"]').count():
        assert moves < 40, read_state(page)
        if take_turn(page, rng, tap=True):
            moves += 1
        else:
            page.wait_for_timeout(30)
    # The remembered lead card in the middle, in words; each seat's trick card beside it.
    expect(page.locator('#center .rpile[data-show="memory"]')).to_contain_text("Lead (remembered)")
    check_clear(page, "hearts", SIZES)
    page.screenshot(path=str(ARTIFACTS / "recycle-hearts-390x844.png"))
    assert page.errors == []
