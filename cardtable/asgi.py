"""ASGI entry point: HTTP through Django, websockets through the table consumer.

The bot driver resumes every game when the server starts: under Daphne as soon
as its reactor runs (so bots play on after a restart even before anyone
connects), and in any ASGI server on the first connection or request.
"""

import gc
import os
import sys
from collections.abc import Awaitable, Callable

from django.core.asgi import get_asgi_application
from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardtable.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from cardtable.tables.autoplay.driver import driver  # noqa: E402
from cardtable.tables.dbthreads import close_request_connections  # noqa: E402
from cardtable.tables.live.admission import Admission  # noqa: E402
from cardtable.tables.live.arrival import auth_stack  # noqa: E402
from cardtable.tables.live.origin import SameOriginValidator  # noqa: E402
from cardtable.tables.live.routing import websocket_urlpatterns  # noqa: E402

# What is loaded by now (Django, the games, the routes: about 135,000 objects)
# lives as long as the process. Frozen, a full collection no longer walks it; at
# 1,000 sockets such a collection still stopped every thread for about 150 ms,
# against 160 to 185 ms without this (docs/performance.md, "What limits it now").
gc.collect()
gc.freeze()
# A collection of the youngest objects every 20,000 allocations instead of 700:
# far fewer of a move's short-lived objects are still alive when one runs, so far
# fewer reach the oldest generation, whose full collections walk every socket's
# objects. Over 1,000 connects and a minute of play at 250 to 600 moves/s there
# were 13 full collections (15 to 98 ms, longer as sockets accumulated) with the
# default and none with this, in two runs each, for about 5 MiB more memory
# (docs/performance.md, "What limits it now"). It relies on nothing waiting for
# the collector to close it: see dbthreads.close_request_connections below.
YOUNG_COLLECTION_THRESHOLD = 20_000
gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])

# Each HTTP request runs on a thread of its own, whose connection nothing reuses.
request_finished.connect(close_request_connections, sender=ASGIHandler)

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The Origin must be the site's own: scheme, host and port (docs/security.md S8). Then
        # the process's gate admits the handshakes it can serve in time, before any database call.
        "websocket": SameOriginValidator(Admission(auth_stack(URLRouter(websocket_urlpatterns)))),
    }
)


Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]


async def application(scope: dict, receive: Receive, send: Send) -> None:
    """Start the bot driver on this loop if needed, then route the scope."""
    driver.ensure_started()
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    await router(scope, receive, send)


# Daphne installs Twisted's asyncio reactor before it imports this module.
if "daphne.server" in sys.modules and "twisted.internet.reactor" in sys.modules:
    from twisted.internet import reactor

    from cardtable.tables.live import shutdown

    reactor.callWhenRunning(driver.ensure_started)
    # After Twisted's own handlers (installed as the reactor starts): SIGTERM drains first.
    reactor.callWhenRunning(shutdown.install)

    # Autobahn (Daphne's WebSocket protocol) pretty-prints its 29 settings for a debug
    # line on every new WebSocket, whether the line is logged or not: 0.16 ms a
    # handshake, about 4 % of a reconnect storm's CPU (docs/performance.md).
    import autobahn.websocket.protocol as autobahn_protocol

    autobahn_protocol.pformat = repr
