"""Every page works under the Content-Security-Policy, in Chromium, and none reports a violation.

Each page is opened with a listener for ``securitypolicyviolation`` installed
before any of its scripts, and Chromium's console is watched for its "Refused
to ..." lines: the lobby, a table in play (motion allowed, so the cards fly),
the replay with its review, a table's games, the account pages, a player's
page, the leaderboards, the staff dashboard and RECYCLE games, and the admin.
Each page is also checked to have done its work (its script ran), since a
blocked script reports a violation but a page could also just stay empty.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser import driver
from tests.browser.conftest import ROOT, LiveServer, _new_server
from tests.server.helpers import short_options

pytestmark = pytest.mark.browser

PASSWORD = "felt-and-paper-42"

# A registered player, Reg, hosts a Hearts game played out, reviewed and ended; a staff account, boss.
SCRIPT = """
import random
from django.contrib.auth.models import User
from cardtable.reviews import jobs
from cardtable.reviews.models import Review
from games.bots.review import ReviewConfig, review as review_seat
from cardtable.tables.authority import moving, seating, staff
from cardtable.tables.models import Match, MoveRecord, Player, Table
from games import get_game
User.objects.create_superuser("boss", password=PASSWORD)
host = Player.objects.create(name="Reg", user=User.objects.create_user("Reg", password=PASSWORD))
table = seating.create_table(host, "hearts", None, OPTIONS, seated=True)
for seat in (1, 2, 3):
    seating.add_bot(table.pk, host, seat, "random")
seating.start(table.pk, host)
rng, game = random.Random(4), get_game("hearts")
table = Table.objects.get(pk=table.pk)
while table.status == Table.PLAYING:
    state = game.from_json(table.state)
    seat = game.to_act(state)[0]
    by = MoveRecord.HUMAN if seat == 0 else MoveRecord.BOT
    moving.apply_move(table.pk, rng.choice(game.legal_moves(state, seat)), table.version, seat=seat, by=by)
    table = Table.objects.get(pk=table.pk)
# Reviewed here, as the job's child would (a child runs only on idle CPU, which a busy machine lacks).
for row in jobs.queue_match(Match.objects.get(table=table, number=1)):
    job = jobs.job_of(row)
    config = ReviewConfig(**job["config"])
    figures = review_seat(game, job["players"], job["options"], job["seed"], job["log"], row.seat, config)
    Review.objects.filter(pk=row.pk).update(
        status=Review.DONE, unit=figures["unit"], reviewed=figures["reviewed"],
        total_cost=figures["total_cost"], average_cost=figures["average_cost"], figures=figures, seconds=1.0,
    )
staff.end_table(table.pk)  # the table's play over: everyone may see its reviews
print("table:", table.pk, "player:", host.pk)
"""

LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """A server of this module's own."""
    yield from _new_server()


@pytest.fixture(scope="module")
def played(server: LiveServer) -> tuple[str, str]:
    """(table id, player id) of Reg's finished, reviewed game."""
    script = SCRIPT.replace("OPTIONS", repr(short_options("hearts"))).replace("PASSWORD", repr(PASSWORD))
    env = {**server.env(), "REVIEW_JOBS": "0", "REVIEW_PLAYOUTS": "10"}
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=900,
    ).stdout
    words = out.split()
    return words[words.index("table:") + 1], words[words.index("player:") + 1]


def watched(new_page, **options) -> Page:
    """A page that records every CSP violation: the events, and Chromium's console lines."""
    page = new_page(bypass_csp=False, **options)  # the policy as a visitor's browser applies it
    page.add_init_script(LISTEN)
    page.refusals = []
    page.on(
        "console",
        lambda message: (
            page.refusals.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    return page


def visit(page: Page, url: str, ready: str) -> None:
    """Open ``url``, wait until ``ready`` (a selector the page's work shows), and check no violation."""
    response = page.goto(url)
    assert response is not None and response.status == 200, (url, response and response.status)
    assert "Content-Security-Policy" in {name.title() for name in response.headers}
    page.locator(ready).first.wait_for(state="attached")
    page.wait_for_timeout(300)  # a late script or style gets its chance to be refused
    assert_clean(page, url)


def assert_clean(page: Page, where: str) -> None:
    """No violation reported on the page so far, and no script error."""
    events = page.evaluate("window.__csp")
    assert events == [] and page.refusals == [], (where, events, page.refusals)
    assert page.errors == [], (where, page.errors)


def log_in(page: Page, base: str, path: str, name: str) -> None:
    """Log in through a login form (the site's or the admin's)."""
    page.goto(base + path)
    page.locator("input[name=username]").fill(name)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[type=submit], button[type=submit]").last.click()
    page.wait_for_load_state()


def test_a_table_in_play_works_under_the_policy(server: LiveServer, new_page) -> None:
    page = watched(new_page, reduced_motion="no-preference")  # cards fly: animate.js styles them
    visit(page, server.url + "/", "#main")
    driver.choose_name(page, "Csp")
    driver.create_table(page, "hearts", options=None)
    assert_clean(page, "the table, waiting")
    driver.sit(page)
    driver.fill_with_bots(page, "random")
    driver.start(page)
    rng, moved = random.Random(1), 0
    for _ in range(40):
        moved += driver.take_turn(page, rng)
        if moved >= 3:
            break
    assert moved >= 3
    assert_clean(page, "the table in play")


def test_every_other_page_works_under_the_policy(
    server: LiveServer, played: tuple[str, str], new_page
) -> None:
    table, player = played
    base = server.url
    page = watched(new_page)
    visit(page, f"{base}/replay/{table}/1/", "#step-label")
    # (Not wait_for_function: Playwright evaluates its text with eval, which the policy refuses.)
    expect(page.locator("body")).to_have_attribute("data-review", "ready")
    page.get_by_role("button", name="Review", exact=True).click()
    page.locator(".rv-jump").first.wait_for(state="visible")
    page.get_by_role("button", name="Forward one move").click()
    assert_clean(page, "the replay and its review")
    visit(page, f"{base}/replay/{table}/", "main")
    visit(page, f"{base}/ratings/", "main")
    visit(page, f"{base}/ratings/hearts/", "main")
    visit(page, f"{base}/accounts/register/", "form")
    log_in(page, base, "/accounts/login/", "Reg")
    assert_clean(page, "logging in")
    visit(page, f"{base}/players/{player}/", "main")
    visit(page, f"{base}/accounts/password/", "form")
    visit(page, f"{base}/accounts/delete/", "form")
    staff = watched(new_page)
    log_in(staff, base, "/admin/login/", "boss")
    expect(staff.locator("#user-tools")).to_contain_text("boss")
    assert_clean(staff, "the admin's login")
    visit(staff, f"{base}/admin/", ".dashboard-link")
    assert staff.locator(".dashboard-link").evaluate("e => getComputedStyle(e).fontSize") == "16px"
    visit(staff, f"{base}/admin/tables/table/", "#changelist")
    visit(staff, f"{base}/admin/tables/table/{table}/change/", "form")
    visit(staff, f"{base}/admin/auth/user/", "#changelist")
    visit(staff, f"{base}/staff/dashboard/", "main, #content")
    staff.locator("svg.chart").first.wait_for(state="attached")
    width = staff.locator("svg.chart").first.evaluate("e => e.getBoundingClientRect().width")
    assert 0 < width <= 640  # sized by the stylesheet, no style attribute
    visit(staff, f"{base}/staff/games/", "main, #content")
