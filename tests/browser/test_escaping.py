"""In a real browser, a name and a chat line written as HTML are shown as text and never run.

A guest whose name is an `<svg onload>` tag creates a table and sends a chat line
holding a `<script>` and another `<img onerror>`. The page must show both
strings literally, create no element from them, and run none of their code.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import LiveServer
from tests.browser.driver import choose_name, create_table

NAME = "<svg onload=alert(1)>"  # fits the 24-character limit on names
CHAT = '<script>window.pwned=2</script><img src=y onerror="window.pwned=3">'


def test_html_in_a_name_and_a_chat_line_is_shown_as_text(site_server: LiveServer, new_page) -> None:
    page = new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(site_server.url + "/")
    choose_name(page, NAME)  # the top bar shows the name as text (the helper checks it)
    create_table(page, "hearts", 4)
    page.locator("#chat-input").fill(CHAT)
    page.locator("#chat-input").press("Enter")
    line = page.locator("#chat-log .chat-text").last
    expect(line).to_have_text(CHAT)
    # Nothing was turned into elements, and nothing ran.
    assert page.locator("#chat-log img, #chat-log script").count() == 0
    assert page.locator("img[src='y'], svg[onload]").count() == 0
    page.wait_for_timeout(300)
    assert page.evaluate("window.pwned") is None
    assert dialogs == []
    assert page.errors == []
    assert NAME in page.locator("body").inner_text()
