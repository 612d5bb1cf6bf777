"""Built-in bots and bot accounts apart (docs/accounts.md, "Bot accounts and built-in bots").

Before: `Player.is_bot` meant a built-in bot and a bot could have no account
(`bot_has_no_user`); a bot account's player was not marked at all. After: `is_bot` is the bot
mark (a built-in bot or a bot account), and a built-in bot is keyed by its `bot_level`. Every
existing bot was a built-in bot seated at the default level, `basic`; every player of an account
marked `is_bot_account` gets the mark.
"""

from django.db import migrations, models
from django.db.models import Q


def split_bots(apps, schema_editor):
    Player = apps.get_model("league", "Player")
    Player.objects.filter(is_bot=True, user__isnull=True).update(bot_level="basic")
    Player.objects.filter(user__is_bot_account=True).update(is_bot=True)


def join_bots(apps, schema_editor):
    Player = apps.get_model("league", "Player")
    Player.objects.filter(user__isnull=False).update(is_bot=False)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_language_bot_account"),
        ("league", "0005_format_registry"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="player", name="bot_has_no_user"),
        migrations.AddField(
            model_name="player",
            name="bot_level",
            field=models.CharField(
                blank=True,
                default="",
                help_text="a built-in bot: the level that plays its seats (docs/bots.md); blank "
                "for people and bot accounts",
                max_length=32,
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="deleted_at",
            field=models.DateTimeField(
                blank=True,
                help_text="when its account was deleted (the name is anonymous)",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="allow_bot_accounts",
            field=models.BooleanField(
                default=True,
                help_text="accounts marked as bot accounts (programs) may enter",
                verbose_name="allow bot accounts",
            ),
        ),
        migrations.RunPython(split_bots, join_bots),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=Q(bot_level="") | Q(is_bot=True, user__isnull=True),
                name="builtin_bot_has_no_user",
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=Q(deleted_at__isnull=True) | Q(user__isnull=True),
                name="deleted_player_has_no_user",
            ),
        ),
    ]
