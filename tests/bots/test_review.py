"""The review of a seat's decisions (games/bots/review.py) on games recorded by seeded bots."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import GAMES
from games.bots import make_bot
from games.bots.review import ReviewConfig, review
from games.cards import CARD_INDEX
from games.cribbage.crib_discard import discard_choices
from games.engine import Game, Move
from games.recycle import library, load

Choice = Callable[[Game, Any, int], Move | None]
HEARTS_RANKS = "23456789TJQKA"


def record(game: Game, seed: int, moves: int, chooser: Choice | None = None) -> tuple[list[dict], Any]:
    """Play ``moves`` moves of the game of ``seed`` with easy bots (seat 0 asks ``chooser`` first);
    return the log as the server keeps it (seat 0 human, the others bots) and the final state."""
    state = game.new(None, None, seed)
    bots = [make_bot("easy", game, seed * 10 + seat) for seat in range(state.players)]
    log = []
    for seq in range(1, moves + 1):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        move = chooser(game, state, seat) if chooser and seat == 0 else None
        move = move or bots[seat].choose(state, seat)
        log.append({"seq": seq, "seat": seat, "move": move, "by": "human" if seat == 0 else "bot"})
        game.apply(state, seat, move)
    return log, state


def take_queen(game: Game, state: Any, seat: int) -> Move | None:
    """Seat 0's deliberate blunder: last to a trick holding the Q♠, win it when it could duck."""
    view = game.view(state, seat)
    trick = view.get("trick") or []
    if view["phase"] != "play" or len(trick) != 3 or "QS" not in [p["card"] for p in trick]:
        return None
    led = trick[0]["card"][1]
    top = max(HEARTS_RANKS.index(p["card"][0]) for p in trick if p["card"][1] == led)
    moves = game.legal_moves(state, seat)
    winners = [m for m in moves if m["play"][1] == led and HEARTS_RANKS.index(m["play"][0]) > top]
    if winners and len(winners) < len(moves) and any(m["play"][1] == led for m in moves if m not in winners):
        return winners[0]
    return None


def blunder_game() -> tuple[int, list[dict], int]:
    """Return a Hearts seed, its first deal's log with seat 0's blunder, and the blunder's step."""
    game = GAMES["hearts"]
    for seed in range(1, 400):
        log, _ = record(game, seed, 56, take_queen)
        for step, entry in enumerate(log, start=1):
            if entry["seat"] == 0 and take_queen(game, replay_to(game, seed, log, step), 0) == entry["move"]:
                return seed, log, step
    raise AssertionError("no deal in 400 gave seat 0 the chance to take the Q♠")


def replay_to(game: Game, seed: int, log: list[dict], step: int) -> Any:
    """The state before the move at ``step`` (1-based)."""
    state = game.new(None, None, seed)
    for entry in log[: step - 1]:
        game.apply(state, entry["seat"], entry["move"])
    return state


CONFIG = ReviewConfig(playouts=120, min_worlds=12, seed=5)


def test_taking_the_queen_is_the_biggest_mistake() -> None:
    seed, log, step = blunder_game()
    result = review(GAMES["hearts"], 4, {}, seed, log, 0, CONFIG)
    assert result["mistakes"], result
    assert result["mistakes"][0] == step
    worst = next(d for d in result["decisions"] if d["step"] == step)
    assert worst["cost"] > 5 and worst["cost"] > 2 * worst["cost_se"]
    assert worst["text"].startswith(f"played {worst['chosen']['play'][0]}")


def test_the_figures_are_reproducible_from_the_seed() -> None:
    game = GAMES["hearts"]
    log, _ = record(game, 11, 40)
    first = review(game, 4, {}, 11, log, 0, CONFIG)
    again = review(game, 4, {}, 11, log, 0, CONFIG)
    other = review(game, 4, {}, 11, log, 0, ReviewConfig(playouts=120, min_worlds=12, seed=6))
    assert first == again
    assert first["reviewed"] > 3
    figures = lambda r: [m["value"] for d in r["decisions"] for m in d.get("moves", [])]  # noqa: E731
    assert figures(first) != figures(other)


def test_a_forced_move_is_never_a_mistake() -> None:
    game = GAMES["hearts"]
    forced = []
    for seed in (2, 3, 4):
        log, _ = record(game, seed, 56)
        result = review(game, 4, {}, seed, log, 0, CONFIG)
        forced += [d for d in result["decisions"] if d["legal"] == 1]
    assert forced
    assert all(d["forced"] and not d["mistake"] and d["cost"] == 0 for d in forced)


def test_only_the_seats_own_moves_are_reviewed() -> None:
    game = GAMES["hearts"]
    log, _ = record(game, 5, 30)
    result = review(game, 4, {}, 5, log, 0, CONFIG)
    mine = [e["seq"] for e in log if e["seat"] == 0]
    assert [d["seq"] for d in result["decisions"]] == mine
    # The pass (286 choices) is listed but not weighed.
    assert result["decisions"][0]["skipped"]


def test_a_cribbage_discard_is_scored_by_the_exact_expectation() -> None:
    game = GAMES["cribbage"]

    def worst_discard(game: Game, state: Any, seat: int) -> Move | None:
        choices = discard_choices(game, state, seat)
        return min(choices, key=lambda vm: vm[0])[1] if choices else None

    log, _ = record(game, 3, 2, worst_discard)
    result = review(game, 2, {}, 3, log, 0, CONFIG)
    discard = result["decisions"][0]
    state = replay_to(game, 3, log, discard["step"])
    values = {str(m): v for v, m in discard_choices(game, state, 0)}
    assert discard["cost"] == round(max(values.values()) - values[str(discard["chosen"])], 4)
    assert discard["cost_se"] == 0 and discard["mistake"]
    assert discard["moves"][0]["value"] == max(values.values())
    assert all(CARD_INDEX[c] >= 0 for c in discard["chosen"]["discard"])


def test_a_game_played_to_its_end_is_weighed_in_win_chance() -> None:
    game = GAMES["stealing_bundles"]
    log, _ = record(game, 4, 12)
    result = review(game, 4, {}, 4, log, 0, ReviewConfig(playouts=60, min_worlds=6))
    assert result["unit"] == "win chance"
    assert all(0 <= m["value"] <= 1 for d in result["decisions"] for m in d.get("moves", []))


def test_a_recycle_game_is_reviewed_the_same_way() -> None:
    game = load(library()["crazy_eights"])
    log, state = record_random(game, 9, 30)
    result = review(game, state.players, {}, 9, log, 0, ReviewConfig(playouts=40, min_worlds=4))
    assert result["unit"] == "win chance"
    assert result["reviewed"] >= 1


def record_random(game: Game, seed: int, moves: int) -> tuple[list[dict], Any]:
    """A RECYCLE game's log of random play (its easy player is random)."""
    rng = random.Random(seed)
    state = game.new(None, None, seed)
    log = []
    for seq in range(1, moves + 1):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        move = game.random_move(state, seat, rng)
        log.append({"seq": seq, "seat": seat, "move": move, "by": "human"})
        game.apply(state, seat, move)
    return log, state
