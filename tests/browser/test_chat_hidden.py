"""Staff hide a chat line: the open page replaces that line's text in place, as text.

The server uses the Redis channel layer (a prefix of its own), so ``hide_chat``,
called in a separate process through the staff service, reaches the server's
connections as it does when the admin's action calls it.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT, LiveServer, _new_server
from tests.browser.driver import choose_name, create_table
from tests.conftest import REDIS_URL

pytestmark = [pytest.mark.browser, pytest.mark.redis]

HIDDEN = "(message hidden by staff)"
HIDE = """
from cardtable.tables.models import ChatMessage
from cardtable.tables.authority.staff import hide_chat
hide_chat(ChatMessage.objects.get(text={text!r}).pk)
"""


@pytest.fixture(scope="module")
def redis_server() -> Iterator[LiveServer]:
    """A server of this module's own on the Redis channel layer."""
    prefix = f"cardtable-chat-{uuid.uuid4().hex[:8]}"
    yield from _new_server({"REDIS_URL": REDIS_URL, "CHANNEL_PREFIX": prefix})


def hide(server: LiveServer, text: str) -> None:
    """Hide the chat line saying ``text`` through ``staff.hide_chat``, in another process."""
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", HIDE.format(text=text)],
        cwd=ROOT,
        env=server.env(),
        check=True,
        capture_output=True,
        timeout=120,
    )


def say(page, text: str) -> None:
    """Send a chat line from the page's chat form."""
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")
    expect(page.locator("#chat-log .chat-text").last).to_have_text(text)


def test_a_hidden_chat_line_is_replaced_in_place(redis_server, new_page):
    ann = new_page()
    ann.goto(redis_server.url + "/")
    choose_name(ann, "Ann")
    url = create_table(ann, "hearts", 4)
    ben = new_page()
    ben.goto(url)
    choose_name(ben, "Ben")
    say(ann, "hello all")
    say(ann, "something rude")
    say(ben, "hi Ann")
    for page in (ann, ben):
        expect(page.locator("#chat-log .chat-text")).to_have_text(["hello all", "something rude", "hi Ann"])

    hide(redis_server, "something rude")
    for page in (ann, ben):
        # The same line, in the same place, now says the placeholder; the others are untouched.
        expect(page.locator("#chat-log .chat-text")).to_have_text(["hello all", HIDDEN, "hi Ann"])
        expect(page.locator("#chat-log .chat-name")).to_have_text(["Ann", "Ann", "Ben"])

    # A reconnect replays the recent chat, hidden text included: still one line each.
    # The server sends the replay before it handles anything the new socket says,
    # so once a line sent after the reconnect shows, the replay has been drawn.
    ann.evaluate("window.cardtable.client.reconnect()")
    ann.wait_for_function("window.cardtable.client.ws?.readyState === WebSocket.OPEN")
    say(ann, "back again")
    expect(ann.locator("#chat-log .chat-text")).to_have_text(["hello all", HIDDEN, "hi Ann", "back again"])
    # A page opened after the hide gets the placeholder from the start.
    carl = new_page()
    carl.goto(url)
    expect(carl.locator("#chat-log .chat-text")).to_have_text(["hello all", HIDDEN, "hi Ann", "back again"])

    # The replacement is put in as text: markup in a chat_hidden message is shown, not built.
    markup = '<img src=x onerror="window.pwned=1">'
    ann.evaluate(
        """(markup) => {
            const keys = [...window.cardtable.page.chatLines.keys()].map((k) => JSON.parse(k));
            const line = keys.find((k) => k[1] === "Ben");
            window.cardtable.client.receive(JSON.stringify(
                {type: "chat_hidden", seat: line[0], name: line[1], text: markup, at: line[2]}));
        }""",
        markup,
    )
    expect(ann.locator("#chat-log .chat-text")).to_have_text(["hello all", HIDDEN, markup, "back again"])
    assert ann.locator("#chat-log img").count() == 0
    assert ann.evaluate("window.pwned") is None
    assert ann.errors == [] and ben.errors == [] and carl.errors == []
