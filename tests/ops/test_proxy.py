"""The documented nginx configuration routes websockets by table: a table's sockets on one process.

docs/deploy.md ("Scaling: several Daphne processes behind a proxy") promises that
`hash $uri consistent` sends every socket of one table (path `/ws/tables/<id>/`)
to the same Daphne, so a move's seats are served by the process that made it. Here
a real nginx runs the doc's own `map`, `upstream cardtable_ws` and `location /ws/`
blocks, copied out of the doc's ```nginx sample, in front of two real Daphnes that
share a fresh PostgreSQL database and a private Redis, as in the doc. Sixteen
tables of four are seated through it; the presence rows, which name the process
holding each socket, show where every socket landed.

A doc whose upstream balanced any other way (`least_conn`, round robin) splits a
table's seats over both processes, and `test_every_socket_of_a_table_is_served_by_one_process`
fails; `test_the_documented_websocket_upstream_hashes_by_table` fails on the text
itself and needs no servers, so it runs everywhere.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.ops.conftest import POSTGRES_ADMIN_URL, require_binary
from tests.ops.harness import (
    ROOT,
    Conn,
    DaphneServer,
    Database,
    FreshPostgres,
    RedisServer,
    free_port,
    play_move,
    seat_table,
    state_at_least,
    wait_port,
)

DEPLOY_DOC = ROOT / "docs" / "deploy.md"
TABLES = 16
SEATS = 4
AT_ONCE = 4  # tables seated concurrently: enough to interleave, gentle on two cores


def nginx_sample(doc: str) -> str:
    """The body of the doc's (single) ```nginx fenced block."""
    blocks = re.findall(r"^```nginx\n(.*?)^```", doc, re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, f"expected one ```nginx block in {DEPLOY_DOC}, found {len(blocks)}"
    return blocks[0]


def config_block(conf: str, head: str) -> str:
    """The block that starts with the directive `head` (a regex), from its name to its closing brace.

    Braces are counted, so nested blocks come along; the doc's sample has no brace
    inside a string or comment that would throw the count off.
    """
    found = re.search(rf"^[ \t]*{head}[^{{;]*{{", conf, re.MULTILINE)
    assert found, f"no block matching {head!r} in the doc's nginx sample"
    depth = 0
    for index in range(found.end() - 1, len(conf)):
        depth += {"{": 1, "}": -1}.get(conf[index], 0)
        if depth == 0:
            return conf[found.start() : index + 1].strip()
    raise AssertionError(f"the block {head!r} in the doc's nginx sample never closes")


@dataclass
class DocBlocks:
    """The three pieces of the doc's sample the websocket route is made of."""

    map: str
    upstream: str
    location: str


def doc_blocks() -> DocBlocks:
    """Copy the websocket route's blocks out of docs/deploy.md, verbatim."""
    sample = nginx_sample(DEPLOY_DOC.read_text())
    return DocBlocks(
        map=config_block(sample, r"map\s+\$http_upgrade\s"),
        upstream=config_block(sample, r"upstream\s+cardtable_ws\s"),
        location=config_block(sample, r"location\s+/ws/\s"),
    )


def test_the_documented_websocket_upstream_hashes_by_table() -> None:
    blocks = doc_blocks()
    # Comments may say anything: look at the directives only.
    directives = re.sub(r"#[^\n]*", "", blocks.upstream)
    assert re.search(r"^\s*hash\s+\$uri\s+consistent\s*;", directives, re.MULTILINE), blocks.upstream
    passes = re.search(r"^\s*proxy_pass\s+http://cardtable_ws\s*;", blocks.location, re.MULTILINE)
    assert passes, f"/ws/ does not go to the hashing upstream:\n{blocks.location}"


def nginx_conf(blocks: DocBlocks, prefix: Path, port: int, upstreams: list[int]) -> str:
    """A minimal nginx.conf of our own around the doc's blocks, with the doc's servers replaced by ours."""
    # The doc's `server host:port;` lines out, ours in before the closing brace.
    upstream, replaced = re.subn(r"^[ \t]*server\s+[^;{]+;[ \t]*\n", "", blocks.upstream, flags=re.MULTILINE)
    assert replaced, f"no server lines in the doc's upstream:\n{blocks.upstream}"
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in upstreams)
    upstream = upstream.removesuffix("}") + servers + "}"
    # As root the workers would run as `nobody`, who cannot enter pytest's private tmp dirs.
    user = "user root;\n" if os.geteuid() == 0 else ""
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = "\n".join(f"    {kind}_temp_path {prefix / kind};" for kind in kinds)
    return f"""{user}worker_processes 1;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} info;
events {{ worker_connections 1024; }}
http {{
    access_log {prefix / "access.log"};
{temp}

{blocks.map}

{upstream}

    server {{
        listen 127.0.0.1:{port};
        {blocks.location}
    }}
}}
"""


