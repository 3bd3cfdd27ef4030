"""Design statistics: computed offline by ``manage.py designstats``, stored, shown on the dashboard."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from cardtable.dashboard import designstats, recycle_games
from cardtable.dashboard.models import DesignStats
from games import GAMES
from games.recycle import library

pytestmark = pytest.mark.django_db
TINY = ["--random-games", "3", "--one-search-games", "1", "--all-search-games", "1", "--playouts", "2"]
NAMES = ["fairness", "convergence", "spread", "drama", "security", "order"]


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("designstats", *args, stdout=out)
    return out.getvalue()


def test_command_stores_one_row_per_variant() -> None:
    out = run("agram", "--options", '{"preset": "cardstock"}', *TINY)
    assert re.match(r"agram \(4 players, cardstock\): fairness \d\.\d\d±\d\.\d{3} ", out)
    row = DesignStats.objects.get()
    assert (row.game, row.players, row.label, row.playouts) == ("agram", 4, "cardstock", 2)
    assert row.variant == '{"preset":"cardstock"}'
    assert sorted(row.heuristics) == sorted(NAMES) == sorted(row.errors)  # jsonb keeps no key order
    assert row.status == DesignStats.DONE
    assert all(0 <= row.heuristics[name] <= 1 for name in ("fairness", "spread", "drama", "security"))
    assert row.experiments["random"]["games"] == 3 and row.experiments["all_search"]["games"] == 1
    assert row.lead_history and all(len(step["lead"]) == 4 for step in row.lead_history)
    run("agram", "--options", '{"preset": "cardstock"}', *TINY, "--seed", "5")
    assert DesignStats.objects.count() == 1 and DesignStats.objects.get().seed == 5
    run("agram", "--preset", "cardstock", *TINY)
    assert DesignStats.objects.count() == 1
    run("agram", *TINY)
    assert sorted(DesignStats.objects.values_list("label", flat=True)) == ["cardstock", "standard"]


def test_a_recycle_description_is_measured_by_its_path_or_stored_id() -> None:
    run(str(library()["ninety_eight"]), *TINY)
    assert DesignStats.objects.get().game == "recycle_ninety_eight"
    recycle_games.add("Stored Agram", library()["agram"].read_text())
    run("recycle_stored_agram", *TINY)
    assert DesignStats.objects.filter(game="recycle_stored_agram", players=4).exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuchgame", *TINY], "there is no game"),
        (["agram", "--options", "[1]", *TINY], "JSON object"),
        (["agram", "--options", '{"target": 99999}', *TINY], "target"),
        (["agram", "--all", *TINY], "name one game, or --all"),
        (["agram", "--playouts", "0"], "--playouts"),
    ],
)
def test_bad_input_fails_clearly_and_stores_nothing(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=re.escape(message)):
        run(*args)
    assert not DesignStats.objects.exists()


def test_all_covers_every_game_standard_and_each_preset() -> None:
    expected = {(g, "standard") for g in GAMES} | {(g, p) for g in GAMES for p in GAMES[g].info.presets}
    assert {(g, designstats.label_of(o)) for g, o in designstats.variants()} == expected
    run("--all", "--random-games", "2", "--one-search-games", "0", "--all-search-games", "0")
    rows = DesignStats.objects.all()
    assert {(r.game, r.label) for r in rows} == expected
    # Only the random experiment ran: the heuristics of the others are left empty.
    assert all(r.heuristics["drama"] is None and r.heuristics["fairness"] is not None for r in rows)


def test_dashboard_shows_each_variant_with_its_lead_history(staff_client: Client) -> None:
    run("agram", "--options", '{"preset": "cardstock"}', *TINY)
    row = DesignStats.objects.get()
    html = staff_client.get("/staff/dashboard/").content.decode()
    line = re.search(r'<tr data-design="agram-4-cardstock">(.*?)</tr>', html, re.S).group(1)
    assert set(row.errors) == set(NAMES)
    for index, name in enumerate(NAMES):
        cell = re.search(rf'data-heuristic="{index}">(.*?)</td>', line).group(1)
        value = re.search(r'<span class="value">([^<]*)</span>', cell).group(1)
        error = re.search(r'<span class="error" title="standard error">± ([^<]*)</span>', cell).group(1)
        assert value == f"{row.heuristics[name]:.2f}" and error == f"{row.errors[name]:.3f}"
    svg = re.search(r'<svg class="chart"[^>]*>.*?</svg>', html[html.index('id="design-h"') :], re.S).group(0)
    tree = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert "Lead history of one agram game" in tree.find(f"{ns}title").text
    assert len(tree.findall(f"{ns}polyline")) == 4
    assert f"{len(row.lead_history) - 1} choices" in svg


def test_dashboard_without_design_statistics_says_how_to_get_them(staff_client: Client) -> None:
    html = staff_client.get("/staff/dashboard/").content.decode()
    assert 'id="no-design"' in html and "designstats --all" in html


def test_label_and_key_of_a_variant() -> None:
    assert designstats.label_of({}) == "standard"
    assert designstats.label_of({"target": 50, "preset": "cardstock"}) == "cardstock, target 50"
    assert designstats.variant_key({"b": 1, "a": 2}) == '{"a":2,"b":1}'
