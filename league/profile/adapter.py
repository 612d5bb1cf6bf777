"""allauth's account adapter (ACCOUNT_ADAPTER): the league's name rule at sign-up, allauth's
mails' subjects made one line like every other (accounts.mail_subject), and a guest's sign-up:
the guest's own account row becomes the person's, so their games stay theirs
(`new_user`, `save_user`; league.services.guests.keep_games)."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.utils import translation

from accounts.client_address import request_client_address
from accounts.guests import is_guest
from accounts.mail_subject import mail_subject
from accounts.names import text_problem, tidy
from league.profile.services import name_problem
from league.services.guests import keep_games


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """An account's user name becomes its player's name, so it follows the rule of names
        (NFC, no hidden characters: accounts.names) and must be free among the players too,
        without regard to case and look-alikes (the accounts are checked by allauth)."""
        username = tidy(username)
        problem = text_problem(username)
        if problem:
            raise ValidationError(problem)
        username = super().clean_username(username, shallow=shallow)
        problem = name_problem(username)
        if problem and not shallow:
            raise ValidationError(problem)
        return username

    def format_email_subject(self, subject: str) -> str:
        return mail_subject(super().format_email_subject(subject))

    def get_client_ip(self, request: HttpRequest) -> str:
        """allauth's rate limits count by the same address as the lockout and the throttles."""
        return request_client_address(request) or "unknown"

    def new_user(self, request: HttpRequest) -> Any:
        """A guest signing up becomes a real account in the same row (their seats point at it);
        everyone else gets a new one."""
        if is_guest(request.user):
            return get_user_model().objects.get(pk=request.user.pk)
        return super().new_user(request)

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        """A new account keeps the language the site was shown in at sign-up (the switcher's
        cookie or the browser's Accept-Language) as its profile language (docs/translations.md).
        A guest's account loses the guest mark and keeps its games under the chosen name."""
        language = translation.get_language()
        if language in get_user_model().Language.values:
            user.language = language
        guest_name = user.get_username() if user.pk and user.is_guest else None
        if guest_name is None:
            return super().save_user(request, user, form, commit=commit)
        user.is_guest = False
        with transaction.atomic():
            saved = super().save_user(request, user, form, commit=commit)
            if commit:
                keep_games(saved or user, guest_name)
        return saved
