"""A name typed before the page's script has run is kept and taken: on a slow phone or a busy
server, a quick person fills "Your name" and presses Play while the script still loads."""

from __future__ import annotations

from contextlib import suppress

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Route, expect

pytestmark = pytest.mark.browser


def test_without_script_the_form_still_names_the_guest(site_server, new_page) -> None:
    page = new_page(java_script_enabled=False)
    page.goto(site_server.url + "/t/early1/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#who")).to_have_text("Ann")
    assert page.url == site_server.url + "/t/early1/"
    expect(page.locator("#name-form")).to_be_hidden()


def test_a_name_typed_while_the_script_waits_is_not_cleared(site_server, new_page) -> None:
    page = new_page()
    held: list[Route] = []

    def hold_first(route: Route) -> None:
        # The script asks who this session is before it takes the form over: keep it waiting.
        if not held:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/session/", hold_first)
    page.goto(site_server.url + "/")
    page.evaluate("localStorage.setItem('cardtable-name', 'Remembered')")
    page.get_by_label("Your name").fill("Bea")
    # The answer arrives after the typing: the script must not put its remembered name over it.
    held[0].continue_()
    expect(page.locator("#name-form[data-ready]")).to_have_count(1)
    expect(page.get_by_label("Your name")).to_have_value("Bea")
    with page.expect_request(lambda request: request.method == "POST") as posted:
        page.get_by_role("button", name="Play", exact=True).click()
    assert posted.value.url.endswith("/api/session/")  # the script's path, not the plain form's
    expect(page.locator("#who")).to_have_text("Bea")
    expect(page.get_by_role("button", name="Create table")).to_be_enabled()
    with suppress(PlaywrightError):
        page.unroute("**/api/session/")
