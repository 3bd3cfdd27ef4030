"""Run docs/deploy.md's nginx sample as written, and talk to the site through it as a browser would.

The sample is the doc's ```nginx fenced block. The test changes only what the doc
says it does: the `server` lines of the two upstreams (the Daphnes' ports), the two
`listen` ports and the two certificate paths (a self-signed certificate for the
sample's host name). Everything else runs verbatim inside a minimal `nginx.conf` of
our own (pid, logs and temporary files under one folder).

Clients reach nginx from an address of their own on the loopback network
(127.0.0.0/8 all reaches this host), so the address nginx sees differs from the one
it connects to Daphne from, and the test can tell which one the site counts.
"""

from __future__ import annotations

import functools
import http.client
import os
import re
import socket
import ssl
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from tests.ops.harness import ROOT, Conn, Player, wait_port

DEPLOY_DOC = ROOT / "docs" / "deploy.md"
# The sample's site, upstream servers, listen ports and certificate paths.
SITE = "cards.example.com"
DOC_UPSTREAMS = ("127.0.0.1:8001", "127.0.0.1:8002")
DOC_CERTIFICATE = f"/etc/letsencrypt/live/{SITE}/fullchain.pem"
DOC_KEY = f"/etc/letsencrypt/live/{SITE}/privkey.pem"


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


def _replace(text: str, pattern: str, new: str, count: int) -> str:
    """Replace a regex exactly `count` times, or fail naming what the doc lacks."""
    result, done = re.subn(pattern, new, text, flags=re.MULTILINE)
    assert done == count, f"expected {count} lines matching {pattern!r} in the doc's sample, found {done}"
    return result


def substitute(
    sample: str, upstreams: list[int], http_port: int, https_port: int, cert: Path, key: Path
) -> str:
    """The sample with the doc's ports and certificate paths replaced by the test's; nothing else."""
    conf = sample
    for doc_server, port in zip(DOC_UPSTREAMS, upstreams, strict=True):
        # Once in each upstream.
        conf = _replace(conf, rf"^(\s*server\s+){re.escape(doc_server)};", rf"\g<1>127.0.0.1:{port};", 2)
    conf = _replace(conf, r"^(\s*listen\s+)80;", rf"\g<1>127.0.0.1:{http_port};", 1)
    conf = _replace(conf, r"^(\s*listen\s+)443(\s)", rf"\g<1>127.0.0.1:{https_port}\g<2>", 1)
    conf = _replace(conf, rf"^(\s*ssl_certificate\s+){re.escape(DOC_CERTIFICATE)};", rf"\g<1>{cert};", 1)
    conf = _replace(conf, rf"^(\s*ssl_certificate_key\s+){re.escape(DOC_KEY)};", rf"\g<1>{key};", 1)
    return conf


def nginx_conf(sample: str, prefix: Path) -> str:
    """A minimal nginx.conf of our own with the (substituted) sample as its `http` block's content."""
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

{sample}
}}
"""


def self_signed_certificate(openssl: str, folder: Path) -> tuple[Path, Path]:
    """A certificate and key for the sample's host name, made with the openssl program."""
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        [
            *(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
            *("-subj", f"/CN={SITE}", "-addext", f"subjectAltName=DNS:{SITE}"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


class Nginx:
    """nginx in the foreground of a child process, with every file it writes under one folder."""

    def __init__(self, binary: str, conf: str, prefix: Path, http_port: int, https_port: int) -> None:
        self.binary, self.prefix = binary, prefix
        self.http_port, self.https_port = http_port, https_port
        self.conf_path = prefix / "nginx.conf"
        self.conf_path.write_text(conf)
        self.log = prefix / "error.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        """Start it and wait until both ports accept connections; fail with its error log if not."""
        # -e: the error log from the first line on (otherwise the compiled-in /var/log path).
        args = [self.binary, "-p", str(self.prefix), "-c", str(self.conf_path), "-e", str(self.log)]
        with open(self.prefix / "nginx.out", "ab") as out:  # what it prints before its log is open
            self.proc = subprocess.Popen([*args, "-g", "daemon off;"], stdout=out, stderr=subprocess.STDOUT)
        if not (wait_port(self.https_port, 10) and wait_port(self.http_port, 2)):
            self.stop()
            raise RuntimeError(
                f"nginx did not start on ports {self.http_port}, {self.https_port}:\n{self.log_tail()}"
            )

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


class _ToNginx(http.client.HTTPSConnection):
    """An HTTPS connection to `SITE` that dials nginx's port from a chosen source address."""

    def __init__(self, host: str, *, nginx_port: int, source: str, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        self.nginx_port, self.source = nginx_port, source

    def connect(self) -> None:
        """Connect to nginx instead of resolving the host name; TLS still checks the name."""
        sock = socket.create_connection(("127.0.0.1", self.nginx_port), self.timeout, (self.source, 0))
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class _NginxHandler(urllib.request.HTTPSHandler):
    """urllib's HTTPS handler, through `_ToNginx`, adding the client's own extra headers."""

    def __init__(
        self, context: ssl.SSLContext, nginx_port: int, source: str, headers: dict[str, str]
    ) -> None:
        super().__init__(context=context)
        self.context, self.nginx_port, self.source, self.headers = context, nginx_port, source, headers

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        """Open the request over a connection to nginx."""
        factory = functools.partial(_ToNginx, nginx_port=self.nginx_port, source=self.source)
        return self.do_open(factory, req, context=self.context)

    def https_request(self, req: urllib.request.Request) -> urllib.request.Request:
        """Add the extra headers (a forged X-Forwarded-For, say) to every request."""
        for name, value in self.headers.items():
            req.add_unredirected_header(name, value)
        return super().https_request(req)


class Browser(Player):
    """A player at https://cards.example.com, reached through nginx from one source address.

    `headers` go with every request and websocket handshake: a client may send any
    header, X-Forwarded-For included.
    """

    def __init__(
        self, nginx: Nginx, context: ssl.SSLContext, source: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(f"https://{SITE}")
        self.nginx, self.context, self.source = nginx, context, source
        self.headers = dict(headers or {})
        handler = _NginxHandler(context, nginx.https_port, source, self.headers)
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), handler)

    async def open_socket(self, table_ws: str) -> Conn:
        """The table's websocket through nginx, with the page's origin, this player's cookie and headers."""
        ws = await connect(
            f"wss://{SITE}{table_ws}",
            host="127.0.0.1",
            port=self.nginx.https_port,
            local_addr=(self.source, 0),
            ssl=self.context,
            origin=f"https://{SITE}",  # type: ignore[arg-type]
            additional_headers={"Cookie": self.cookie_header(), **self.headers},
            proxy=None,
            compression=None,
            open_timeout=20,
            ping_interval=None,
            max_size=2**22,
        )
        return Conn(ws)
