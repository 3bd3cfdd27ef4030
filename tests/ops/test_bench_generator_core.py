"""bench/load.py --generator-core: the generator keeps to one CPU while it measures, and only then."""

from __future__ import annotations

import os

import pytest

from bench.load import generator_on


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
