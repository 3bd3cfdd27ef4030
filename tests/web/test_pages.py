"""The lobby and table pages render server-side: the forms, the games, the scripts."""

from __future__ import annotations

import re

from cardtable.web.views import in_words, option_chips
from games import GAMES


def test_the_lobby_lists_every_game_with_its_players_and_options(client, db):
    # db: the lobby also lists the RECYCLE games staff stored (none here).
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="name-input"' in html and ">Your name<" in html and ">Play<" in html
    assert ">Create table<" in html and 'for="game-select">Game<' in html
    for game in GAMES.values():
        selected = " selected" if game.info.id == "hearts" else ""  # the form offers Hearts first
        assert f'<option value="{game.info.id}"{selected}>{game.info.name}</option>' in html
        assert f"{game.info.min_players}\u2013{game.info.max_players} players" in html
    assert "csrftoken" in response.cookies
    assert "/static/js/lobby.js" in html


def test_a_table_page_knows_its_websocket(client, db):
    response = client.get("/t/abc123/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-ws="/ws/tables/abc123/"' in html
    assert ">Copy invite link<" in html and 'role="log"' in html
    assert 'aria-live="polite"' in html
    assert "/static/js/table.js" in html


def test_option_chips_read_as_words():
    hearts = GAMES["hearts"].info.to_json()
    chips = option_chips(hearts)
    assert "Points on first trick: No" in chips
    assert "First lead: Lowest club leads" in chips
    assert not any("_" in chip for chip in chips)
    assert not any(chip.startswith("preset") for chip in chips)


def test_the_lobby_welcome_names_the_games_of_the_registry(client, db):
    html = client.get("/").content.decode()
    welcome = re.search(r'<section class="hero">.*?<p>(.*?)</p>', html, re.S).group(1)
    names = [game.info.name for game in GAMES.values()]
    assert f"bots. {', '.join(names[:-1])} and {names[-1]}. Each table" in welcome


def test_names_in_words():
    assert in_words(["Agram", "Cribbage", "Hearts"]) == "Agram, Cribbage and Hearts"
    assert in_words(["Agram", "Hearts"]) == "Agram and Hearts"
    assert in_words(["Hearts"]) == "Hearts"
    assert in_words([]) == ""
