"""The test driver's safety net: a page that never answers fails the test, quickly.

Some Playwright calls (``evaluate``, ``count``) have no timeout of their own. The
driver runs them under a watchdog that ends the browser when one does not return
in time, so a stuck page becomes a clear failure instead of a run that hangs
until CI kills it. This module ends its browser on purpose: it has a module of
its own, so no other test shares that browser.
"""

from __future__ import annotations

import time

import pytest

from tests.browser.driver import Stalled, Watchdog

pytestmark = pytest.mark.browser


def test_calls_that_return_in_time_are_left_alone(browser):
    page = browser.new_context().new_page()
    watchdog = Watchdog(limit=3)
    try:
        # Together longer than the limit: each call has the whole limit to itself.
        for _ in range(8):
            with watchdog.call("a short wait"):
                assert page.evaluate("new Promise((done) => setTimeout(() => done(7), 500))") == 7
    finally:
        watchdog.close()
    assert browser.is_connected()


def test_a_call_that_never_returns_is_ended_by_the_watchdog(browser):
    # Last in the module: it ends the browser.
    page = browser.new_context().new_page()
    watchdog = Watchdog(limit=2)
    began = time.monotonic()
    try:
        with (
            pytest.raises(Stalled, match="a promise that never settles within 2s"),
            watchdog.call("a promise that never settles"),
        ):
            page.evaluate("new Promise(() => {})")
    finally:
        watchdog.close()
    assert time.monotonic() - began < 15
