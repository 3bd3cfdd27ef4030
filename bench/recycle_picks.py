"""What a RECYCLE choice among the subsets of a hand costs at the table: CPU and frame bytes.

Run ``python bench/recycle_picks.py [--games N]``. Three test games
(``tests/games/recycle/families/``): Shed (put down any cards of a 14-card hand
adding up to 10 points at most), the same with any non-empty set allowed (16,383
options at the first choice), and Capture (a Scopa-like capture from a pool of
24 cards). Random players play each to the end; each move is timed in CPU
(``time.thread_time``) from the seat's view and legal moves through ``apply``, as
a live table does for the seat to act, and the game part of the seat's state
message (view and legal moves, JSON) is measured. Listing every subset of a
14-card hand, as choices were made before picks, is timed once beside them.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.recycle import loads, program  # noqa: E402

FAMILIES = ROOT / "tests" / "games" / "recycle" / "families"
SHED = (FAMILIES / "shed.rcy").read_text()
GAMES = {
    "shed": SHED,
    "any set of 14": SHED.replace("(<= (sum 'S using (game points PIPS)) 10)", "(<= (size 'S) 14)"),
    "capture (pool of 24)": (FAMILIES / "capture.rcy").read_text(),
}


def measure(name: str, text: str, games: int, whole: bool = False) -> None:
    """Play ``games`` random games of ``text``; print CPU per move and the largest frame.
    ``whole``: its choices listed whole (no pick), as before picks."""
    saved = program.pick_part
    if whole:
        program.pick_part = lambda *args: None
    try:
        game = loads(text, name)
    finally:
        program.pick_part = saved
    rng = random.Random(1)
    times: list[float] = []
    frames: list[int] = []
    for seed in range(games):
        state = game.new(None, None, seed=seed)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            started = time.thread_time()
            view, moves = game.view(state, seat), game.legal_moves(state, seat)
            game.apply(state, seat, moves[int(rng.random() * len(moves))])
            times.append(time.thread_time() - started)
            frames.append(len(json.dumps({"view": view, "legal_moves": moves}).encode()))
    ms = [t * 1000 for t in times]
    print(
        f"{name:22} {len(ms):5} moves  CPU a move: median {statistics.median(ms):6.2f} ms,"
        f" max {max(ms):6.2f} ms   frame: median {statistics.median(frames):6.0f} B, max {max(frames):6.0f} B"
    )


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    for name, text in GAMES.items():
        measure(name, text, args.games)
    measure("any set, listed whole", GAMES["any set of 14"], max(1, args.games // 10), whole=True)


if __name__ == "__main__":
    main()
