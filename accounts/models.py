"""User accounts. A custom user model from the first migration, so it can grow later."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A person who logs in: organizer, player or both (or a program: a bot account)."""

    class Language(models.TextChoices):
        # The languages the site is being translated into (used once translations exist).
        ENGLISH = "en", _("English")
        GERMAN = "de", _("German")
        ITALIAN = "it", _("Italian")
        JAPANESE = "ja", _("Japanese")

    language = models.CharField(
        _("preferred language"), max_length=8, choices=Language.choices, default=Language.ENGLISH
    )
    # lobby-api.md: a program rather than a person, shown with the bot mark everywhere. Chosen at
    # sign-up or before the account's first rated game (league.profile.services), never after:
    # the ratings of the people it played must not change meaning afterwards. Not to be mixed up
    # with league.Player.is_bot, a built-in bot (never an account).
    is_bot_account = models.BooleanField(_("bot account"), default=False)
