"""docs/deploy.md's nginx configuration, run as written in front of two Daphnes.

The doc's ```nginx sample is extracted from the document and run by a real nginx
with only its upstream ports, listen ports and certificate paths substituted
(`tests/ops/nginx.py`), in front of two Daphnes started as the doc starts them
(`--proxy-headers`, `DEBUG` off, rate limits on) sharing a fresh PostgreSQL database
and a private Redis. Through it, as a browser at https://cards.example.com would:

- plain HTTP is redirected; the lobby page, the JSON API with its CSRF check and
  a game over websockets work (a sample whose locations drop the server's
  `Host` gets `400` from Django for every page and API call);
- every socket of a table reaches one process (`hash $uri consistent`);
- the address the site counts (Daphne's client address, which the per-address
  limits use) is the one nginx saw, whatever X-Forwarded-For the client sends.

`test_the_documented_websocket_upstream_hashes_by_table` and
`test_only_ports_and_certificates_are_substituted` read the text only and run
everywhere.
"""

from __future__ import annotations

import asyncio
import http.client
import os
import random
import re
import ssl
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.ops.conftest import POSTGRES_ADMIN_URL, require_binary
from tests.ops.harness import (
    Conn,
    DaphneServer,
    Database,
    FreshPostgres,
    RedisServer,
    free_port,
    is_error,
    play_move,
    sit_and_start,
    state_at_least,
)
from tests.ops.nginx import (
    DEPLOY_DOC,
    SITE,
    Browser,
    Nginx,
    config_block,
    nginx_conf,
    nginx_sample,
    self_signed_certificate,
    substitute,
)

TABLES = 16
SEATS = 4
AT_ONCE = 4  # tables seated concurrently: enough to interleave, gentle on two cores


def test_the_documented_websocket_upstream_hashes_by_table() -> None:
    sample = nginx_sample(DEPLOY_DOC.read_text())
    upstream = config_block(sample, r"upstream\s+cardtable_ws\s")
    # Comments may say anything: look at the directives only.
    directives = re.sub(r"#[^\n]*", "", upstream)
    assert re.search(r"^\s*hash\s+\$uri\s+consistent\s*;", directives, re.MULTILINE), upstream
    location = config_block(sample, r"location\s+/ws/\s")
    passes = re.search(r"^\s*proxy_pass\s+http://cardtable_ws\s*;", location, re.MULTILINE)
    assert passes, f"/ws/ does not go to the hashing upstream:\n{location}"


def test_only_ports_and_certificates_are_substituted() -> None:
    sample = nginx_sample(DEPLOY_DOC.read_text())
    conf = substitute(sample, [9001, 9002], 9080, 9443, Path("/t/cert.pem"), Path("/t/key.pem"))
    changed = [
        (old, new) for old, new in zip(sample.splitlines(), conf.splitlines(), strict=True) if old != new
    ]
    # Four upstream servers, two listen ports, two certificate paths; every other line as written.
    assert len(changed) == 8, changed
    assert all(
        re.match(r"\s*(server|listen|ssl_certificate|ssl_certificate_key)\s", old) for old, _ in changed
    )


@dataclass
class Deployment:
    """Two Daphnes on one database and Redis, the doc's nginx in front, and what a client needs."""

    daphnes: list[DaphneServer]
    access_logs: list[Path]
    nginx: Nginx
    db: Database
    context: ssl.SSLContext

    def browser(self, source: str, headers: dict[str, str] | None = None) -> Browser:
        """A new browser reaching the site from `source` (an address on the loopback network)."""
        return Browser(self.nginx, self.context, source, headers)

    def log_sizes(self) -> list[int]:
        """How far each Daphne's access log reaches now."""
        return [path.stat().st_size if path.exists() else 0 for path in self.access_logs]

    def clients_since(self, sizes: list[int]) -> list[str]:
        """The client address of every access-log line written since `sizes`, from both Daphnes.

        Daphne logs the address it hands the application (`scope["client"]`, Django's
        `REMOTE_ADDR`): the one the per-address limits count by.
        """
        clients = []
        for path, size in zip(self.access_logs, sizes, strict=True):
            with open(path, "rb") as log:
                log.seek(size)
                for line in log.read().decode(errors="replace").splitlines():
                    clients.append(line.split(" ", 1)[0].rsplit(":", 1)[0])
        return clients


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """The documented scaled deployment, on free loopback ports."""
    nginx_binary = require_binary("nginx")
    openssl = require_binary("openssl")
    require_binary("redis-server")
    sample = nginx_sample(DEPLOY_DOC.read_text())
    prefix = tmp_path_factory.mktemp("nginx")
    cert, key = self_signed_certificate(openssl, prefix)
    context = ssl.create_default_context(cafile=str(cert))
    redis = RedisServer()
    redis.start()
    try:
        with FreshPostgres(POSTGRES_ADMIN_URL, f"cardtable_ops_proxy_{os.getpid()}") as url:
            env = {
                "DATABASE_URL": url,
                "REDIS_URL": redis.url,
                "ALLOWED_HOSTS": SITE,
                "SECURE_COOKIES": "1",
                "RATE_LIMITS": "1",
            }
            logs = [prefix / "daphne-0.access.log", prefix / "daphne-1.access.log"]
            daphnes = [DaphneServer(env, args=["--proxy-headers", "--access-log", str(log)]) for log in logs]
            daphnes[0].migrate()
            http_port, https_port = free_port(), free_port()
            conf = substitute(sample, [d.port for d in daphnes], http_port, https_port, cert, key)
            nginx = Nginx(nginx_binary, nginx_conf(conf, prefix), prefix, http_port, https_port)
            try:
                for daphne in daphnes:
                    daphne.start()
                nginx.start()
                yield Deployment(daphnes, logs, nginx, Database(env), context)
            finally:
                nginx.stop()
                for daphne in daphnes:
                    daphne.kill()
    finally:
        redis.stop()


