"""Two friends in two browsers play Hearts with two bots, through the page, to the end."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.driver import choose_name, create_table, fill_with_bots, hand, play_to_end, sit, start

pytestmark = [pytest.mark.browser, pytest.mark.slow]
CARD_NAME = re.compile(r"(Ace|[2-9]|10|Jack|Queen|King) of (clubs|diamonds|hearts|spades)")


def test_two_friends_share_a_link_and_play_hearts_to_the_end(site_server, new_page):
    ann = new_page()
    ann.goto(site_server.url + "/")
    choose_name(ann, "Ann")
    url = create_table(ann, "hearts", 4, {"Play to": "50"})
    sit(ann)
    invite = ann.get_by_label("Invite link").input_value()
    assert invite == url
    ann.get_by_role("button", name="Copy invite link").click()
    expect(ann.locator("#toast")).to_contain_text("copied")

    # Ben finds the table in the lobby, then opens the link Ann sent.
    ben = new_page()
    ben.goto(site_server.url + "/")
    choose_name(ben, "Ben")
    expect(ben.locator("#table-list")).to_contain_text("Hearts")
    path = invite.removeprefix(site_server.url)
    expect(ben.locator(f'#table-list a[href="{path}"]')).to_have_text("Join")
    ben.goto(invite)
    sit(ben)
    expect(ann.locator(".seat", has_text="Ben")).to_be_visible()
    expect(ann.locator(".seat", has_text="Ben").locator(".dot.on")).to_be_visible()
    # Only the host may add bots or start.
    expect(ben.get_by_role("button", name="Fill with bots")).to_have_count(0)

    # Bots fill the empty seats in one go, and one can be taken out again before the start.
    fill_with_bots(ann, "easy")
    expect(ann.get_by_role("button", name="Remove bot")).to_have_count(2)
    ann.get_by_role("button", name="Remove bot").first.click()
    expect(ann.locator(".seat.kind-empty")).to_have_count(1)
    fill_with_bots(ann, "random")
    expect(ben.get_by_role("button", name="Start game")).to_have_count(0)
    start(ann)

    for page in (ann, ben):
        expect(page.locator("#hand button.card")).to_have_count(13)
        names = hand(page)
        assert all(CARD_NAME.fullmatch(n) for n in names)
        # Opponents are card backs with counts, never faces.
        expect(page.locator(".seat .backs")).to_have_count(3)
    assert not set(hand(ann)) & set(hand(ben))

    ann.get_by_label("Message").fill("good luck!")
    ann.get_by_role("button", name="Send").click()
    expect(ben.locator("#chat-log")).to_contain_text("good luck!")

    shot = {}

    def screenshot(page, moves):
        if moves >= 16 and "play" not in shot and page is ann and page.locator(".trick .card").count() >= 2:
            page.screenshot(path=str(ARTIFACTS / "hearts.png"), full_page=True)
            shot["play"] = True

    def between_deals(page, state):
        # The next deal's first turn: the points each seat took last deal are still
        # on the felt (they stay until the player moves or closes them).
        if "summary" not in shot and state["summary"]:
            expect(page.locator("#summary")).to_contain_text("Points taken last deal")
            page.screenshot(path=str(ARTIFACTS / "hearts-summary.png"), full_page=True)
            shot["summary"] = True

    moves = play_to_end([ann, ben], seed=7, limit=300, on_move=screenshot, on_turn=between_deals)
    assert moves > 26  # at least two deals' worth of human cards
    assert shot.get("summary"), "no summary was shown between deals"

    for page in (ann, ben):
        dialog = page.get_by_role("dialog")
        expect(dialog).to_be_visible()
        expect(dialog.locator("table.score-table tr")).to_have_count(5)  # a header and four seats
        scores = [int(t) for t in dialog.locator("table.score-table td.num").all_inner_texts()]
        assert max(scores) >= 50
        assert page.errors == []
    expect(ann.get_by_role("dialog").get_by_role("button", name="Rematch")).to_be_visible()
    expect(ben.get_by_role("dialog").get_by_role("button", name="Rematch")).to_have_count(0)
    ann.screenshot(path=str(ARTIFACTS / "hearts-result.png"))
