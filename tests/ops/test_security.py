"""The site's security rules, checked from outside against a real Daphne with DEBUG off.

docs/security.md lists each rule with the test that proves it; these are the ones
best seen from a client's side: websocket origins, staff-only pages, who may move
a seat, what a production error page shows, the response headers, and the
settings a production process refuses to start without.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus

from tests.ops.harness import ROOT, Conn, DaphneServer, Player, is_error, seat_table, settle

pytestmark = pytest.mark.slow

STAFF_PASSWORD = "staff-pw-8f3k2j5h"  # a throwaway account in a throwaway database
# What a production deploy sets at least (docs/deploy.md).
PRODUCTION_ENV = {
    "PATH": os.environ["PATH"],
    "DEBUG": "0",
    "SECRET_KEY": "kq8GZ2vQ7mX1pR4tW9yB3nL6hJ0sD5fA8cE2gK7iO4uY1wT6rV3",
    "ALLOWED_HOSTS": "cards.example.com",
}


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run a manage.py command with the server's settings."""
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaphneServer]:
    """A production-like server (DEBUG off) with a staff user and a plain registered user."""
    server = DaphneServer({"SQLITE_PATH": str(tmp_path_factory.mktemp("sec") / "db.sqlite3")})
    server.migrate()
    env = server.full_env() | {"DJANGO_SUPERUSER_PASSWORD": STAFF_PASSWORD}
    done = _manage(env, "createsuperuser", "--noinput", "--username", "staff", "--email", "staff@example.com")
    assert done.returncode == 0, done.stderr
    make_user = (
        "from django.contrib.auth.models import User; "
        f"User.objects.create_user('plain', 'plain@example.com', {STAFF_PASSWORD!r})"
    )
    done = _manage(env, "shell", "-c", make_user)
    assert done.returncode == 0, done.stderr
    server.start()
    try:
        yield server
    finally:
        server.kill()


