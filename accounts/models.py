"""User accounts. A custom user model from the first migration, so it can grow later."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import models, transaction
from django.utils.translation import gettext_lazy as _

from accounts.tokens import rotate_token


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
    # The pace "Play now" last started a table with (`gameplay/paces.py`, by name), offered
    # again next time; blank: never chosen, so the first game is relaxed.
    play_pace = models.CharField(_("pace of Play now"), max_length=16, blank=True, default="")

    class CardFaces(models.TextChoices):
        # accounts/preferences.py: how the table draws cards (its root's data-card-faces).
        HOME = "home", _("The game's home (German letters, Italian suits)")
        FRENCH = "french", _("French (J Q K A, ♠ ♥ ♦ ♣)")

    class ConfirmMoves(models.TextChoices):
        # The table's data-confirm-moves: ask before a move is sent, or not.
        AUTO = "auto", _("Automatic (on touch screens)")
        ON = "on", _("Always")
        OFF = "off", _("Never")

    card_faces = models.CharField(
        _("card faces"), max_length=8, choices=CardFaces.choices, default=CardFaces.HOME
    )
    confirm_moves = models.CharField(
        _("confirm moves"), max_length=8, choices=ConfirmMoves.choices, default=ConfirmMoves.AUTO
    )
    # A visitor who plays at once without signing up (accounts/guests.py): logged in like anyone,
    # named "Guest-…", never rated, cleared when they sign up (the same row becomes theirs).
    is_guest = models.BooleanField(_("guest"), default=False, db_index=True)
    # Vacation (docs/tables.md, "Vacation"): until when the account's clocks at turn-based tables
    # are paused, and the days of it taken in `vacation_year` (GAMEPLAY_VACATION_DAYS_PER_YEAR a
    # year). Written only by `gameplay.services.vacation`.
    vacation_from = models.DateTimeField(_("on vacation from"), null=True, blank=True)
    vacation_until = models.DateTimeField(_("on vacation until"), null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    # The turn-based tables waiting for this account's move, kept by `gameplay.services.turns`
    # after every change of whose turn it is: the header shows it without a query.
    turns_waiting = models.PositiveIntegerField(default=0)
    # Staff's site-wide chat mute (docs/chat.md): the account still plays and watches, but every
    # table's chat refuses its lines.
    chat_muted = models.BooleanField(
        _("muted in table chat"),
        default=False,
        help_text=_("The account may not write in any table's chat."),
    )

    # set_unusable_password (the admin's "disable password-based authentication") since the last
    # save; set_password is Django's own `_password`.
    _password_disabled = False

    def set_unusable_password(self) -> None:
        super().set_unusable_password()
        self._password_disabled = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A new password ends the account's API token (accounts/tokens.py), whichever path set
        it: allauth's change, reset and set pages, the admin, `manage.py changepassword`. They
        all call set_password, then save. A hash upgraded at log-in (check_password) is the same
        password: Django clears `_password` before that save, so the token stays."""
        update_fields = kwargs.get("update_fields")
        disabled, self._password_disabled = self._password_disabled, False
        replaced = (
            (self._password is not None or disabled)
            and not self._state.adding  # a new account has no token yet
            and (update_fields is None or "password" in update_fields)
        )
        if not replaced:
            super().save(*args, **kwargs)
            return
        with transaction.atomic():  # the new password and the new key, or neither
            super().save(*args, **kwargs)
            rotate_token(self)
