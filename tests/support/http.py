"""HTTP helpers for Django's test client."""

from __future__ import annotations

import json

from django.test import Client


def post_json(client: Client, path: str, data: object, *, raw: bool = False) -> object:
    """POST ``data`` as JSON with the CSRF header, as the protocol asks (``raw``: ``data`` is the body)."""
    token = client.get("/api/session/").json()["csrf_token"]
    body = data if raw else json.dumps(data)
    return client.post(path, body, content_type="application/json", headers={"X-CSRFToken": token})
