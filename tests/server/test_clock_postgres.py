"""The turn clock's tests again on PostgreSQL, where the table's row lock (not a process lock)
must keep two racing processes from acting twice on one deadline."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest

from tests.browser.conftest import ROOT
from tests.conftest import POSTGRES_URL


@pytest.mark.postgres
@pytest.mark.slow
def test_clock_suite_on_postgres() -> None:
    env = {
        **os.environ,
        "DATABASE_URL": POSTGRES_URL,
        "TEST_DATABASE_NAME": f"cardtable_clock_{secrets.token_hex(4)}",
    }
    command = [sys.executable, "-m", "pytest", "tests/server/test_clock.py", "-q", "-p", "no:cacheprovider"]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert " passed" in summary and "skipped" not in summary and "failed" not in summary, summary
