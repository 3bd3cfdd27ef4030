"""Deeply nested JSON over HTTP is a JSON 400, never a 500 (docs/security.md S4)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from cardtable.tables.models import Player, Table
from tests.support.http import post_json

pytestmark = pytest.mark.django_db


def nested(depth: int) -> str:
    """A JSON array nested ``depth`` levels deep."""
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [40, 990, 5000])
@pytest.mark.parametrize("field", ["(the body)", "name"])
def test_nested_json_in_a_session_body_is_a_json_400(depth: int, field: str) -> None:
    client = Client(raise_request_exception=False)
    body = nested(depth) if field == "(the body)" else f'{{"name": {nested(depth)}}}'
    response = post_json(client, "/api/session/", body, raw=True)
    assert response.status_code == 400, response.content[:200]
    assert response.json()["error"]["code"] in {"bad_request", "bad_name"}
    assert Player.objects.count() == 0


@pytest.mark.parametrize("depth", [40, 990, 5000])
@pytest.mark.parametrize("field", ["game", "players", "options", "other"])
def test_nested_json_in_any_field_of_a_new_table_is_a_json_400(depth: int, field: str) -> None:
    client = Client(raise_request_exception=False)
    assert post_json(client, "/api/session/", json.dumps({"name": "Ann"}), raw=True).status_code == 200
    body = f'{{"game": "hearts", "{field}": {nested(depth)}}}'
    response = post_json(client, "/api/tables/", body, raw=True)
    assert response.status_code == 400, response.content[:200]
    assert response.json()["error"]["code"] == "bad_request"
    assert Table.objects.count() == 0


def test_a_body_nested_a_few_levels_is_still_read() -> None:
    client = Client()
    post_json(client, "/api/session/", json.dumps({"name": "Ann"}), raw=True)
    body = json.dumps({"game": "hearts", "options": {}, "x": [[[1]]]})
    response = post_json(client, "/api/tables/", body, raw=True)
    assert response.status_code == 201
