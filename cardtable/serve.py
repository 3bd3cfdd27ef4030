"""Serve the site with Daphne for `make run`, and say once where to open it.

`python -m cardtable.serve --host 127.0.0.1 --port 8000` runs the same ASGI
application as `daphne cardtable.asgi:application`, without the access log, and
prints one line with the address when the port listens (not before: the line
means the page will answer). Production runs Daphne itself (Dockerfile).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


def main(argv: list[str] | None = None) -> None:
    """Parse the address, start Daphne on it and announce it once it listens."""
    parser = argparse.ArgumentParser(prog="python -m cardtable.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardtable.settings")

    # Daphne installs Twisted's asyncio reactor when daphne.server is imported;
    # cardtable.asgi expects it to be there (it starts the bot driver with it).
    from daphne.endpoints import build_endpoint_description_strings
    from daphne.server import Server

    from cardtable.asgi import application

    class AnnouncingServer(Server):
        """Daphne that prints the address to open once its port listens."""

        def listen_success(self, port: Any) -> None:
            super().listen_success(port)
            address = port.getHost()
            host = f"[{address.host}]" if ":" in address.host else address.host
            print(
                f"The card table is ready: open http://{host}:{address.port}/ (Ctrl-C stops it)", flush=True
            )

    endpoints = build_endpoint_description_strings(host=args.host, port=args.port)
    AnnouncingServer(application=application, endpoints=endpoints).run()


if __name__ == "__main__":
    main(sys.argv[1:])
