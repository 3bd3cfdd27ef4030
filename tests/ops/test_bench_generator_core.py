"""bench/load.py --generator-core and --pin: who keeps to which CPU, and that the output says so."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from bench.load import generator_on, place


def test_the_generator_keeps_to_its_core_inside_the_block_and_is_free_after() -> None:
    before = os.sched_getaffinity(0)
    core = max(before)
    with generator_on(core):
        assert os.sched_getaffinity(0) == {core}
    assert os.sched_getaffinity(0) == before  # servers started later must not inherit it


def test_the_pin_ends_when_the_run_fails() -> None:
    before = os.sched_getaffinity(0)
    with pytest.raises(RuntimeError), generator_on(min(before)):
        raise RuntimeError("the run failed")
    assert os.sched_getaffinity(0) == before


def test_no_core_leaves_the_generator_where_it_was() -> None:
    before = os.sched_getaffinity(0)
    with generator_on(None):
        assert os.sched_getaffinity(0) == before


class _Started:
    """A stand-in for a started DaphneServer: a real child process to place."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.base = "http://127.0.0.1:1"
        self.log_path = "/dev/null"


@pytest.fixture
def child() -> Iterator[_Started]:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        yield _Started(proc)
    finally:
        proc.kill()
        proc.wait()


def test_a_placed_server_keeps_to_its_core_and_its_line_says_so(
    child: _Started, capsys: pytest.CaptureFixture[str]
) -> None:
    core = max(os.sched_getaffinity(0))
    place(child, core)
    assert os.sched_getaffinity(child.proc.pid) == {core}
    assert f", on CPU {core} (log" in capsys.readouterr().out


def test_a_server_left_to_float_is_not_pinned_and_its_line_says_so(
    child: _Started, capsys: pytest.CaptureFixture[str]
) -> None:
    before = os.sched_getaffinity(child.proc.pid)
    place(child, None)
    assert os.sched_getaffinity(child.proc.pid) == before
    assert ", floating (log" in capsys.readouterr().out
