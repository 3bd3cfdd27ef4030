"""The dashboard tells paused, abandoned and ended tables truthfully, and staff end them from it."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.utils import timezone

from cardtable.tables.authority import presence
from cardtable.tables.models import Table
from tests.dashboard.conftest import new_table


def test_a_paused_table_is_listed_with_an_end_button_that_ends_it(staff_client: Client) -> None:
    paused = new_table("agram")
    watched = new_table("agram")
    presence.join("chan-watch", watched.pk, None)
    page = staff_client.get("/staff/dashboard/").content.decode()
    section = page[page.index('id="paused-h"') : page.index('id="abandoned-h"')]
    assert paused.pk in section and watched.pk not in section
    assert f'action="/staff/dashboard/end/{paused.pk}/"' in section
    response = staff_client.post(f"/staff/dashboard/end/{paused.pk}/")
    assert response.status_code == 302
    ended = Table.objects.get(pk=paused.pk)
    assert ended.status == "finished" and ended.ended == "staff"
    assert 'id="no-paused"' in staff_client.get("/staff/dashboard/").content.decode()
    # Ending it again changes nothing and says why.
    version = ended.version
    staff_client.post(f"/staff/dashboard/end/{paused.pk}/")
    assert Table.objects.get(pk=paused.pk).version == version


def test_ending_from_the_dashboard_is_for_staff_by_post(plain_client: Client, staff_client: Client) -> None:
    table = new_table("agram")
    assert plain_client.post(f"/staff/dashboard/end/{table.pk}/").status_code == 302  # to the login
    assert staff_client.get(f"/staff/dashboard/end/{table.pk}/").status_code == 405
    assert Table.objects.get(pk=table.pk).ended == ""


def test_tables_ended_as_abandoned_are_listed(staff_client: Client) -> None:
    from cardtable.tables.autoplay import ending

    table = new_table("agram")
    Table.objects.filter(pk=table.pk).update(alone_since=timezone.now() - timedelta(hours=1))
    assert ending.sweep() == [table.pk]
    page = staff_client.get("/staff/dashboard/").content.decode()
    assert 'id="ended-tables"' in page and table.pk in page[page.index('id="ended-tables"') :]
