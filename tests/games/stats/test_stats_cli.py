"""``python -m games stats`` end to end on tiny runs, and the search player's records."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from games import GAMES
from games.__main__ import main
from games.recycle import library, load
from games.stats import measure
from games.stats.experiments import play
from games.stats.players import SearchPlayer

TINY = ["--random-games", "4", "--one-search-games", "1", "--all-search-games", "1", "--playouts", "2"]
NAMES = ("fairness", "convergence", "spread", "drama", "security", "order")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the command in this process; return its exit status, stdout and stderr."""
    try:
        status = main(["stats", *args])
    except SystemExit as leaving:
        status = leaving.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("game", ["agram", str(library()["agram"])])
def test_tiny_run_prints_every_heuristic_and_writes_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str
) -> None:
    path = tmp_path / "stats.json"
    status, out, err = run(capsys, game, "--options", "{}", *TINY, "--json", str(path))
    assert status == 0, err
    assert re.search(r"^random: 4 games, 24\.0 moves per game", out, re.M)
    assert re.search(r"^all_search: 1 games", out, re.M)
    for name in NAMES:
        assert re.search(rf"^{name}: \d\.\d\d ± \d\.\d{{3}}$", out, re.M), name
    data = json.loads(path.read_text())
    assert data["players"] == 4 and data["playouts"] == 2
    assert set(data["heuristics"]) == set(NAMES) == set(data["errors"])
    assert all(0 <= data["heuristics"][name] <= 1 and data["errors"][name] >= 0 for name in NAMES)
    assert data["fairness_basis"] == "win"
    # Agram: 24 moves, some forced, every one searched: all four seats' estimates at each.
    assert len(data["lead_history"]) == 24 and all(len(row["lead"]) == 4 for row in data["lead_history"])
    assert all(0 <= v <= 1 for row in data["lead_history"] for v in row["lead"])


def test_preset_flag_is_the_options_preset(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "agram", "--preset", "cardstock", *TINY)
    assert status == 0 and 'options: {"preset": "cardstock"}' in out
    status, _, err = run(capsys, "agram", "--preset", "nosuch", *TINY)
    assert status == 2 and "no preset 'nosuch'" in err


def test_games_sets_every_count_and_the_default_is_cardstocks_ten_playouts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "ninety_eight", "--games", "2")
    assert status == 0, err
    for kind in ("random", "one_search", "all_search"):
        assert re.search(rf"^{kind}: 2 games", out, re.M), kind
    assert "playouts per move: 10" in out


def test_fairness_basis_follows_the_game_or_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    # Ninety-Eight names one loser: fairness measures the first player's losses unless asked.
    assert "loss rate" in run(capsys, "ninety_eight", *TINY)[1]
    assert "win rate" in run(capsys, "ninety_eight", *TINY, "--fairness", "win")[1]
    assert run(capsys, "ninety_eight", *TINY, "--fairness", "nosuch")[0] == 2


def test_same_seed_same_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "ninety_eight", *TINY, "--seed", "3")[1]
    again = run(capsys, "ninety_eight", *TINY, "--seed", "3")[1]
    strip = re.compile(r"^seconds: .*$", re.M)
    assert strip.sub("", first) == strip.sub("", again)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuchgame", *TINY], "there is no game"),
        (["agram", "--options", "[1]", *TINY], "--options must be a JSON object"),
        (["agram", "--players", "9", *TINY], "takes"),
    ],
)
def test_bad_input_is_one_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    path = tmp_path / "out.json"
    status, out, err = run(capsys, *args, "--json", str(path))
    assert status == 2 and message in err and out == ""
    assert not path.exists()


def test_budgets_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "agram", "--playouts", "0")[0] == 2
    assert (
        run(capsys, "agram", "--random-games", "0", "--one-search-games", "0", "--all-search-games", "0")[0]
        == 2
    )


def test_search_player_estimates_its_moves() -> None:
    game = GAMES["agram"]
    state = game.new(4, None, 5)
    seat = game.to_act(state)[0]
    player = SearchPlayer(game, 3, random.Random(1))
    move = player.choose(state, seat)
    assert move in game.legal_moves(state, seat)
    (estimate,) = player.estimates
    assert estimate.seat == seat and len(estimate.lead) == 4
    assert 0 <= estimate.spread <= 1
    # The mean ranks of the four seats after one move sum to 0+1+2+3 at most (ties share).
    assert sum(estimate.lead) >= 4 - (0 + 1 + 2 + 3) / 3


def test_one_search_game_searches_every_choice_of_seat_zero_only() -> None:
    record = play(load(library()["agram"]), None, None, 2, "one_search", 2)
    # Seat 0 plays one card to each of the six tricks: six searched choices, forced ones included.
    assert len(record.estimates) == 6 and {e.seat for e in record.estimates} == {0}
    assert len(record.choices) == 24 and sorted(record.ranks)[0] == 0
    # Its last card is forced: searched, with every estimate, and a spread of 0.
    assert record.estimates[-1].spread == 0.0 and len(record.estimates[-1].lead) == 4


def test_a_forced_choice_is_searched_and_recorded() -> None:
    game = GAMES["agram"]
    state = game.new(4, None, 5)
    while True:
        seat = game.to_act(state)[0]
        if len(game.legal_moves(state, seat)) == 1:
            break
        game.advance(state, seat, game.random_move(state, seat, random.Random(0)))
    player = SearchPlayer(game, 3, random.Random(1))
    assert player.choose(state, seat) == game.legal_moves(state, seat)[0]
    (estimate,) = player.estimates
    assert estimate.seat == seat and estimate.spread == 0.0 and len(estimate.lead) == 4


def test_measure_is_reproducible_with_its_errors() -> None:
    game = load(library()["ninety_eight"])
    counts = {"random": 6, "one_search": 2, "all_search": 2}
    first = measure(game, None, None, counts, 3, seed=4)
    assert first == measure(game, None, None, counts, 3, seed=4)
    assert first != measure(game, None, None, counts, 3, seed=5)