class Nginx:
    """nginx in the foreground of a child process, with every file it writes under one folder."""

    def __init__(self, binary: str, conf: str, prefix: Path, port: int) -> None:
        self.binary, self.prefix, self.port = binary, prefix, port
        self.conf_path = prefix / "nginx.conf"
        self.conf_path.write_text(conf)
        self.log = prefix / "error.log"
        self.proc: subprocess.Popen | None = None

    @property
    def ws_base(self) -> str:
        """The websocket base URL through the proxy."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start it and wait until it accepts connections; fail with its error log if it does not."""
        # -e: the error log from the first line on (otherwise the compiled-in /var/log path).
        args = [self.binary, "-p", str(self.prefix), "-c", str(self.conf_path), "-e", str(self.log)]
        with open(self.prefix / "nginx.out", "ab") as out:  # what it prints before its log is open
            self.proc = subprocess.Popen([*args, "-g", "daemon off;"], stdout=out, stderr=subprocess.STDOUT)
        if not wait_port(self.port, 10):
            self.stop()
            raise RuntimeError(f"nginx did not start on port {self.port}:\n{self.log_tail()}")

    def stop(self) -> None:
        """Fast shutdown (SIGTERM), then SIGKILL if it lingers; reap it."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    def log_tail(self, lines: int = 30) -> str:
        """The end of nginx's error log (and what it printed), for failure messages."""
        text = ""
        for path in (self.prefix / "nginx.out", self.log):
            text += path.read_text(errors="replace") if path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


@dataclass
class Deployment:
    """Two Daphnes on one database and Redis, and nginx in front of their websockets."""

    daphnes: list[DaphneServer]
    nginx: Nginx
    db: Database


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """The documented scaled deployment, on free loopback ports."""
    nginx_binary = require_binary("nginx")
    require_binary("redis-server")
    blocks = doc_blocks()
    nginx_port = free_port()
    redis = RedisServer()
    redis.start()
    try:
        with FreshPostgres(POSTGRES_ADMIN_URL, f"cardtable_ops_proxy_{os.getpid()}") as url:
            env = {
                "DATABASE_URL": url,
                "REDIS_URL": redis.url,
                # The doc's location passes `Host $host`, which drops the port: right for a
                # site on 443, but here the page's origin has nginx's port, so name it.
                "CSRF_TRUSTED_ORIGINS": f"http://127.0.0.1:{nginx_port}",
            }
            first, second = DaphneServer(env), DaphneServer(env)
            first.migrate()
            prefix = tmp_path_factory.mktemp("nginx")
            conf = nginx_conf(blocks, prefix, nginx_port, [first.port, second.port])
            nginx = Nginx(nginx_binary, conf, prefix, nginx_port)
            try:
                first.start()
                second.start()
                nginx.start()
                yield Deployment([first, second], nginx, Database(env))
            finally:
                nginx.stop()
                first.kill()
                second.kill()
    finally:
        redis.stop()


@pytest.mark.postgres
@pytest.mark.slow
async def test_every_socket_of_a_table_is_served_by_one_process(deployment: Deployment) -> None:
    daphnes, nginx, db = deployment.daphnes, deployment.nginx, deployment.db
    # The HTTP API straight to one Daphne (any process serves it); every websocket through nginx.
    seated: list[tuple[dict, list, list[Conn]]] = []
    for batch in range(0, TABLES, AT_ONCE):
        seated += await asyncio.gather(
            *(
                seat_table(daphnes[0].base, nginx.ws_base, "hearts", SEATS, prefix=f"t{t}p")
                for t in range(batch, min(batch + AT_ONCE, TABLES))
            )
        )
    try:
        # Which process holds each socket, from the server side: presence rows name it
        # `host:pid:boot`, written before the socket got its first state.
        by_pid = {server.proc.pid: index for index, server in enumerate(daphnes)}
        rows = db.query("SELECT table_id, player_id, process FROM tables_connection")
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
        counts = [list(placement.values()).count(i) for i in range(len(daphnes))]
        assert all(counts), f"tables per process {counts}: one process served every table"

        # A move through the proxy at a table on each process: all four seats get the new state.
        rng = random.Random(19)
        for process in range(len(daphnes)):
            table, _players, conns = next(s for s in seated if placement[s[0]["id"]] == process)
            version, _seat, _move = await play_move(conns, rng)
            for conn in conns:
                await conn.wait_for(state_at_least(version), 10)
            assert db.table(table["id"])["version"] == version
    finally:
        for _table, _players, conns in seated:
            for conn in conns:
                await conn.close()
