"""``python -m games simulate`` (PROTOCOL.md, "Simulation and logs") for every game.

The logs are checked against the rules' own record: a replay that starts a game
from the log's seed and applies its moves in order must meet every chance event
the log lists, where the log lists it, and reach the log's result.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games import GAMES
from games.__main__ import main
from games.cards import sort_names
from tests.games.adapters import ADAPTERS

GAME_IDS = sorted(GAMES)
RECORD_KEYS = {"game", "players", "options", "seed", "events", "result"}
SUMMARY = re.compile(
    r"game: (?P<game>\w+)\n"
    r"games: (?P<games>\d+)\n"
    r"seconds: (?P<seconds>[\d.]+)\n"
    r"games per second: (?P<rate>[\d.]+)\n"
    r"moves per game: (?P<moves>[\d.]+)\n"
    r"wins per seat: (?P<wins>(?:\d+:\d+ ?)+)\n$"
)


def simulate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the command in this process; return its exit status, stdout and stderr."""
    try:
        status = main(["simulate", *args])
    except SystemExit as leaving:  # argparse's own errors
        status = leaving.code  # type: ignore[assignment]
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def read_log(path: Path) -> list[dict[str, Any]]:
    """Return the log's records, checking it is one JSON object per line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert all(isinstance(r, dict) for r in records)
    return records


def replay(record: dict[str, Any]) -> None:
    """Rebuild the game from the log: the same deals, the same chance events, the same result."""
    game = GAMES[record["game"]]
    adapter = ADAPTERS[record["game"]]
    state = game.new(record["players"], record["options"], record["seed"])
    assert game.to_json(state)["options"] == record["options"]
    events = record["events"]
    assert events and "deal" in events[0], "the log starts with the first deal"
    check_deal(record, events[0], whole_deck=True)
    assert events[0] == game.deal_event(state)
    pending: list[dict] = []  # chance events the last move set off, still to meet in the log
    for event in events[1:]:
        if "seat" in event:
            assert not pending, f"the log is missing {pending}"
            assert set(event) == {"seat", "move"}
            stock_before = adapter.places(game.to_json(state)).get("stock", [])
            pending = list(game.apply(state, event["seat"], event["move"]))
            check_draws(record, stock_before, adapter.places(game.to_json(state)), pending)
        else:
            assert pending, f"{event} stands where no move set it off"
            assert event == pending.pop(0)
            if "deal" in event:
                check_deal(record, event, whole_deck=adapter.redeals_whole_deck)
                assert event == game.deal_event(state)
    assert not pending, f"the log is missing {pending}"
    assert game.is_over(state)
    assert game.result(state) == record["result"]


def check_deal(record: dict[str, Any], event: dict[str, Any], whole_deck: bool) -> None:
    """A deal event: dealer, every seat's hand as dealt, stock, pool and crib; no card twice."""
    assert set(event) == {"deal"}
    deal = event["deal"]
    assert set(deal) == {"dealer", "hands", "stock", "pool", "crib"}
    assert 0 <= deal["dealer"] < record["players"]
    assert len(deal["hands"]) == record["players"]
    assert all(hand == sort_names(hand) for hand in deal["hands"])
    laid = [c for hand in deal["hands"] for c in hand] + deal["stock"] + deal["pool"] + deal["crib"]
    assert len(laid) == len(set(laid))
    deck = ADAPTERS[record["game"]].deck(record["players"])
    assert set(laid) == deck if whole_deck else set(laid) <= deck


def check_draws(
    record: dict[str, Any], before: list[str], places: dict[str, list[str]], events: list
) -> None:
    """Cards leave the stock from its top (the first card listed), as the log says it is ordered."""
    if any("deal" in e for e in events) and ADAPTERS[record["game"]].redeals_whole_deck:
        return  # the deck was gathered and shuffled anew
    after = places.get("stock", [])
    # A start card is cut from anywhere in the stock; every other card leaves from the top.
    cut = set(places.get("start", []))
    remaining = [c for c in before if c not in cut]
    assert remaining[len(remaining) - len(after) :] == after, "the stock lost cards other than its top ones"


