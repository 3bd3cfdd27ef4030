"""Forms the seeds do not use: teams, team stages, let, names, arithmetic, bottom and nth cards."""

from __future__ import annotations

import random

from games.recycle import loads

PARTNERS = """
(game
 (setup (create players 4)
        (create teams (0, 2) (1, 3))
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE, FOUR)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (all team 'T (all 'T 'M (move (bottom ('M iloc HAND)) (top ('T iloc SHARED)))))))
 (stage team
  (end (> (game sto ROUNDS) 3))
  (do ((inc ((current team) sto TURNS) 1)
       (let (+ (game sto ROUNDS) 1) 'N (set (game sto ROUNDS) 'N)))))
 (stage player
  (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice
   ((any ((current player) iloc HAND) 'C
         (any (A, TWO) 'R
              ((== (cardatt RANK 'C) 'R) (move 'C (top ((team (current player)) vloc WON))))))
    ((not (== (size ((current player) iloc HAND)) 0))
     (move (0 ((current player) iloc HAND)) (top (game vloc PILE))))))
  (do (((or (== (size (game vloc PILE)) 3) (== (size (game vloc PILE)) 5))
        (inc ((team (current player)) sto BONUS) (* 2 (- 3 1)))))))
 (scoring max (+ (size ((team (current player)) vloc WON)) ((team (current player)) sto BONUS))))
"""


def test_teams_let_names_and_arithmetic() -> None:
    game = loads(PARTNERS, "Partners")
    assert game.warnings == []
    state = game.new(None, None, 3)
    # Two team rounds each, counted by a let.
    assert state.sto[(-2, "TURNS")] == 2 and state.sto[(-3, "TURNS")] == 2
    assert state.sto[(-1, "ROUNDS")] == 4
    # A team's hidden location: its members see it, the others do not.
    shared = {
        p: next(
            e for e in game.view(state, p)["locations"] if e["name"] == "SHARED" and e["owner"] == "team0"
        )
        for p in range(4)
    }
    assert "cards" in shared[0] and "cards" in shared[2]
    assert "cards" not in shared[1] and "cards" not in shared[3] and shared[1]["count"] == 2
    rng = random.Random(1)
    while not game.is_over(state):
        (seat,) = game.to_act(state)
        moves = game.legal_moves(state, seat)
        assert all(set(m) == {"choice"} for m in moves)
        assert {"choice": [1]} in moves
        game.apply(state, seat, moves[int(rng.random() * len(moves))])
    scores = game.result(state)["scores"]
    assert scores[0] == scores[2] and scores[1] == scores[3]  # partners share a score
