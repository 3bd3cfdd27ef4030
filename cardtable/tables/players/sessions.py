"""Django's database session store, whose one read is compiled once per process.

Every websocket's handshake reads its session (Channels' ``SessionMiddleware``),
and Django builds that query's SQL anew each time: as much work as running it.
In a reconnect storm every connect pays it (docs/performance.md, "A restart with
everyone connected"), so the read goes through ``Compiled``. Everything else
(the cookie, the signature, writes, expiry) is Django's own.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db.models import QuerySet
from django.utils import timezone

from cardtable.tables.authority.compiled import EXAMPLE_TIME, Compiled

# No session key is ever this (Django's keys are 32 lowercase letters and digits).
_EXAMPLE_KEY = "\x00an example session\x00"


def _session(session_key: str, now: datetime) -> QuerySet[Session]:
    return Session.objects.filter(session_key=session_key, expire_date__gt=now).order_by()[:1]


_SESSION = Compiled(_session, _EXAMPLE_KEY, EXAMPLE_TIME)


class SessionStore(db.SessionStore):
    """``django.contrib.sessions.backends.db``'s store, reading its row with a compiled query."""

    def _get_session_from_db(self) -> Session | None:
        """The session's row if it exists and has not expired; else forget the key, as Django does."""
        key = self.session_key  # None when the cookie's key is malformed
        found = next(iter(_SESSION.run(key, timezone.now())), None) if key is not None else None
        if found is None:
            self._session_key = None
        return found
