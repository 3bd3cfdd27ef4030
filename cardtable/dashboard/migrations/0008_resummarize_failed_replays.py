"""Forget the summaries of games that failed to replay, so the dashboard replays them again.

A finished game with a departure did not replay to its recorded result (issue 40);
its summary kept the error and the game stayed out of the statistics. Once the
results are rewritten (tables 0011) those games replay: deleting their summaries
lets the dashboard summarize them again on its next load (``stats.summarize_pending``).
"""

from django.db import migrations


def forget_failed(apps, schema_editor):
    """Delete every summary that recorded a replay error."""
    apps.get_model("dashboard", "GameSummary").objects.exclude(error="").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("dashboard", "0007_storedgame_description"),
        ("tables", "0011_result_left_for_good"),
    ]

    operations = [migrations.RunPython(forget_failed, migrations.RunPython.noop)]
