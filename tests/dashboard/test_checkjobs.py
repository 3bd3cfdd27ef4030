"""The playability check of an uploaded RECYCLE game runs in a job's child process, within limits.

These tests commit (``transaction=True``): the job's supervisor thread reads and
writes the rows through its own database connection, as it does in the server.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from cardtable.dashboard import checkjobs, designjobs, recycle_games
from cardtable.dashboard.models import DesignStats, StoredGame
from games.recycle import library

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/staff/games/"
WHIST = library()["whist"].read_bytes()
AGRAM = library()["agram"].read_bytes()


@pytest.fixture(autouse=True)
def _jobs(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Checks not niced and given time (other tests keep the machine busy); no design statistics run."""
    settings.RECYCLE_CHECK_NICENESS = 0
    settings.RECYCLE_CHECK_TIMEOUT = 900
    monkeypatch.setattr(designjobs.QUEUE, "ensure_worker", lambda: None)
    recycle_games._CACHE.clear()


def post(client: Client, content: bytes, filename: str) -> Any:
    return client.post(URL, {"name": "", "text": "", "file": SimpleUploadedFile(filename, content)})


def listed() -> set[str]:
    return {game["id"] for game in Client().get("/api/games/").json()}


def wait_for_child(seconds: float = 60) -> int | None:
    """Return the check's child pid once one runs (``None`` if the worker ended first)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pid = checkjobs.running_child()
        if pid is not None:
            return pid
        if checkjobs.wait(0.005):
            return None
    return None


def command_line(pid: int, seconds: float = 10) -> bytes:
    """Return the process's command line once it has one. While ``nice`` execs Python, Linux
    shows an empty one (the new program's arguments are not yet in place): wait that out."""
    deadline = time.monotonic() + seconds
    line = b""
    while time.monotonic() < deadline:
        line = Path(f"/proc/{pid}/cmdline").read_bytes()
        if line and not line.startswith(b"nice"):
            return line
        time.sleep(0.005)
    return line


def test_the_upload_answers_at_once_and_the_check_runs_in_a_child_process(staff_client: Client) -> None:
    started = time.monotonic()
    response = post(staff_client, WHIST, "whist.rcy")
    answered = time.monotonic() - started
    assert response.status_code == 202
    assert 'data-check-status="queued"' in response.content.decode()
    row = StoredGame.objects.get()
    # Stored, not yet played: the lobby does not offer it.
    assert row.status in (StoredGame.QUEUED, StoredGame.RUNNING) and row.checked == {}
    assert "recycle_whist" not in listed()
    pid = wait_for_child()
    assert pid is not None and pid != os.getpid()
    assert b"cardtable.dashboard.checkchild" in command_line(pid)
    assert staff_client.get(f"{URL}recycle_whist/check/").json()["status"] in ("queued", "running")
    assert checkjobs.wait(900)
    row.refresh_from_db()
    assert row.status == StoredGame.DONE, row.message
    # The request returned before the check had played its games.
    assert row.checked["games"] >= 3 and answered < row.checked["seconds"]
    assert "recycle_whist" in listed()
    assert DesignStats.objects.get(game="recycle_whist").status == DesignStats.QUEUED
    check = staff_client.get(f"{URL}recycle_whist/check/").json()
    assert check["status"] == "done" and check["text"].startswith(
        f"Checked: {row.checked['games']} random games"
    )


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("JOB_CPU_SECONDS", 1, "stopped after 1 s of CPU time (JOB_CPU_SECONDS)"),
        ("JOB_MEMORY_MB", 64, "stopped: it needed more than 64 MiB of memory (JOB_MEMORY_MB)"),
    ],
)
def test_a_check_past_its_limit_ends_with_a_clear_error_and_the_server_goes_on(
    staff_client: Client, settings: Any, setting: str, value: int, message: str
) -> None:
    setattr(settings, setting, value)
    assert post(staff_client, WHIST, "whist.rcy").status_code == 202
    assert checkjobs.wait(600)
    row = StoredGame.objects.get()
    assert (row.status, row.message) == (StoredGame.FAILED, message)
    assert "recycle_whist" not in listed() and not DesignStats.objects.exists()
    assert message in staff_client.get(URL).content.decode()
    # This process is unaffected: it answers, and the next check, within the limits, passes.
    setattr(settings, setting, 1800 if setting == "JOB_CPU_SECONDS" else 1024)
    assert post(staff_client, AGRAM, "agram.rcy").status_code == 202
    assert checkjobs.wait(600)
    assert StoredGame.objects.get(game_id="recycle_agram").status == StoredGame.DONE
    assert "recycle_agram" in listed()