async def seat_table(site: Deployment, source: str, prefix: str) -> tuple[dict, list[Browser], list[Conn]]:
    """Through nginx: four guests from `source` make a table of Hearts, sit and start it."""
    players = [site.browser(source) for _ in range(SEATS)]
    await asyncio.gather(*(asyncio.to_thread(p.login, f"{prefix}{i}") for i, p in enumerate(players)))
    table = await asyncio.to_thread(players[0].create_table, "hearts", SEATS)
    conns = [await p.open_socket(table["ws"]) for p in players]
    await sit_and_start(conns)
    return table, players, conns


@pytest.mark.postgres
@pytest.mark.slow
async def test_pages_the_api_and_a_game_work_through_the_documented_proxy(deployment: Deployment) -> None:
    site = deployment
    # Plain HTTP goes to HTTPS.
    plain = http.client.HTTPConnection(
        "127.0.0.1", site.nginx.http_port, timeout=10, source_address=("127.0.2.1", 0)
    )
    plain.request("GET", "/api/games/", headers={"Host": SITE})
    answer = plain.getresponse()
    assert (answer.status, answer.getheader("Location")) == (301, f"https://{SITE}/api/games/")
    plain.close()

    browser = site.browser("127.0.2.1")
    status, page = await asyncio.to_thread(browser.request, "GET", "/")
    assert status == 200 and "<html" in page.lower(), (status, str(page)[:300])
    status, games = await asyncio.to_thread(browser.request, "GET", "/api/games/")
    assert status == 200 and "hearts" in str(games), (status, games)
    # The API's CSRF check holds behind the proxy: without the token a POST is refused.
    await asyncio.to_thread(browser.login, "Through")
    status, refused = await asyncio.to_thread(
        browser.request, "POST", "/api/tables/", {"game": "hearts"}, csrf=False
    )
    assert (status, refused["error"]["code"]) == (403, "csrf"), (status, refused)
    made = await asyncio.to_thread(browser.create_table, "hearts", SEATS)
    assert made["ws"] == f"/ws/tables/{made['id']}/", made
    # Sessions and CSRF cookies are Secure: Django knows the request came over HTTPS.
    assert all(cookie.secure for cookie in browser.jar), [c.name for c in browser.jar if not c.secure]

    table, _players, conns = await seat_table(site, "127.0.2.2", "game")
    try:
        version, _seat, _move = await play_move(conns, random.Random(7))
        for conn in conns:
            await conn.wait_for(state_at_least(version), 10)
        assert site.db.table(table["id"])["version"] == version
    finally:
        for conn in conns:
            await conn.close()


