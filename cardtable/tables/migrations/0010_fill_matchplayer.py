"""Fill MatchPlayer from the games already recorded: each seat a player started in, each takeover."""

from django.db import migrations

# Games read and rows written at a time, so a large history needs no more memory than this.
BATCH = 500


def rows_of(match, MatchPlayer):
    """The rows one game's record implies: its seats with a player, then each seat taken over."""
    found = {}
    for seat in match.seats or []:
        if seat.get("player") is not None:
            found.setdefault((seat["player"], seat["seat"]), "started")
    for departure in match.left or []:
        if departure.get("taken_by") is not None:
            found.setdefault((departure["taken_by"], departure["seat"]), "took_over")
    return [
        MatchPlayer(match_id=match.pk, player_id=player, seat=seat, how=how, started=match.started)
        for (player, seat), how in found.items()
    ]


def fill(apps, schema_editor):
    """Write the rows of every existing game, skipping players whose row no longer exists."""
    Match = apps.get_model("tables", "Match")
    MatchPlayer = apps.get_model("tables", "MatchPlayer")
    Player = apps.get_model("tables", "Player")
    games = Match.objects.order_by("pk").only("pk", "seats", "left", "started")
    last = 0
    while True:
        batch = list(games.filter(pk__gt=last)[:BATCH])
        if not batch:
            return
        last = batch[-1].pk
        rows = [row for match in batch for row in rows_of(match, MatchPlayer)]
        known = set(Player.objects.filter(pk__in={r.player_id for r in rows}).values_list("pk", flat=True))
        MatchPlayer.objects.bulk_create(
            [r for r in rows if r.player_id in known], batch_size=BATCH, ignore_conflicts=True
        )


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0009_matchplayer"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
