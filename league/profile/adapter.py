"""allauth's account adapter (ACCOUNT_ADAPTER): the league's name rule at sign-up, and allauth's
mails' subjects made one line like every other (accounts.mail_subject)."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils import translation

from accounts.client_address import request_client_address
from accounts.mail_subject import mail_subject
from accounts.names import text_problem, tidy
from league.profile.services import name_problem


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

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        """A new account keeps the language the site was shown in at sign-up (the switcher's
        cookie or the browser's Accept-Language) as its profile language (docs/translations.md)."""
        language = translation.get_language()
        if language in get_user_model().Language.values:
            user.language = language
        return super().save_user(request, user, form, commit=commit)