@pytest.mark.postgres
@pytest.mark.slow
async def test_every_socket_of_a_table_is_served_by_one_process(deployment: Deployment) -> None:
    site = deployment
    seated: list[tuple[dict, list[Browser], list[Conn]]] = []
    for batch in range(0, TABLES, AT_ONCE):
        # One source address per table: the site's per-address limits stay out of the way.
        seated += await asyncio.gather(
            *(
                seat_table(site, f"127.0.1.{t + 1}", f"t{t}p")
                for t in range(batch, min(batch + AT_ONCE, TABLES))
            )
        )
    try:
        # Which process holds each socket, from the server side: presence rows name it
        # `host:pid:boot`, written before the socket got its first state.
        by_pid = {server.proc.pid: index for index, server in enumerate(site.daphnes)}
        rows = site.db.query("SELECT table_id, player_id, process FROM tables_connection")
        where: dict[str, list[int]] = defaultdict(list)
        for table_id, _player_id, process in rows:
            where[str(table_id)].append(by_pid[int(process.split(":")[1])])
        placement = {}
        for table, players, _conns in seated:
            on = where[str(table["id"])]
            assert len(on) == SEATS, f"table {table['id']}: {len(on)} presence rows for {SEATS} sockets"
            assert len(set(on)) == 1, f"table {table['id']}'s sockets split over processes {on}"
            placement[table["id"]] = on[0]
            assert {r[1] for r in rows if str(r[0]) == str(table["id"])} == {p.player["id"] for p in players}
        # Both processes serve tables. nginx's consistent hash puts 160 points per
        # server on a ring of CRC32s (seeded by "host\0port") and sends a key to the
        # first point at or after CRC32(key). Table ids are random, so each table
        # lands on process 0 with probability p, the share of the ring its points
        # own, which depends only on the two ports. Computed from nginx's rule for
        # 3,000 random port pairs: p from 0.40 to 0.59 (sd 0.028). All 16 tables on
        # one process then has probability p**16 + (1-p)**16: 3e-5 at p = 1/2, at
        # most 3e-4 for any pair seen. A failure here is a broken route, not bad luck.
        counts = [list(placement.values()).count(i) for i in range(len(site.daphnes))]
        assert all(counts), f"tables per process {counts}: one process served every table"

        # A move through the proxy at a table on each process: all four seats get the new state.
        rng = random.Random(19)
        for process in range(len(site.daphnes)):
            table, _players, conns = next(s for s in seated if placement[s[0]["id"]] == process)
            version, _seat, _move = await play_move(conns, rng)
            for conn in conns:
                await conn.wait_for(state_at_least(version), 10)
            assert site.db.table(table["id"])["version"] == version
    finally:
        for _table, _players, conns in seated:
            for conn in conns:
                await conn.close()


def forged(index: int) -> dict[str, str]:
    """Headers a client forges to look like another address each time."""
    return {
        "X-Forwarded-For": f"10.66.0.{index}",
        "X-Real-IP": f"10.66.1.{index}",
        "Forwarded": f"for=10.66.2.{index}",
    }


@pytest.mark.postgres
@pytest.mark.slow
async def test_the_address_that_counts_is_the_one_nginx_saw(deployment: Deployment) -> None:
    site = deployment
    sizes = site.log_sizes()
    # Four players at 127.0.3.1, each forging a different X-Forwarded-For on every
    # request and handshake, watch one table; a fifth at 127.0.3.2 watches too.
    forgers = [site.browser("127.0.3.1", forged(i)) for i in range(4)]
    other = site.browser("127.0.3.2")
    for index, player in enumerate([*forgers, other]):
        await asyncio.to_thread(player.login, f"addr{index}")
    table = await asyncio.to_thread(other.create_table, "hearts", SEATS)
    conns = [await player.open_socket(table["ws"]) for player in forgers]
    watcher = await other.open_socket(table["ws"])
    try:
        for conn in [*conns, watcher]:
            await conn.wait_for(lambda m: m.get("type") == "state", 30)
        # Each forger sends 5 lines at once: within each player's own chat burst, twice
        # the address's burst of 10 (docs/security.md S5) if all four count as one address.
        lines = [(conn, f"line {who}.{n}") for who, conn in enumerate(conns) for n in range(5)]
        await asyncio.gather(*(conn.send({"type": "chat", "text": text, "id": text}) for conn, text in lines))
        sent = {text for _conn, text in lines}

        def settled() -> tuple[set[str], set[str]]:
            shown = {m["text"] for m in watcher.messages if m.get("type") == "chat" and m["text"] in sent}
            refused = {
                m.get("id") for conn in conns for m in conn.messages if is_error(m) and m.get("id") in sent
            }
            return shown, refused

        for _ in range(200):
            shown, refused = settled()
            if len(shown | refused) == len(sent):
                break
            await asyncio.sleep(0.05)
        assert len(shown | refused) == len(sent), (len(shown), len(refused))
        codes = {m["code"] for conn in conns for m in conn.messages if is_error(m) and m.get("id") in sent}
        assert refused and codes == {"rate_limited"}, (len(refused), codes)
        # Another address is unaffected.
        reply = await watcher.request(
            {"type": "chat", "text": "from elsewhere"},
            lambda m: is_error(m) or (m.get("type") == "chat" and m["text"] == "from elsewhere"),
        )
        assert reply["type"] == "chat", reply
    finally:
        for conn in [*conns, watcher]:
            await conn.close()
    # What Daphne handed the application, for every request and handshake of this test:
    # the address nginx saw, never a forged one.
    clients = site.clients_since(sizes)
    assert clients and set(clients) == {"127.0.3.1", "127.0.3.2"}, sorted(set(clients))
