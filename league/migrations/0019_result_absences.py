"""Absence as a result (league.services.absences): a result names its absent seats, and an
organizer's absence is a source of its own. The deadline policy's forfeits already in were
absences too (its absent seats forfeited): they get their mark here."""

from django.db import migrations, models


def mark_deadline_forfeits(apps, schema_editor):
    Result = apps.get_model("league", "Result")
    batch = []
    for result in Result.objects.filter(sheet__forfeit="deadline").only("pk", "forfeited_seats"):
        result.absent_seats = list(result.forfeited_seats or [])
        batch.append(result)
    Result.objects.bulk_update(batch, ["absent_seats"], batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0018_event_rank_bots"),
    ]

    operations = [
        migrations.AddField(
            model_name="result",
            name="absent_seats",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AlterField(
            model_name="result",
            name="source",
            field=models.CharField(
                choices=[
                    ("online", "Online match"),
                    ("record", "Uploaded game record"),
                    ("sheet", "Score sheet"),
                    ("absence", "Absence"),
                ],
                max_length=8,
            ),
        ),
        migrations.RunPython(mark_deadline_forfeits, migrations.RunPython.noop),
    ]
