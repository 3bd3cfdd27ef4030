"""Browser tests: a real Daphne on a free port, Debian's Chromium through Playwright.

Every test that drives Chromium lives in this folder, which `make test` runs in a
pytest process of its own. While Playwright's sync API runs, it marks its event
loop as running in the main thread: a second ``sync_playwright()`` then raises "using
Playwright Sync API inside the asyncio loop", and so does ``asyncio.run`` (and every
async test). A browser test in another folder of the main run therefore passed
alone and failed in a full run, depending on which browser fixture was still
alive when it started. Here the browser is one module-scoped fixture, and a page
comes from ``new_page`` (the suite's timeouts, reduced motion, page errors kept).

The server runs as a child process with its own SQLite file and bots that move
without a pause. Without Chromium these tests are skipped, unless
``CARDTABLE_REQUIRE_SERVICES=1`` (CI), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest

from tests.support.daphne import free_port, log_tail, start_daphne, stop

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# A phone, as Playwright's context options: small, touch, high density.
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


class LiveServer:
    """One Daphne process serving the project on ``port``, its database in ``db_path``."""

    def __init__(
        self, db_path: Path, port: int | None = None, extra_env: dict[str, str] | None = None
    ) -> None:
        self.db_path = db_path
        self.port = port or free_port()
        self.extra_env = extra_env or {}
        self.proc: subprocess.Popen | None = None
        self.log_path = db_path.with_suffix(".log")

    @property
    def url(self) -> str:
        """The site's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        """The child's environment: DEBUG (static files from the source tree), no pause for bots."""
        env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        env.update(
            DJANGO_SETTINGS_MODULE="cardtable.settings",
            DEBUG="1",
            SQLITE_PATH=str(self.db_path),
            BOT_PAUSE="0",
            DISCONNECT_GRACE="600",
            PYTHONUNBUFFERED="1",
            RATE_LIMITS="0",  # every browser of a module is a guest from 127.0.0.1
            RECYCLE_CHECK_NICENESS="0",  # an uploaded game's check, which the test waits for
        )
        env.update(self.extra_env)
        return env

    def migrate(self) -> None:
        """Create the schema in the fresh database."""
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=self.env(),
            check=True,
            capture_output=True,
            timeout=240,
        )

    def start(self, timeout: float = 40) -> None:
        """Start Daphne and wait until the lobby answers."""
        self.proc = start_daphne(self.port, self.env(), self.log_path, probe="/", timeout=timeout)

    def kill(self) -> None:
        """SIGKILL the server (as in a crash) and reap it."""
        stop(self.proc)
        self.proc = None

    def log_tail(self, lines: int = 30) -> str:
        """The end of the server's output, for failure messages."""
        return log_tail(self.log_path, lines)


def _new_server(extra_env: dict[str, str] | None = None) -> Iterator[LiveServer]:
    folder = Path(tempfile.mkdtemp(prefix="cardtable-browser-"))
    server = LiveServer(folder / "db.sqlite3", extra_env=extra_env)
    server.migrate()
    server.start()
    try:
        yield server
    finally:
        server.kill()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def site_server() -> Iterator[LiveServer]:
    """A server shared by the tests that do not stop it."""
    yield from _new_server()


@pytest.fixture
def own_server() -> Iterator[LiveServer]:
    """A server of the test's own, which it may kill and restart."""
    yield from _new_server()


@pytest.fixture(scope="module")
def browser():
    """Headless Debian Chromium; skipped (or failed in CI) when it is not installed."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CARDTABLE_REQUIRE_SERVICES") == "1":
            pytest.fail(f"CARDTABLE_REQUIRE_SERVICES=1 but there is no Chromium at {CHROMIUM}", pytrace=False)
        pytest.skip(f"no Chromium at {CHROMIUM}")
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield chromium
        with suppress(PlaywrightError):
            chromium.close()


@pytest.fixture
def new_page(browser):
    """Open a page in a fresh browser context (its own cookies: its own player)."""
    from playwright.sync_api import Error as PlaywrightError

    contexts = []

    def make(**options):
        # Reduced motion by default (the page honours prefers-reduced-motion): headless
        # Chromium draws every frame in software, and a page showing whose turn it is
        # pulses a glow all game long, about 0.16 s of CPU a second (0.4 s before the
        # glow animated only opacity), on CI's two cores. Moving cards also make each
        # click wait for them to settle. The phone test plays a whole game with motion
        # allowed, and test_hand checks the glow runs then and only then.
        # The site's Content-Security-Policy refuses eval, and Playwright evaluates the text of a
        # wait_for_function expression with it: the tests' own scripts bypass the policy, except
        # in tests/browser/test_csp.py, which checks every page under it (bypass_csp=False).
        defaults = {
            "viewport": {"width": 1280, "height": 800},
            "reduced_motion": "reduce",
            "bypass_csp": True,
        }
        context = browser.new_context(**{**defaults, **options})
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        # A browser the driver's watchdog ended (a stuck page) has no contexts to close.
        with suppress(PlaywrightError):
            context.close()


ARTIFACTS.mkdir(parents=True, exist_ok=True)
