"""The fields allauth's sign-up form adds (ACCOUNT_SIGNUP_FORM_CLASS).

allauth builds its SignupForm on top of this class, so it must not import allauth's forms.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class SignupExtras(forms.Form):
    is_bot_account = forms.BooleanField(
        label=_("This is a bot account (a program, not a person)"),
        required=False,
        help_text=_("It can be changed on your profile until its first rated game."),
    )

    def signup(self, request: Any, user: Any) -> None:
        """Called by allauth once the user is saved."""
        if self.cleaned_data.get("is_bot_account"):
            user.is_bot_account = True
            user.save(update_fields=["is_bot_account"])
