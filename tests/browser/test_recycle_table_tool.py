"""bench/recycle_table.py: a folder's RECYCLE files uploaded, played at the table, and reported.

One file written here, at one window size (the tool's own run covers two sizes and
CardStock's folders): a game that plays reports its moves, its largest state frame
and what it found; a file that does not read is reported refused with its line.
"""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from bench import recycle_table
from tests.browser.test_recycle_page import GIFTS, staff_page

pytestmark = [pytest.mark.browser]


def test_the_tool_plays_a_file_to_the_end_and_reports_a_refused_one(own_server, new_page, browser, tmp_path):
    (tmp_path / "Gifts2.rcy").write_text(";; Gifts: give the stock's top card to anyone\n" + GIFTS)
    (tmp_path / "Broken2.gdl").write_text(
        "(game (setup (create players 2))\n (do ((shufle (game iloc STOCK)))))"
    )
    (tmp_path / "notes.txt").write_text("not a game file")
    staff = staff_page(own_server, new_page)
    files = recycle_table.files_of(tmp_path, "*")
    assert [p.name for p in files] == ["Broken2.gdl", "Gifts2.rcy"]
    reports = [
        r
        for path in files
        for r in recycle_table.survey_file(browser, own_server.url, staff, path, ["1280x800"], 240)
    ]
    broken, gifts = reports
    assert (broken.file, broken.outcome) == ("Broken2.gdl", "refused") and "line 2, column" in broken.why
    assert (gifts.file, gifts.size, gifts.outcome) == ("Gifts2.rcy", "1280x800", "finished"), gifts.why
    assert gifts.moves >= 3 and gifts.frame > 500  # the state frames the page was sent
    assert gifts.console == [] and gifts.alike == []
    printed = recycle_table.table(reports)
    assert "| Gifts2.rcy | 1280x800 | finished |" in printed and "| Broken2.gdl | - | refused |" in printed


def test_the_files_own_names_are_what_it_looks_for_on_the_page() -> None:
    text = (
        ";; TRUMP notes in a COMMENT\n"
        "(game (do ((set (game sto TRUMPCOLOR) 1)\n"
        " (move (top (game iloc STOCK)) (top (game vloc LASTDISCARD))))))"
    )
    assert recycle_table.identifiers(text) == {"TRUMPCOLOR", "LASTDISCARD"}


def test_a_surveys_saved_reports_print_as_its_table(tmp_path, capsys) -> None:
    reports = [
        recycle_table.Report("A2.rcy", "1280x800", outcome="finished", moves=9, frame=1200),
        recycle_table.Report("B2.gdl", "-", outcome="refused", why="line 3, column 4: no such form"),
    ]
    saved = tmp_path / "survey.json"
    saved.write_text(json.dumps([asdict(r) for r in reports]))
    assert recycle_table.main([str(saved), "--tables"]) == 0
    assert capsys.readouterr().out.strip() == recycle_table.table(reports)
