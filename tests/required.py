"""What a test needs from outside the clone: skipped with the reason where it is missing, a failure in CI.

A Redis or PostgreSQL server (the ``redis`` and ``postgres`` markers, tests/conftest.py)
and CardStock's seed posts in ``../shared/seeds/`` (tests/games/recycle/helpers.py)
may be missing on a newcomer's machine: the tests that need them are skipped with
the reason. ``.ci/run`` sets ``CARDTABLE_REQUIRE_SERVICES=1``, so there a missing
need is a failure and CI cannot go green by skipping.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def required() -> bool:
    """Whether every outside need must be there (``CARDTABLE_REQUIRE_SERVICES=1``, as in CI)."""
    return os.environ.get("CARDTABLE_REQUIRE_SERVICES") == "1"


def missing(reason: str) -> NoReturn:
    """Skip the running test for ``reason``; fail it instead where every need is required."""
    if required():
        pytest.fail(f"CARDTABLE_REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)
