"""The admin names the dashboard's records in plain English, not by adding an s."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_admin_index_names_design_statistics_and_game_summaries() -> None:
    client = Client()
    client.force_login(User.objects.create_superuser("staff", "staff@example.com", "pw-staff-123"))
    text = client.get("/admin/").content.decode()
    assert "Design statistics" in text and "Game summaries" in text
    assert "statss" not in text and "summarys" not in text
