"""Player names unique without regard to case, in the database (lobby-api.md, "Accounts").

The sign-up form and the profile have refused "Ana" beside "ana" since accounts exist, but
organizers' entries and bot names were compared exactly, so an older database may hold two
such names. This migration then stops with the list of them instead of failing on the index:
rename one of each pair (the admin shell, `Player.objects.filter(pk=…).update(name=…)`), then
migrate again. A fresh database has nothing to fix.
"""

from django.db import migrations, models
from django.db.models import Count
from django.db.models.functions import Lower


def refuse_collisions(apps, schema_editor):
    Player = apps.get_model("league", "Player")
    clashes = list(
        Player.objects.annotate(folded=Lower("name"))
        .values("folded")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .values_list("folded", flat=True)[:20]
    )
    if not clashes:
        return
    names = (
        Player.objects.annotate(folded=Lower("name"))
        .filter(folded__in=clashes)
        .order_by("folded", "pk")
    )
    listed = "; ".join(f"#{pk} {name!r}" for pk, name in names.values_list("pk", "name"))
    raise RuntimeError(
        "Player names must be unique without regard to case, and these differ only in case: "
        f"{listed}. Rename one of each (for example with `manage.py shell`), then run "
        "`manage.py migrate` again."
    )


class Migration(migrations.Migration):
    dependencies = [("league", "0006_builtin_bots_and_bot_accounts")]

    operations = [
        migrations.RunPython(refuse_collisions, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                Lower("name"), name="player_name_unique_without_case"
            ),
        ),
    ]
