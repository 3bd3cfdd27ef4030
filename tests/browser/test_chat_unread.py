"""Chat is in view beside the table at 1280x800, and marked unread when it is not."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.driver import choose_name, create_table

pytestmark = [pytest.mark.browser]

CHAT_IN_VIEW_JS = """() => {
  const side = document.getElementById('side').getBoundingClientRect();
  const chat = document.getElementById('chat-log').getBoundingClientRect();
  return chat.top >= side.top && chat.bottom <= side.bottom && chat.bottom <= window.innerHeight;
}"""


def say(page, text: str) -> None:
    page.get_by_placeholder("Say something…").fill(text)
    page.get_by_role("button", name="Send").click()


def test_chat_is_in_view_or_marked_unread_at_1280x800(site_server, new_page) -> None:
    ann = new_page(viewport={"width": 1280, "height": 800})
    ann.goto(site_server.url + "/")
    choose_name(ann, "Ann")
    url = create_table(ann, "hearts", 4)
    bob = new_page(viewport={"width": 1280, "height": 800})
    bob.goto(url)
    choose_name(bob, "Bob")
    # In view: a new line needs no mark.
    assert ann.evaluate(CHAT_IN_VIEW_JS)
    say(bob, "hello")
    expect(ann.locator("#chat-log")).to_contain_text("hello")
    expect(ann.locator("#chat-dot")).to_be_hidden()
    # Out of view (the column scrolled to the rules): the Chat tab is marked.
    ann.evaluate("() => { const s = document.getElementById('side'); s.scrollTop = s.scrollHeight; }")
    assert not ann.evaluate(CHAT_IN_VIEW_JS)
    say(bob, "are you there?")
    expect(ann.locator("#chat-log")).to_contain_text("are you there?")
    expect(ann.locator("#chat-dot")).to_be_visible()
    ann.screenshot(path=str(ARTIFACTS / "chat-unread-1280x800.png"))
    # The tab brings the chat into view and clears the mark.
    ann.locator("#panel-tabs").get_by_role("button", name="Chat").click()
    expect(ann.locator("#chat-dot")).to_be_hidden()
    assert ann.evaluate(CHAT_IN_VIEW_JS)
    assert ann.errors == [] and bob.errors == []