def _login(server: DaphneServer, username: str) -> Player:
    """Log in through the admin's login form, as a browser would (CSRF token included)."""
    user = Player(server.base)
    user.request("GET", "/admin/login/")
    token = next(c.value for c in user.jar if c.name == "csrftoken")
    form = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": username, "password": STAFF_PASSWORD, "next": "/admin/"}
    ).encode()
    req = urllib.request.Request(server.base + "/admin/login/", data=form, method="POST")
    req.add_header("Content-Type", "application/x-www-form-urlencoded")
    req.add_header("Origin", server.base)
    req.add_header("Referer", server.base + "/admin/login/")
    with user.opener.open(req, timeout=15) as resp:
        resp.read()
    return user


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def _status(user: Player, path: str) -> tuple[int, str]:
    """GET a page without following redirects: (status, Location or body start)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(user.jar), _NoRedirect)
    try:
        with opener.open(user.base + path, timeout=15) as resp:
            return resp.status, resp.read(2000).decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Location") or exc.read(2000).decode(errors="replace")


@pytest.mark.parametrize("path", ["/admin/", "/staff/dashboard/"])
def test_admin_and_dashboard_are_for_staff_only(server: DaphneServer, path: str) -> None:
    anonymous = Player(server.base)
    guest = Player(server.base)
    guest.login("guest")
    plain = _login(server, "plain")  # a registered user who is not staff
    for who in (anonymous, guest, plain):
        status, where = _status(who, path)
        assert status == 302 and "/login/" in where, (path, status, where)
    staff = _login(server, "staff")
    status, body = _status(staff, path)
    assert status == 200, (status, body[:200])


async def test_a_websocket_from_another_origin_is_refused(server: DaphneServer) -> None:
    player = Player(server.base)
    await asyncio.to_thread(player.login, "ann")
    table = await asyncio.to_thread(player.create_table, "hearts", 4)
    other_port = server.port + 1 if server.port < 65535 else server.port - 1
    for origin in (
        "http://evil.example",
        "http://127.0.0.1.evil.example",
        "null",
        "",
        f"http://127.0.0.1:{other_port}",  # another port (docs/security.md S8)
        "https://127.0.0.1",  # another scheme
        f"https://127.0.0.1:{server.port}",
    ):
        with pytest.raises(InvalidStatus) as refused:
            await Conn.open(server.ws_base, table["ws"], player, origin=origin)
        assert refused.value.response.status_code == 403, origin
    conn = await Conn.open(server.ws_base, table["ws"], player)  # the site's own origin is accepted
    state = await conn.wait_for(lambda m: m.get("type") == "state")
    assert state["table"]["id"] == table["id"]
    await conn.close()


async def test_a_seat_is_moved_only_by_its_player(server: DaphneServer) -> None:
    table, _, conns = await seat_table(server.base, server.ws_base, "hearts", 4, "sec")
    await settle(conns)
    # Finish the pass so exactly one seat is to act.
    for conn in conns:
        await settle(conns)
        move = conn.state["legal_moves"][0]
        await conn.request({"type": "move", "move": move, "version": conn.state["version"]}, lambda m: True)
    version = await settle(conns)
    (mover,) = conns[0].state["to_act"]
    legal = conns[mover].state["legal_moves"][0]
    other = (mover + 1) % 4
    outsider = Player(server.base)
    await asyncio.to_thread(outsider.login, "outsider")
    intruder = await Conn.open(server.ws_base, table["ws"], outsider)
    spectator = await Conn.open(server.ws_base, table["ws"], None)
    attempts = [
        (conns[other], "not_your_turn"),  # another seat, naming the mover's seat: the seat field is ignored
        (intruder, "not_seated"),  # a player without a seat here
        (spectator, "no_player"),  # no player at all
    ]
    for conn, code in attempts:
        await conn.wait_for(lambda m: m.get("type") == "state")
        msg = {"type": "move", "move": legal, "version": version, "seat": mover, "id": code}
        reply = await conn.request(msg, is_error)
        assert reply["code"] == code and reply["id"] == code, reply
    await asyncio.sleep(0.2)
    assert all(c.state["version"] == version for c in conns), "the table changed"
    for conn in [*conns, intruder, spectator]:
        await conn.close()


def test_production_error_pages_show_no_internals(server: DaphneServer) -> None:
    status, body = _status(Player(server.base), "/no/such/page/")
    assert status == 404
    for leak in ("Traceback", "urlpatterns", "DEBUG = True", "settings.py", "SECRET_KEY"):
        assert leak not in body, leak


def test_responses_carry_the_security_headers(server: DaphneServer) -> None:
    with urllib.request.urlopen(server.base + "/api/games/", timeout=15) as resp:
        headers = resp.headers
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"


def _settings(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh process with only these variables; print the security ones."""
    code = (
        "import json, django; from django.conf import settings as s; django.setup(); print(json.dumps({k: "
        "getattr(s, k) for k in ['DEBUG', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', "
        "'SESSION_COOKIE_HTTPONLY', 'SESSION_COOKIE_SAMESITE', 'CSRF_COOKIE_SAMESITE', 'ALLOWED_HOSTS']}))"
    )
    clean = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "cardtable.settings", **env}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True)


def test_production_refuses_to_start_without_a_secret_key() -> None:
    done = _settings({"DEBUG": "0", "ALLOWED_HOSTS": "cards.example.com"})
    assert done.returncode != 0 and "SECRET_KEY must be set" in done.stderr


def test_production_cookies_are_secure_httponly_and_same_site() -> None:
    done = _settings({"DEBUG": "0", "SECRET_KEY": "k" * 50, "ALLOWED_HOSTS": "cards.example.com"})
    assert done.returncode == 0, done.stderr
    flags = json.loads(done.stdout)
    assert flags["DEBUG"] is False
    assert flags["SESSION_COOKIE_SECURE"] and flags["CSRF_COOKIE_SECURE"] and flags["SESSION_COOKIE_HTTPONLY"]
    assert flags["SESSION_COOKIE_SAMESITE"] == flags["CSRF_COOKIE_SAMESITE"] == "Lax"
    assert flags["ALLOWED_HOSTS"] == ["cards.example.com"]


def test_check_deploy_warns_only_about_what_the_https_proxy_provides() -> None:
    done = _manage(PRODUCTION_ENV, "check", "--deploy")
    warnings = set(re.findall(r"\(security\.(W\d+)\)", done.stdout + done.stderr))
    # W004 (HSTS) and W008 (HTTPS redirect): the TLS proxy's job, docs/deploy.md.
    assert warnings == {"W004", "W008"}, done.stdout + done.stderr