def summary(out: str) -> dict[str, Any]:
    """Parse the summary the command prints."""
    found = SUMMARY.match(out)
    assert found, f"unexpected summary:\n{out}"
    wins = [tuple(map(int, pair.split(":"))) for pair in found["wins"].split()]
    assert [seat for seat, _ in wins] == list(range(len(wins)))
    return {
        "game": found["game"],
        "games": int(found["games"]),
        "seconds": float(found["seconds"]),
        "rate": float(found["rate"]),
        "moves": float(found["moves"]),
        "wins": [w for _, w in wins],
    }


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_simulate_prints_the_summary_and_logs_every_game(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "games.jsonl"
    status, out, err = simulate(capsys, game_id, "--games", "3", "--seed", "11", "--log", str(log))
    assert (status, err) == (0, "")
    figures = summary(out)
    records = read_log(log)
    assert figures["game"] == game_id and figures["games"] == 3 and len(records) == 3
    assert figures["seconds"] >= 0 and figures["rate"] > 0
    moves = [sum("seat" in e for e in r["events"]) for r in records]
    assert figures["moves"] == pytest.approx(sum(moves) / 3, abs=0.05)
    players = GAMES[game_id].info.default_players
    wins = [sum(seat in r["result"]["winners"] for r in records) for seat in range(players)]
    assert figures["wins"] == wins
    for i, record in enumerate(records):
        assert set(record) == RECORD_KEYS
        assert record["game"] == game_id and record["players"] == players and record["seed"] == 11 + i
        assert record["options"] == GAMES[game_id].info.resolve_options({})
        assert set(record["result"]) >= {"scores", "winners"}
        replay(record)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_same_seed_gives_the_same_log(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    for path, seed in [(first, "5"), (second, "5"), (other, "6")]:
        assert simulate(capsys, game_id, "--games", "2", "--seed", seed, "--log", str(path))[0] == 0
    assert first.read_bytes() == second.read_bytes()
    # Seed 6's first game is seed 5's second.
    assert read_log(other)[0] == read_log(first)[1]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_cardstock_preset_and_every_player_count(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    info = GAMES[game_id].info
    for players in range(info.min_players, info.max_players + 1):
        log = tmp_path / f"{players}.jsonl"
        status, out, err = simulate(
            capsys,
            game_id,
            *("--players", str(players), "--seed", "2", "--log", str(log)),
            *("--options", '{"preset": "cardstock"}'),
        )
        assert (status, err) == (0, "")
        assert len(summary(out)["wins"]) == players
        (record,) = read_log(log)
        assert record["players"] == players
        assert record["options"] == info.resolve_options({"preset": "cardstock"})
        assert record["options"]["preset"] == "cardstock"
        replay(record)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bots_by_level_for_all_seats_or_one_per_seat(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    players = GAMES[game_id].info.default_players
    per_seat = ",".join((["easy", "random"] * players)[:players])
    for bots in ["easy", per_seat]:
        log = tmp_path / "log.jsonl"
        status, out, err = simulate(
            capsys, game_id, "--games", "2", "--seed", "4", "--bots", bots, "--log", str(log)
        )
        assert (status, err) == (0, ""), bots
        assert summary(out)["games"] == 2
        for record in read_log(log):
            replay(record)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["poker"], "there is no game 'poker'"),
        (["no_such_game.rcy"], "cannot read no_such_game.rcy"),
        (["agram", "--options", "{target: 3}"], "--options is not valid JSON"),
        (["agram", "--options", "[1, 2]"], "--options must be a JSON object"),
        (["agram", "--options", '{"target": 4}'], "option 'target' cannot be 4"),
        (["agram", "--options", '{"trumps": true}'], "Agram has no option 'trumps'"),
        (["agram", "--options", '{"preset": "fast"}'], "no preset 'fast'"),
        (["agram", "--players", "6"], "Agram takes 2 to 5 players, not 6"),
        (["agram", "--players", "two"], "invalid int value: 'two'"),
        (["agram", "--bots", "genius"], "there is no bot level 'genius'"),
        (["agram", "--bots", "easy,hard"], "--bots names 2 levels for 4 seats"),
        (["agram", "--players", "3", "--bots", "easy,easy,easy,easy"], "--bots names 4 levels for 3 seats"),
        (["agram", "--games", "0"], "--games must be at least 1"),
    ],
)
def test_bad_input_exits_non_zero_with_a_clear_message_and_writes_nothing(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "kept.jsonl"
    log.write_text("earlier log\n", encoding="utf-8")
    status, out, err = simulate(capsys, *args, "--log", str(log))
    assert status not in (0, None)
    assert message in err
    assert out == ""
    assert log.read_text(encoding="utf-8") == "earlier log\n"


def test_an_unwritable_log_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = simulate(capsys, "agram", "--log", str(tmp_path / "no such dir" / "log.jsonl"))
    assert (status, out) == (2, "")
    assert err.startswith("error: cannot write the log")


def test_python_dash_m_games_runs_as_a_command(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "games",
            "simulate",
            "agram",
            "--games",
            "4",
            "--seed",
            "8",
            "--log",
            str(log),
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert summary(done.stdout)["games"] == 4
    assert len(read_log(log)) == 4
    bad = subprocess.run(
        [sys.executable, "-m", "games", "simulate", "agram", "--bots", "genius"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0
    assert bad.stdout == ""
    assert bad.stderr.strip() == "error: there is no bot level 'genius' (known: random, easy, normal, hard)"


def test_replay_catches_a_log_with_a_move_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The replay check itself can fail: drop one move from a good log and it must.
    log = tmp_path / "log.jsonl"
    assert simulate(capsys, "agram", "--seed", "1", "--log", str(log))[0] == 0
    (record,) = read_log(log)
    moves = [i for i, e in enumerate(record["events"]) if "seat" in e]
    del record["events"][moves[len(moves) // 2]]
    with pytest.raises(Exception):  # noqa: B017 - an illegal move or an unfinished game, either will do
        replay(record)
