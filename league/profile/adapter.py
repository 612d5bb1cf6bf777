"""allauth's account adapter (ACCOUNT_ADAPTER): the league's name rule at sign-up."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from accounts.client_address import request_client_address
from league.profile.services import name_problem


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """An account's user name becomes its player's name, so it must be free among the
        players too, without regard to case (the accounts are checked by allauth)."""
        username = super().clean_username(username, shallow=shallow)
        problem = name_problem(username)
        if problem and not shallow:
            raise ValidationError(problem)
        return username

    def get_client_ip(self, request: HttpRequest) -> str:
        """allauth's rate limits count by the same address as the lockout and the throttles."""
        return request_client_address(request) or "unknown"