def test_check_deploy_is_clean_when_the_https_settings_come_from_the_environment() -> None:
    """A site without a TLS proxy sets the HTTPS settings itself; then nothing is left to warn about."""
    env = {
        **PRODUCTION_ENV,
        "SECURE_SSL_REDIRECT": "1",
        "SECURE_HSTS_SECONDS": "31536000",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
        "SECURE_HSTS_PRELOAD": "1",
    }
    done = _manage(env, "check", "--deploy")
    assert done.returncode == 0, done.stderr
    assert "System check identified no issues" in done.stdout, done.stdout + done.stderr


def test_no_page_or_script_turns_text_into_html() -> None:
    """Chat and names reach the page only as text: no template marks text safe, no script writes HTML."""
    risky_js = re.compile(r"\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write")
    # mark_safe of a constant string literal (such as "<br>") is harmless; anything else is flagged.
    risky_templates = re.compile(r"\|\s*safe\b|autoescape\s+off|mark_safe\((?!\s*\"[^\"{}]*\"\s*\))")
    # Reviewed: the dashboard's SVG charts pass every label through escape() before mark_safe,
    # and test_hostile_names_and_chat_are_escaped_on_staff_pages renders them with hostile names.
    reviewed = {Path("cardtable/dashboard/charts.py")}
    for path in (ROOT / "static").rglob("*.js"):
        assert not risky_js.search(path.read_text()), path
    for folder in (ROOT / "templates", ROOT / "cardtable"):
        for path in folder.rglob("*"):
            if path.suffix in {".html", ".py"} and "migrations" not in path.parts:
                if path.relative_to(ROOT) in reviewed:
                    continue
                text = path.read_text()
                for match in risky_templates.finditer(text):
                    line = text[: match.start()].count("\n") + 1
                    raise AssertionError(f"{path.relative_to(ROOT)}:{line} marks text as safe HTML")


HOSTILE_NAME = "<img src=x onerror=1>"
HOSTILE_CHAT = "<script>alert('chat')</script>"


async def test_hostile_names_and_chat_are_escaped_on_staff_pages(server: DaphneServer) -> None:
    """A guest named like an HTML tag plays a game and chats one; staff pages show the text, not the tag."""
    players = [Player(server.base) for _ in range(4)]
    for i, player in enumerate(players):
        await asyncio.to_thread(player.login, HOSTILE_NAME if i == 0 else f"x{i}")
    table = await asyncio.to_thread(players[0].create_table, "hearts", 4)
    conns = [await Conn.open(server.ws_base, table["ws"], p) for p in players]
    for i, conn in enumerate(conns):
        await conn.wait_for(lambda m: m.get("type") == "state")
        await conn.request({"type": "sit", "seat": i}, lambda m, i=i: m.get("you", {}).get("seat") == i)
    await conns[0].request({"type": "start"}, lambda m: m.get("table", {}).get("status") == "playing")
    line = await conns[1].request({"type": "chat", "text": HOSTILE_CHAT}, lambda m: m.get("type") == "chat")
    assert line["text"] == HOSTILE_CHAT  # kept as text in JSON; escaping is the page's job
    for conn in conns:
        await conn.close()
    staff = await asyncio.to_thread(_login, server, "staff")
    shown = {}
    for path in ("/staff/dashboard/", "/admin/tables/chatmessage/", "/admin/tables/player/"):
        status, body = await asyncio.to_thread(_page, staff, path)
        assert status == 200, (path, status)
        assert HOSTILE_NAME not in body and HOSTILE_CHAT not in body, path
        shown[path] = body
    # Not vacuous: the text is on the pages, escaped.
    assert "&lt;img src=x onerror=1&gt;" in shown["/admin/tables/player/"]
    assert "&lt;script&gt;alert(" in shown["/admin/tables/chatmessage/"]


def _page(user: Player, path: str) -> tuple[int, str]:
    """GET a whole page with the user's cookies."""
    try:
        with user.opener.open(user.base + path, timeout=15) as resp:
            return resp.status, resp.read().decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")
