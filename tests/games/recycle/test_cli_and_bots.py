"""RECYCLE games from the command line (``simulate PATH.rcy``) and with bots of every level."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.bots import levels, make_bot
from games.recycle import library, load
from tests.games.recycle.helpers import seed_post
from tests.games.test_cli import SUMMARY, read_log, simulate


def test_simulate_a_description_file_writes_the_usual_summary_and_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(library()["agram"])
    log = tmp_path / "log.jsonl"
    status, out, err = simulate(capsys, path, "--games", "5", "--seed", "3", "--log", str(log))
    assert (status, err) == (0, "")
    summary = SUMMARY.match(out)
    assert summary and summary["game"] == "recycle_agram" and summary["moves"] == "24.0"
    records = read_log(log)
    assert [r["seed"] for r in records] == [3, 4, 5, 6, 7]
    game = load(path)
    for record in records:
        assert set(record) == {"game", "players", "options", "seed", "events", "result"}
        deal, *moves = record["events"]
        assert sorted(deal["deal"]) == ["crib", "dealer", "hands", "pool", "stock"]
        # The log replays: the same seed and moves reach the same result.
        state = game.new(None, None, record["seed"])
        assert game.deal_event(state) == deal
        for event in moves:
            game.apply(state, event["seat"], event["move"])
        assert game.result(state) == record["result"]
    again = tmp_path / "again.jsonl"
    simulate(capsys, path, "--games", "5", "--seed", "3", "--log", str(again))
    assert again.read_text() == log.read_text()


def test_a_bad_description_is_a_clear_error_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.rcy"
    bad.write_text(
        "(game\n (setup (create players 2))\n (do ((flip)))\n (scoring max 0))\n", encoding="utf-8"
    )
    log = tmp_path / "log.jsonl"
    status, out, err = simulate(capsys, str(bad), "--log", str(log))
    assert (status, out) == (2, "")
    assert err.startswith("error: line 3, column 8: unknown word 'flip'")
    assert not log.exists()


@pytest.mark.parametrize("post", ["agram", "hearts"])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_bot_level_plays_a_recycle_game(post: str, level: str) -> None:
    game = load(seed_post(post))
    bot = levels.make(level, game, seed=1, playouts=24) if level != "easy" else make_bot(level, game, 1)
    state = game.new(None, None, 2)
    rng = random.Random(0)
    while not game.is_over(state):
        (seat,) = game.to_act(state)
        move = bot.choose(state, seat) if seat == 0 else game.random_move(state, seat, rng)
        assert move in game.legal_moves(state, seat)
        game.apply(state, seat, move)
    assert json.dumps(game.result(state))


def test_search_scores_by_the_description_direction() -> None:
    hearts, agram = load(seed_post("hearts")), load(seed_post("agram"))
    assert hearts.info.low_score_wins and not agram.info.low_score_wins
    low = levels.settings_for(hearts).reward([0, 0, 0], [3, 10, 3])
    assert low[0] == low[2] > low[1]
    high = levels.settings_for(agram).reward([0, 0, 0], [3, 10, 3])
    assert high[1] > high[0] == high[2]
