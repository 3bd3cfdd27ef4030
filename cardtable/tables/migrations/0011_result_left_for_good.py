"""Finished games' results list only the seats left for good: a seat taken back by its player is not one.

Before, a result's ``"left"`` named every seat anyone had left, a seat its own
player took back and held to the end included, so such a game no longer
replayed to its recorded result (issue 40). The rule is
``departures.left_seats``, written out here so this migration keeps its meaning.
"""

from django.db import migrations

BATCH = 500


def holder(departures):
    """The player holding the seat at the end (``departures.final_holder``); ``None``: a bot finished it."""
    if not departures or any("taken_by" not in d for d in departures):
        return None
    return max(departures, key=lambda d: d.get("taken_after", 0))["taken_by"]


def left_for_good(left):
    """The seats some player left and did not hold at the end (``departures.left_seats``)."""
    seats = set()
    for index in {d["seat"] for d in left}:
        departures = [d for d in left if d["seat"] == index]
        end = holder(departures)
        if any(d.get("player") is not None and d["player"] != end for d in departures):
            seats.add(index)
    return sorted(seats)


def rewrite(apps, schema_editor):
    """Set each finished game's ``"left"`` from its departures, in batches."""
    Match = apps.get_model("tables", "Match")
    games = (
        Match.objects.filter(result__isnull=False)
        .exclude(left=[])
        .order_by("pk")
        .only("pk", "result", "left")
    )
    last = 0
    while True:
        batch = list(games.filter(pk__gt=last)[:BATCH])
        if not batch:
            return
        last = batch[-1].pk
        for match in batch:
            result = {k: v for k, v in match.result.items() if k != "left"}
            seats = left_for_good(match.left or [])
            if seats:
                result["left"] = seats
            if result != match.result:
                match.result = result
                match.save(update_fields=["result"])


class Migration(migrations.Migration):
    dependencies = [("tables", "0010_fill_matchplayer")]

    operations = [migrations.RunPython(rewrite, migrations.RunPython.noop)]
