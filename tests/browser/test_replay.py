"""The replay page in Chromium: step forward and back, jump to a deal, keys; all hands shown."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator

import pytest

from tests.browser.conftest import ROOT, LiveServer, _new_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """A server of this module's own, with bot-only Cribbage games played into its database."""
    yield from _new_server()


def played_table(server: LiveServer, game: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", "playbots", game, "--games", "1"],
        cwd=ROOT,
        env=server.env(),
        check=True,
        capture_output=True,
        text=True,
        timeout=240,
    ).stdout
    return out.split("table: ")[1].split()[0]


def test_step_through_a_finished_game(server: LiveServer, new_page) -> None:
    table_id = played_table(server, "cribbage")
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}/games/1/replay/") as response:
        data = json.load(response)
    last = len(data["frames"]) - 1
    page = new_page()
    page.goto(f"{server.url}/replay/{table_id}/1/")
    label = page.locator("#step-label")
    label.wait_for()
    page.wait_for_function("document.getElementById('step-label').textContent.startsWith('move 0 of')")
    assert label.text_content() == f"move 0 of {last}, deal 1 of {len(data['deals'])}"
    # All hands face up: every card of every seat's hand as dealt is on the page.
    for seat, hand in enumerate(data["frames"][0]["hands"]):
        shown = page.locator(".rp-seat").nth(seat).locator(".rp-card")
        assert shown.count() == len(hand) == 6
    page.get_by_role("button", name="Forward one move").click()
    assert label.text_content().startswith(f"move 1 of {last}")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert label.text_content().startswith(f"move 3 of {last}")
    page.get_by_role("button", name="Back one move").click()
    assert label.text_content().startswith(f"move 2 of {last}")
    page.select_option("#deal-select", "2")
    step = data["deals"][1]["step"]
    assert label.text_content() == f"move {step} of {last}, deal 2 of {len(data['deals'])}"
    assert page.locator(".rp-card").first.is_visible()
    page.get_by_role("button", name="Last state").click()
    assert label.text_content().startswith(f"move {last} of {last}")
    assert page.url.endswith(f"#step={last}")
    assert page.errors == []
