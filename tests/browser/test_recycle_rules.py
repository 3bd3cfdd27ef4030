"""A RECYCLE game uploaded with only its file: the lobby shows its goal, the table's "How to play"
its rules made from the program, and staff can retitle it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.recycle import library
from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.driver import choose_name, create_table
from tests.browser.test_recycle_page import staff_page, wait_checked

pytestmark = [pytest.mark.browser]


def test_an_uploaded_file_explains_itself_and_staff_retitle_it(own_server, new_page) -> None:
    staff = staff_page(own_server, new_page)
    staff.get_by_label("or a file").set_input_files(str(library()["whist"]))
    staff.get_by_role("button", name="Check and add").click()
    expect(staff.locator("#added")).to_contain_text("recycle_whist")
    wait_checked(staff)  # offered at tables once its check (a background job) passes

    page = new_page()
    page.goto(own_server.url + "/")
    choose_name(page, "Cy")
    page.get_by_label("Game", exact=True).select_option("recycle_whist")
    expect(page.locator("#game-about .game-goal")).to_have_text(
        "For 4 players in 2 teams: have your team end with the highest Score by taking tricks."
    )
    create_table(page, "recycle_whist")
    page.get_by_role("button", name="How to play").click()
    rules = page.locator("#rules")
    expect(rules.locator(".game-goal")).to_contain_text("have your team end with the highest Score")
    expect(rules.locator("ol > li").first).to_contain_text("About this game: Whist (American whist")
    expect(rules.locator("ol > li", has_text=re.compile(r"^Stage 1\.1\.1:"))).to_contain_text(
        "play a card from your Hand"
    )
    expect(rules.locator("ol > li", has_text=re.compile(r"^The moves of stage 1\.1\.1:"))).to_contain_text(
        "(1) Leading: any card."
    )
    expect(rules.locator("dl")).to_contain_text("Tricks won")
    page.screenshot(path=str(ARTIFACTS / "recycle_rules_whist.png"), full_page=True)

    row = staff.locator('tr[data-game="recycle_whist"]')
    row.get_by_text("Edit title and description").click()
    row.get_by_label("Title").fill("Partner Whist")
    row.get_by_label("Description").fill("Two against two; trumps turned up.")
    row.get_by_role("button", name="Save").click()
    expect(staff.locator('tr[data-game="recycle_whist"] th')).to_contain_text("Partner Whist (saved)")

    lobby = new_page()
    lobby.goto(own_server.url + "/")
    choose_name(lobby, "Di")
    expect(lobby.get_by_label("Game", exact=True).locator('option[value="recycle_whist"]')).to_contain_text(
        "Partner Whist"
    )
    # The lobby's list of games says each game's goal, this one's too.
    item = lobby.locator(".game-item", has_text="Partner Whist")
    expect(item.locator(".game-item-goal")).to_have_text(
        "For 4 players in 2 teams: have your team end with the highest Score by taking tricks."
    )
    lobby.screenshot(path=str(ARTIFACTS / "recycle_rules_lobby.png"), full_page=True)
    assert page.errors == [] and lobby.errors == []


def test_the_rules_read_as_words_on_a_phone(own_server, new_page) -> None:
    """Crazy Eights (a declared set of playable cards, a suit chosen) uploaded: its "How to play"
    on a 390x844 phone says the playable cards and the chosen suit in words, no letter or
    program name, no "Names used below", and fits the screen's width."""
    staff = staff_page(own_server, new_page)
    staff.get_by_label("or a file").set_input_files(str(library()["crazy_eights"]))
    staff.get_by_role("button", name="Check and add").click()
    expect(staff.locator("#added")).to_contain_text("recycle_crazy_eights")
    wait_checked(staff)  # offered at tables once its check (a background job) passes

    page = new_page(**PHONE)
    page.goto(own_server.url + "/")
    choose_name(page, "Ed")
    create_table(page, "recycle_crazy_eights")
    page.get_by_role("button", name="How to play").click()
    rules = page.locator("#rules")
    expect(rules.locator(".game-goal")).to_have_text(
        "For 4 players: end with the lowest score (the total Penalty value of the cards in your Hand)."
    )
    moves = rules.locator("ol > li", has_text=re.compile(r"^The moves of stage 1:"))
    expect(moves).to_contain_text(
        "(2) An eight, naming the suit to follow. Choose a card of your Hand whose rank is 8, then choose "
        "a suit (clubs, diamonds, hearts or spades)"
    )
    text = rules.inner_text()
    assert "Names used below" not in text and "Playable" not in text
    made = "\n".join(line for line in text.splitlines() if not line.startswith("About this game"))
    assert not re.findall(r"\b[B-Z]\b|\b[A-Z]{3,}\b", made)
    assert "trick" not in made.lower()
    # Nothing runs off the phone's width: every paragraph wraps inside the panel.
    overflow = rules.evaluate(
        "el => [...el.querySelectorAll('li, dd, dt, p')]"
        ".filter(n => n.scrollWidth > n.clientWidth + 1).length"
    )
    assert overflow == 0
    box = rules.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1
    moves.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "recycle_rules_phone.png"))
    assert page.errors == []
