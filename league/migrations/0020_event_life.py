"""An event's life (docs/league.md, "The end of an event"): the status `finished` (its last round
decided, set by itself) and the podium kept with it (`winners`).

`running` was never stored before; an event with a published round is running now. Events
already played to their end are marked finished by their next result, or closed by their
organizer (closing names the podium too).
"""

from django.db import migrations, models


def mark_running(apps, schema_editor):
    Event = apps.get_model("league", "Event")
    Event.objects.filter(status="open", round_set__status="published").update(status="running")


def unmark_running(apps, schema_editor):
    Event = apps.get_model("league", "Event")
    Event.objects.filter(status__in=["running", "finished"]).update(status="open")


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0019_result_absences"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="winners",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
        migrations.AlterField(
            model_name="event",
            name="status",
            field=models.CharField(
                choices=[
                    ("open", "Open for entries"),
                    ("running", "Running"),
                    ("finished", "Finished"),
                    ("closed", "Closed"),
                ],
                default="open",
                max_length=8,
            ),
        ),
        migrations.RunPython(mark_running, unmark_running),
    ]
