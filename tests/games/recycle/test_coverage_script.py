"""bench/recycle_coverage.py: counts the files that read and play, and says why the others fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.recycle_coverage import main

PLAYS = """(game (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (A, TWO)) (SUIT (HEARTS)))))
 (do ((all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))
 (scoring max 0))"""
# The first round ends the stage: the second seat never has a turn.
IDLE = """(game (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (A, TWO)) (SUIT (HEARTS)))))
 (stage player (end (== (game sto DONE) 1))
  (do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))))
  (do ((set (game sto DONE) 1))))
 (scoring max 0))"""
LOOPS = """(game (setup (create players 2))
 (stage player (end (== 1 0)) (do ((inc (game sto X) 1))))
 (scoring max 0))"""


def test_it_counts_and_groups_the_failures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "Good2.gdl").write_text(PLAYS, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "Bom2.rcy").write_text("\ufeff" + PLAYS, encoding="utf-8")
    (tmp_path / "Typo2.gdl").write_text(PLAYS.replace("shuffle", "shufle").replace("(move", "(mvoe", 1))
    (tmp_path / "Loops2.gdl").write_text(LOOPS, encoding="utf-8")
    (tmp_path / "Idle2.rcy").write_text(IDLE, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a game", encoding="utf-8")
    assert main([str(tmp_path), "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert f"{tmp_path}: 5 files, 4 read, 2 play 2 random games to the end" in out
    assert (
        "cannot be read (1): unknown word _" in out
        and "Typo2.gdl: line 3, column 23: unknown word 'mvoe'" in out
    )
    assert "read but do not play (1): more than _ steps" in out
    assert "Loops2.gdl: random game 1 of 2 failed: line 2, column 31:" in out
    # Read and ended, but not played: a seat never moves.
    assert "Idle2.rcy: player 2 never moves in 2 random games: the game ends first" in out
