"""An evening at the table in the browser: the turn clock's countdown and warning, leaving with a
confirm step, taking over a left seat, the grace countdown and the returning player's summary."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LiveServer, _new_server
from tests.browser.driver import choose_name, create_table, fill_with_bots, sit, start

pytestmark = pytest.mark.browser


@pytest.fixture
def slow_server() -> Iterator[LiveServer]:
    """A server whose bots pause half a second and whose grace is 3 s: a person can watch and act."""
    yield from _new_server({"BOT_PAUSE": "0.5", "DISCONNECT_GRACE": "3"})


def hearts_with_bots(page, url: str, name: str, clock: str | None = None) -> str:
    """From the lobby: a Hearts table with three random bots, started; return its URL."""
    page.goto(url + "/")
    choose_name(page, name)
    if clock:
        page.get_by_label("Turn clock").select_option(label=clock)
    table = create_table(page, "hearts", 4)
    sit(page)
    fill_with_bots(page, "random")
    start(page)
    return table


def test_the_turn_clock_counts_down_warns_and_moves_for_a_late_player(site_server, new_page):
    page = new_page()
    hearts_with_bots(page, site_server.url, "Ann", clock="15 seconds a turn")
    expect(page.get_by_role("button", name="Pass cards")).to_be_visible()
    mine = page.locator("#my-clock")
    expect(mine).to_have_text(re.compile(r"^0:(1[0-5]|0\d)$"))
    expect(page.locator(".seat.mine .evening-clock")).to_be_visible()
    first = mine.text_content()
    page.wait_for_timeout(1500)
    assert mine.text_content() != first  # it counts down
    expect(mine).not_to_have_class(re.compile("warn"))
    # In the last five seconds the countdown warns, and a screen reader hears it.
    expect(mine).to_have_class(re.compile("warn"), timeout=15_000)
    expect(page.locator("#evening-warning")).to_contain_text("seconds left to move")
    # Ann never passes: the server passes for her, and says which cards.
    passed = re.compile(r"Time ran out: the clock passed .+ for you")
    expect(page.locator("#toast")).to_have_text(passed, timeout=15_000)
    expect(page.get_by_role("button", name="Pass cards")).to_have_count(0)
    assert page.errors == []


def test_leaving_asks_first_and_another_player_takes_the_seat_over(slow_server, new_page):
    ann = new_page()
    url = hearts_with_bots(ann, slow_server.url, "Ann")
    bob = new_page()
    bob.goto(url)
    choose_name(bob, "Bob")
    expect(bob.locator("body")).to_have_attribute("data-status", "playing")
    expect(bob.get_by_role("button", name="Take over")).to_have_count(0)  # nobody left a seat

    # Ann presses Leave game, thinks again, then leaves.
    ann.get_by_role("button", name="Leave game").click()
    expect(ann.get_by_role("alertdialog")).to_contain_text("A bot plays your seat to the end")
    ann.get_by_role("button", name="Stay").click()
    expect(ann.get_by_role("alertdialog")).to_have_count(0)
    expect(ann.locator(".seat.mine")).to_contain_text("Ann")
    ann.get_by_role("button", name="Leave game").click()
    ann.get_by_role("button", name="Leave", exact=True).click()
    expect(ann.locator(".seat.mine")).to_have_count(0)
    expect(ann.locator("#hand button.card")).to_have_count(0)
    expect(ann.locator(".evening-left")).to_have_text("Ann left")

    # Bob takes the seat over from the bot and holds a hand.
    expect(bob.locator(".evening-left")).to_have_text("Ann left")
    bob.get_by_role("button", name="Take over").click()
    expect(bob.locator(".seat.mine")).to_contain_text("Bob")
    expect(bob.locator("#hand button.card")).not_to_have_count(0)
    expect(bob.locator(".evening-left")).to_have_count(0)
    expect(ann.get_by_role("button", name="Take over")).to_have_count(0)  # the seat is Bob's now
    assert ann.errors == [] and bob.errors == []


def test_a_dropped_player_sees_the_grace_and_on_return_what_the_stand_in_played(slow_server, new_page):
    ann = new_page()
    url = hearts_with_bots(ann, slow_server.url, "Ann")
    expect(ann.get_by_role("button", name="Pass cards")).to_be_visible()
    bob = new_page()
    bob.goto(url)
    choose_name(bob, "Bob")
    context = ann.context
    ann.close()  # Ann's tab goes: the grace starts
    grace = bob.locator(".seat .evening-grace")
    expect(grace).to_contain_text(re.compile(r"back in 0:0[0-3] or a bot plays"))
    expect(grace).to_have_count(0, timeout=10_000)  # the stand-in took the seat
    bob.wait_for_timeout(1500)  # and plays for Ann: at least her pass

    back = context.new_page()
    back.goto(url)
    summary = back.get_by_role("dialog", name="While you were away")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("The stand-in passed")
    back.get_by_role("button", name="Got it").click()
    expect(summary).to_be_hidden()
    expect(back.locator(".seat.mine")).to_contain_text("Ann")
