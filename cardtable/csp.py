"""The Content-Security-Policy every response carries: the site's own scripts, styles and websocket only.

No inline script or style runs: the pages load their scripts as modules from
``/static/`` and their styles from stylesheets there; a page's data travels in
``json_script`` blocks (``type="application/json"``, never executed); the page
scripts style elements through the CSSOM (``element.style``), which the policy
does not govern. So an injected ``<script>``, ``onerror=`` or ``style=`` does
nothing even where escaping were ever to fail (docs/security.md,
"Content-Security-Policy"). Django 5.2 has no CSP middleware of its own (6.0 does).
"""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import iscoroutinefunction
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

HEADER = "Content-Security-Policy"

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",  # data: for the favicon, drawn in the page's head
    "font-src": "'self'",
    "connect-src": "'self'",  # and the table's websocket on this host (``policy``)
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",  # as X-Frame-Options: DENY
}


def policy(request: HttpRequest) -> str:
    """The policy for a response to ``request``: ``POLICY``, with its own host's websocket named.

    ``'self'`` covers ws: and wss: of the page's host in CSP 3, but not in every
    browser yet, so the websocket's origin is named as well (the host passed
    ``ALLOWED_HOSTS``; a request whose host did not is served without it).
    """
    directives = dict(POLICY)
    try:
        host = request.get_host()
    except DisallowedHost:
        host = ""
    if host:
        scheme = "wss" if request.is_secure() else "ws"
        directives["connect-src"] += f" {scheme}://{host}"
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def _with_policy(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    if HEADER not in response:
        response[HEADER] = policy(request)
    return response


@sync_and_async_middleware
def content_security_policy(get_response: Callable) -> Callable:
    """Middleware: add the policy to every response that has none (sync or async, no thread hop)."""
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponse:
            return _with_policy(request, await get_response(request))

    else:

        def middleware(request: HttpRequest) -> HttpResponse:
            return _with_policy(request, get_response(request))

    return middleware
