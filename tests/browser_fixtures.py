"""The one headless Chromium every browser test shares.

Playwright's sync API allows one instance per process at a time and, while it
runs, holds an event loop in the main thread (so ``asyncio.run`` fails). The
browser is therefore one module-scoped fixture, defined once here for every
folder: it lives while a browser test module runs and is gone after it.
"""

from __future__ import annotations

import os
from contextlib import suppress

import pytest

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
        defaults = {"viewport": {"width": 1280, "height": 900}, "reduced_motion": "reduce"}
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
