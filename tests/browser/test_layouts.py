"""One layout map for the table page and the replay, held against the game registry.

``static/js/games/index.js`` maps a game id to the module that draws it. Every game
``GET /api/games/`` lists (games.GAMES, and any RECYCLE game staff stored) must have
one: its own module, or the RECYCLE layout for a game described in RECYCLE; and the
map names no game the registry does not know.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

import games
from tests.browser.conftest import ROOT

pytestmark = [pytest.mark.browser]

LAYOUTS_JS = """async () => {
  const m = await import('/static/js/games/index.js');
  const games = await (await fetch('/api/games/')).json();
  const list = Array.isArray(games) ? games : games.games;
  const ids = list.map((g) => g.id);
  return {
    ids,
    mapped: Object.keys(m.LAYOUTS),
    own: Object.fromEntries(ids.map((id) => [
      id, m.layoutName(id) === id && m.layoutFor(id) === m.LAYOUTS[id],
    ])),
    recycle: m.layoutFor('recycle_gifts') === m.RECYCLE && m.layoutName('recycle_gifts') === 'recycle',
    recycleDraws: typeof m.RECYCLE.center === 'function',
    eachDraws: Object.values(m.LAYOUTS).every((layout) => typeof layout.center === 'function'),
  };
}"""


def test_every_registered_game_has_its_layout(site_server, new_page) -> None:
    page = new_page()
    page.goto(site_server.url + "/")
    found = page.evaluate(LAYOUTS_JS)
    with urllib.request.urlopen(site_server.url + "/api/games/") as response:
        body = json.load(response)
    listed = [g["id"] for g in (body if isinstance(body, list) else body["games"])]
    assert found["ids"] == listed
    assert set(games.GAMES) <= set(listed)
    # Each built-in game is drawn by its own module, and the map knows no other game.
    builtin = [game_id for game_id in listed if not game_id.startswith("recycle_")]
    assert all(found["own"][game_id] for game_id in builtin), found["own"]
    assert sorted(found["mapped"]) == sorted(builtin)
    assert found["recycle"] and found["recycleDraws"] and found["eachDraws"]
    assert page.errors == []


def test_the_table_and_the_replay_use_the_one_map() -> None:
    for name in ("table.js", "replay.js"):
        text = (ROOT / "static" / "js" / name).read_text()
        assert 'from "./games/index.js"' in text, name
        assert "layoutFor(" in text, name
        # No second map: neither page imports a game's layout module itself.
        assert not re.search(r'from "\\./games/(?!index\\.js)', text), name
