"""A game staff add from a seed description is played through the page with bots."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, ROOT
from tests.browser.driver import choose_name, create_table, fill_with_bots, read_state, sit, start, take_turn
from tests.games.recycle.helpers import seed_post

pytestmark = [pytest.mark.browser]


def make_staff(server) -> None:
    """Create a staff superuser in the server's database."""
    env = {**server.env(), "DJANGO_SUPERUSER_USERNAME": "staff", "DJANGO_SUPERUSER_PASSWORD": "pw-staff-1"}
    env["DJANGO_SUPERUSER_EMAIL"] = "staff@example.org"
    subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )


def staff_page(server, new_page):
    """A page logged in as staff, on the RECYCLE games page."""
    make_staff(server)
    page = new_page()
    page.goto(server.url + "/admin/login/?next=/staff/games/")
    page.get_by_label("Username").fill("staff")
    page.get_by_label("Password").fill("pw-staff-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/staff/games/")
    return page


def wait_checked(page) -> None:
    """Wait until the game just added has passed its playability check (a background job)."""
    expect(page.locator("#added")).to_have_attribute("data-check-status", "done", timeout=300_000)


# Each turn the player gives the stock's top card to a seat of their choice, or passes:
# moves {"choice": [0, seat]} and {"choice": [1]}, shown as buttons.
GIFTS = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))))
 (stage player (end (== (size (game iloc STOCK)) 0))
  (choice ((any player 'P (move (top (game iloc STOCK)) (top ('P vloc GIFTS))))
           (turn pass))))
 (scoring max (size ((current player) vloc GIFTS))))"""


def test_staff_add_a_seed_game_and_a_player_plays_it_against_bots(own_server, new_page) -> None:
    page = staff_page(own_server, new_page)

    # A bad description first: the error says where.
    page.get_by_label("Title").fill("Broken")
    broken = "(game (setup (create players 2))\n (do ((shufle (game iloc STOCK)))))"
    page.get_by_label("RECYCLE program").fill(broken)
    page.get_by_role("button", name="Check and add").click()
    expect(page.locator("#add-error")).to_contain_text("line 2, column")

    page.get_by_label("Title").fill("Blog Bundles")
    page.get_by_label("RECYCLE program").fill("")
    page.get_by_label("or a file").set_input_files(str(seed_post("stealing_bundles")))
    page.get_by_role("button", name="Check and add").click()
    expect(page.locator("#added")).to_contain_text("recycle_blog_bundles")
    wait_checked(page)
    expect(page.locator("#stored-games")).to_contain_text("Blog Bundles")

    # A player (another browser) finds it in the lobby and plays it.
    page = new_page()
    page.goto(own_server.url + "/")
    choose_name(page, "Ann")
    expect(page.locator(".game-item", has_text="Blog Bundles").locator(".experimental")).to_be_visible()
    create_table(page, "recycle_blog_bundles")
    sit(page)
    fill_with_bots(page, "random")
    start(page)
    expect(page.locator(".recycle-table")).to_be_visible()
    # The pool is face up on the table; the others' hands show only how many cards they hold.
    expect(page.locator('#center .rpile[data-location="Pool"] .card').first).to_be_visible()
    assert len(read_state(page)["hand"]) == 4

    rng = random.Random(5)
    moves = 0
    for _ in range(400):
        if moves >= 4 or read_state(page)["status"] != "playing":
            break
        if take_turn(page, rng):
            moves += 1
        else:
            page.wait_for_timeout(50)
    assert moves >= 3
    page.screenshot(path=str(ARTIFACTS / "recycle_blog_bundles.png"), full_page=True)
    assert page.errors == []


def test_choice_moves_are_buttons(own_server, new_page) -> None:
    page = staff_page(own_server, new_page)
    page.get_by_label("Title").fill("Gifts")
    page.get_by_label("RECYCLE program").fill(GIFTS)
    page.get_by_role("button", name="Check and add").click()
    expect(page.locator("#added")).to_contain_text("recycle_gifts")
    wait_checked(page)

    page = new_page()
    page.goto(own_server.url + "/")
    choose_name(page, "Bea")
    create_table(page, "recycle_gifts")
    sit(page)
    fill_with_bots(page, "random")
    start(page)
    actions = page.locator("#actions")
    # Seat 1 (us) acts first: give to ourselves, to Bot 2, or pass (a branch that moves no card).
    expect(actions.get_by_role("button", name="Give to you", exact=True)).to_be_visible()
    expect(actions.get_by_role("button", name="Give to Bot 2", exact=True)).to_be_visible()
    expect(actions.get_by_role("button", name="Pass", exact=True)).to_be_visible()
    version = page.locator("body").get_attribute("data-version")
    actions.get_by_role("button", name="Give to you", exact=True).click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
    # The card we gave ourselves lies face up in front of us (the bot may have given us another).
    expect(page.locator('#seats .seat.mine .rpile[data-location="Gifts"] .card').first).to_be_visible()
    rng = random.Random(2)
    for _ in range(400):
        if read_state(page)["status"] != "playing":
            break
        if not take_turn(page, rng):
            page.wait_for_timeout(50)
    expect(page.locator("body")).to_have_attribute("data-status", "finished")
    assert page.errors == []
