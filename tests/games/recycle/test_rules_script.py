"""bench/recycle_rules.py: counts the files whose rules text reads cleanly and the faults by kind,
and names the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import recycle_rules
from bench.recycle_rules import main
from games.recycle import LIBRARY, load


def test_the_library_is_described_and_the_rest_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "Odd2.rcy").write_bytes((LIBRARY / "whist.rcy").read_bytes())
    (tmp_path / "Broken2.rcy").write_text("(game", encoding="utf-8")

    def spelled_raw(path: Path):  # as if a phrase had left a name as the program spells it
        game = load(path)
        if path.name == "Odd2.rcy":
            paragraphs = (*game.info.how_to_play[:-1], "The game ends when TRICKSWON is full.")
            object.__setattr__(game.info, "how_to_play", paragraphs)
        return game

    monkeypatch.setattr(recycle_rules, "load", spelled_raw)
    assert main([str(LIBRARY), str(tmp_path), "--show", "whist"]) == 0
    out = capsys.readouterr().out
    count = len(list(LIBRARY.glob("*.rcy")))
    assert f"{count} files, {count} load, {count} read cleanly, 0 faults" in out
    assert "--- whist.rcy\nFor 4 players in 2 teams:" in out
    assert "2 files, 1 load, 0 read cleanly, 1 faults" in out
    assert "  files with internal name: 1\n" in out
    assert "Odd2.rcy: internal name: TRICKSWON" in out
