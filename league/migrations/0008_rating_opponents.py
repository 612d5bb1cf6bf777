"""`Rating.opponents`: the distinct players met in rated matches, for the provisional rule
(docs/ratings.md, "Provisional"); counted from the rating history of existing databases."""

from django.db import migrations, models
from django.db.models import Count


def count_opponents(apps, schema_editor):
    Rating = apps.get_model("league", "Rating")
    RatingHistory = apps.get_model("league", "RatingHistory")
    # Distinct players of the player's matches, themselves included once.
    met = (
        RatingHistory.objects.values("player_id", "game")
        .annotate(n=Count("match__changes__player", distinct=True))
        .values_list("player_id", "game", "n")
    )
    counts = {(player, game): n - 1 for player, game, n in met}
    ratings = list(Rating.objects.all())
    for rating in ratings:
        rating.opponents = counts.get((rating.player_id, rating.game), 0)
    Rating.objects.bulk_update(ratings, ["opponents"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("league", "0007_player_names_unique_without_case")]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="opponents",
            field=models.PositiveIntegerField(
                default=0, help_text="distinct players met in the rated matches that counted"
            ),
        ),
        migrations.RunPython(count_opponents, migrations.RunPython.noop),
    ]
