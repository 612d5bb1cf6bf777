"""A typed score grid keeps its layout: the full grid, or final scores only (games/core/grid.py)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0020_event_life'),
    ]

    operations = [
        migrations.AddField(
            model_name='result',
            name='grid_layout',
            field=models.CharField(default='full', help_text="the grid's layout (games/core/grid.py)", max_length=16),
        ),
        migrations.AddField(
            model_name='resultsubmission',
            name='grid_layout',
            field=models.CharField(default='full', help_text="the grid's layout (games/core/grid.py)", max_length=16),
        ),
    ]
