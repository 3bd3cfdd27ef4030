"""The Django admin for the table app's records, for staff to see and steer the site.

Records are read-only here: every change to a table goes through the authority
(``cardtable.tables.authority.staff``) from an action, so the one-transaction
rule, the version and the websocket pushes hold. Nothing hidden leaks while a
game runs: the table's state is shown as a spectator sees it, and a running
game's dealt hands and moves stay hidden until it ends.

Django's admin finds this package; each module registers the pages of what it
shows.
"""

from cardtable.tables.admin import chat, matches, tables
from cardtable.tables.admin.common import ReadOnly

__all__ = ["ReadOnly", "chat", "matches", "tables"]
