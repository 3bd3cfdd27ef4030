"""A guest registers from the lobby and lands on their page, on a laptop and on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, PHONE

pytestmark = [pytest.mark.browser]

SCREENS = {"laptop": {"viewport": {"width": 1280, "height": 800}}, "phone": PHONE}


@pytest.mark.parametrize("screen", SCREENS)
def test_a_guest_registers_from_the_lobby_and_sees_their_page(site_server, new_page, screen):
    page = new_page(**SCREENS[screen])
    name = f"Reg {screen}"
    page.goto(site_server.url + "/")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#who")).to_have_text(name)
    page.reload()  # the account bar is drawn by the server: now it knows the guest
    bar = page.get_by_role("navigation", name="Your account")
    expect(bar.get_by_role("link", name="Your games")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / f"lobby-account-bar-{screen}.png"))
    bar.get_by_role("link", name="Register").click()

    expect(page.get_by_role("heading", name="Register")).to_be_visible()
    expect(page.get_by_label("Your name")).to_have_value(name)  # the guest's name, offered
    page.get_by_label("Password", exact=True).fill("1234")
    page.get_by_label("Password confirmation").fill("1234")
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_role("alert").first).to_contain_text("too short")  # the validators speak
    page.screenshot(path=str(ARTIFACTS / f"register-refused-{screen}.png"), full_page=True)

    page.get_by_label("Password", exact=True).fill("green-felt-table-9")
    page.get_by_label("Password confirmation").fill("green-felt-table-9")
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    expect(page.get_by_role("link", name="Delete account")).to_be_visible()
    assert page.url.startswith(site_server.url + "/players/")
    wide = page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
    assert not wide, "the page scrolls sideways"
    page.screenshot(path=str(ARTIFACTS / f"player-page-{screen}.png"))

    page_url = page.url
    page.goto(site_server.url + "/")
    expect(page.get_by_role("navigation", name="Your account")).to_contain_text(f"Logged in as {name}")
    # At a table, a registered player's seat name links to their page.
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*/")
    link = page.locator("#seats a.seat-name")
    expect(link).to_have_text(f"{name} (you)")
    assert site_server.url + link.get_attribute("href") == page_url
    assert page.errors == []
