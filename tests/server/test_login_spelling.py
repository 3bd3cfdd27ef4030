"""The per-name login limit counts every spelling that logs in to the same account as that account.

Django's login form strips the name and normalises it (NFKC) before it asks
``authenticate``, so a space, a tab, an ideographic space or full-width letters
reach the same account: they must reach the same counter too (docs/security.md,
"The login limit was bypassed by spelling").
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client as HttpClient

from cardtable.tables.players import ratelimit
from tests.server.test_accounts import PASSWORD, form_post

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_hashing_and_still_time(settings: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fast hasher: these tests count attempts, and the default one costs a second each on a busy machine.

    The limits' clock stands still mid-window: a window's turn during a test
    weighs the earlier attempts a little under their number.
    """
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    monkeypatch.setattr(ratelimit, "now", lambda: 1_800_000_300.0)


NAME = "Victim40162"
SPELLINGS = [
    " Victim40162",
    "Victim40162 ",
    "\tVictim40162",
    "Victim40162\u3000",  # an ideographic space
    "\uff36\uff49\uff43\uff54\uff49\uff4d\uff14\uff10\uff11\uff16\uff12",  # full-width
    "victim40162",  # another case: no account, but the same counter
]


def login(name: str, password: str) -> int:
    """The status of one login attempt from a fresh browser."""
    return form_post(HttpClient(), "/accounts/login/", {"username": name, "password": password}).status_code


def test_every_spelling_that_logs_in_is_the_account_s_spelling() -> None:
    """The spellings below are not other accounts: each logs in to the account itself."""
    User.objects.create_user(NAME, password=PASSWORD)
    for spelling in SPELLINGS[:-1]:
        assert login(spelling, PASSWORD) == 302, repr(spelling)


@pytest.mark.parametrize("spelling", SPELLINGS, ids=repr)
def test_a_name_limited_stays_limited_in_any_spelling(settings: object, spelling: str) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": {"name": (3, 600)}}
    User.objects.create_user(NAME, password=PASSWORD)
    for _ in range(3):
        assert login(NAME, "wrong") == 200
    assert login(NAME, PASSWORD) == 429
    with mock.patch("django.contrib.auth.forms.authenticate", side_effect=AssertionError("tried")):
        assert login(spelling, PASSWORD) == 429
    # Another account is counted apart.
    User.objects.create_user("Bystander", password=PASSWORD)
    assert login(" Bystander", PASSWORD) == 302


def test_wrong_passwords_in_other_spellings_count_against_the_account(settings: object) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": {"name": (len(SPELLINGS), 600)}}
    User.objects.create_user(NAME, password=PASSWORD)
    for spelling in SPELLINGS:
        assert login(spelling, "wrong") == 200
    assert login(NAME, PASSWORD) == 429
