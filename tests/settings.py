"""The settings the tests run under: the project's, with DEBUG on unless the environment says otherwise.

`DEBUG` defaults to off in `cardtable/settings.py` (a deploy that forgets it is
safe), so the in-process tests ask for development mode here, before the
settings are read. Tests that check production behaviour start their own process
with `DEBUG=0` (tests/ops/harness.py, tests/server/test_settings.py).
"""

import os

os.environ.setdefault("DEBUG", "1")
# The reviews of finished games run only in the tests that ask for them (tests/server/test_reviews.py).
os.environ.setdefault("REVIEW_JOBS", "0")

from cardtable.settings import *  # noqa: F403
