"""The Content-Security-Policy: on every response, only the site's own sources, nothing inline to allow.

The browser proof (every page working under the policy, no violation reported)
is tests/browser/test_csp.py; this checks the header and the templates.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client as HttpClient

from cardtable.dashboard import charts

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def directives(header: str) -> dict[str, list[str]]:
    """The policy's directives by name."""
    parts = [part.split() for part in header.split(";") if part.strip()]
    return {part[0]: part[1:] for part in parts}


@pytest.mark.parametrize("path", ["/", "/api/games/", "/accounts/login/", "/ratings/", "/admin/login/"])
def test_every_response_carries_the_policy(path: str) -> None:
    response = HttpClient().get(path)
    assert response.status_code in (200, 302), path
    policy = directives(response["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["connect-src"] == ["'self'", "ws://testserver"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'self'"]
    assert not any("unsafe" in source or source == "*" for sources in policy.values() for source in sources)


def test_behind_https_the_websocket_is_wss() -> None:
    response = HttpClient().get("/", secure=True)
    assert directives(response["Content-Security-Policy"])["connect-src"] == ["'self'", "wss://testserver"]


def test_no_template_needs_an_inline_script_or_style() -> None:
    """Inline code would need 'unsafe-inline': scripts come from /static/, styles from stylesheets."""
    inline = re.compile(
        r"""<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:""", re.IGNORECASE
    )
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for match in inline.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_dashboard_charts_carry_no_style_attribute() -> None:
    svg = str(charts.bars([1.0, 3.0, 2.0], ["a", "b", "c"], "Moves", "per minute"))
    assert svg.startswith("<svg") and "style=" not in svg
