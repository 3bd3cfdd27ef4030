"""The README tells a new host what is true: its staff command works, its screenshots follow their caption."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_the_screenshot_caption_is_followed_by_the_screenshots() -> None:
    caption = README.index("Screenshots at 1280 x 800")
    after = README[caption:].split("\n\n")
    assert after[1].startswith("| Hearts |") and "![" in after[1], after[1][:200]


def test_the_readmes_staff_command_makes_a_staff_account(tmp_path: Path) -> None:
    command = re.search(r"^(DEBUG=1 \.venv/bin/python manage\.py createsuperuser)$", README, re.M)
    assert command, "the README shows how to make a staff account"
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="cardtable.settings",
        DEBUG="1",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
        DJANGO_SUPERUSER_PASSWORD="a-long-pass-4512",
    )
    python = [sys.executable, "manage.py"]
    subprocess.run([*python, "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=240)
    words = command.group(1).split()[3:]  # what follows "manage.py"
    subprocess.run(
        [*python, *words, "--noinput", "--username", "host", "--email", "host@example.org"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )
    check = "from django.contrib.auth.models import User; print(User.objects.get(username='host').is_staff)"
    out = subprocess.run(
        [*python, "shell", "-c", check],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
        capture_output=True,
        text=True,
    )
    assert out.stdout.strip().splitlines()[-1] == "True"


def test_the_readme_names_the_rate_limits() -> None:
    assert "RATE_LIMITS" in README
