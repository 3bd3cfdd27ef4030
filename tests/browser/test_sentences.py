"""In a real browser: lists and results read as a person writes them; no page asks for a missing icon.

The page's word helpers are ES modules; each test imports the very module the
table and the replay load and checks the sentence it makes.
"""

from __future__ import annotations

from tests.browser.conftest import LiveServer

CTX = """{ me: 0, seated: false, table: { seats: [
  { kind: "human", name: "Ann" }, { kind: "bot" }, { kind: "bot" }, { kind: "bot" } ] } }"""


def _module(page, site_server: LiveServer, path: str) -> None:
    page.goto(site_server.url + "/")
    page.wait_for_load_state("networkidle")
    page.evaluate(f"async () => {{ window.mod = await import('/static/js/{path}'); }}")


def test_names_are_listed_with_commas_and_one_and(site_server: LiveServer, new_page) -> None:
    page = new_page()
    _module(page, site_server, "layout.js")
    lists = "[[], ['Ann'], ['Ann', 'Bot 2'], ['Bot 2', 'Bot 3', 'Bot 4']]"
    said = page.evaluate(f"() => {lists}.map((n) => window.mod.listWords(n))")
    assert said == ["", "Ann", "Ann and Bot 2", "Bot 2, Bot 3 and Bot 4"]


def test_the_replay_says_whose_points_are_whose(site_server: LiveServer, new_page) -> None:
    page = new_page()
    _module(page, site_server, "replay.js")
    one = page.evaluate(f"() => window.mod.resultWords({CTX}, {{ winners: [0], scores: [1, 0, 0, 2] }})")
    assert one == "Ann won with 1 point; Bot 2 had 0 points, Bot 3 had 0 points and Bot 4 had 2 points."
    two = page.evaluate(f"() => window.mod.resultWords({CTX}, {{ winners: [1, 2], scores: [0, 5, 5, 1] }})")
    assert two == "Bot 2 and Bot 3 won with 5 points each; Ann had 0 points and Bot 4 had 1 point."


def test_no_page_asks_for_an_icon_that_is_not_there(site_server: LiveServer, new_page) -> None:
    page = new_page()
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    for path in ("/", "/accounts/login/", "/ratings/"):
        page.goto(site_server.url + path)
        page.wait_for_load_state("networkidle")
    icon = page.request.get(site_server.url + "/favicon.ico")
    assert icon.ok and "svg" in icon.headers["content-type"]
    assert missing == []
