"""Names are checked for hidden characters (accounts.names), and each player keeps the
confusable skeleton of its name (accounts.skeleton), filled here for the players that exist.

Existing look-alikes are left as they are (which of two players keeps a name is a person's
decision); from now on a new or renamed player may not look like another.
"""

import accounts.names
from django.conf import settings
from django.db import migrations, models

from accounts.skeleton import name_skeleton


def fill_skeletons(apps, schema_editor):
    Player = apps.get_model("league", "Player")
    batch = []
    for player in Player.objects.only("pk", "name").iterator(chunk_size=1000):
        player.name_skeleton = name_skeleton(player.name)
        batch.append(player)
        if len(batch) == 1000:
            Player.objects.bulk_update(batch, ["name_skeleton"])
            batch = []
    Player.objects.bulk_update(batch, ["name_skeleton"])


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0015_rated_match_weight'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='name_skeleton',
            field=models.TextField(default='', editable=False),
        ),
        migrations.AlterField(
            model_name='event',
            name='name',
            field=models.CharField(max_length=120, validators=[accounts.names.validate_typed_name]),
        ),
        migrations.AlterField(
            model_name='player',
            name='club',
            field=models.CharField(blank=True, max_length=80, validators=[accounts.names.validate_typed_name]),
        ),
        migrations.AlterField(
            model_name='player',
            name='name',
            field=models.CharField(max_length=60, unique=True, validators=[accounts.names.validate_typed_name]),
        ),
        migrations.AddIndex(
            model_name='player',
            index=models.Index(fields=['name_skeleton'], name='player_name_skeleton'),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
    ]
