"""The websocket handshake's ``Origin`` check: scheme, host and port, not the host alone.

A websocket has no CSRF token, so only the ``Origin`` header tells a page of
this site from another site's. Channels' ``AllowedHostsOriginValidator`` compares
the host name only, so ``http://127.0.0.1:9999`` (another program on the same
machine) and ``https://127.0.0.1`` passed for a site served on
``http://127.0.0.1:8822`` (docs/security.md S8). Here an origin is accepted when
it is the site's own: its host is in ``ALLOWED_HOSTS`` and its scheme, host and
port are those the handshake was sent to (the ``Host`` header, and https when the
connection is secure or, behind the proxy, ``X-Forwarded-Proto`` says so), or it
is listed exactly in ``CSRF_TRUSTED_ORIGINS``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(text: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin such as ``https://cards.example:8443``; ``None`` if malformed."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host or parts.path or parts.query or parts.fragment:
        return None
    return scheme, host, port or DEFAULT_PORTS[scheme]


def _secure(scope: dict, headers: dict[bytes, bytes]) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)  # trusted only when set (DEBUG off)
    if proxy:
        name, value = proxy
        header = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
        return headers.get(header, b"").decode("latin-1").split(",")[0].strip() == value
    return False


def origin_allowed(scope: dict) -> bool:
    """Whether the websocket handshake in ``scope`` comes from a page of this site."""
    headers = {name.lower(): value for name, value in scope.get("headers", [])}
    origin = _origin(headers.get(b"origin", b"").decode("latin-1"))
    if origin is None:
        return False
    trusted = {_origin(entry) for entry in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    if origin in trusted:
        return True
    host = origin[1]
    if not validate_host(f"[{host}]" if ":" in host else host, settings.ALLOWED_HOSTS):
        return False
    expected_scheme = "https" if _secure(scope, headers) else "http"
    target = _origin(f"{expected_scheme}://{headers.get(b'host', b'').decode('latin-1')}")
    return target == origin


class SameOriginValidator:
    """ASGI middleware: refuse (403) a websocket handshake whose ``Origin`` is not the site's own."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        """Route the connection on, or deny it before any consumer runs."""
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
