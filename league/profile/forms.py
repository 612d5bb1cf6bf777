"""The profile form; `league.profile.services.update_profile` checks it all again under lock."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from accounts.names import tidy, validate_typed_name
from league.errors import LeagueError
from league.models import Player, PlayerReport
from league.profile.services import NAME_MAX_LENGTH, clean_country, name_problem


class ProfileForm(forms.Form):
    name = forms.CharField(
        label=_("Display name"),
        max_length=NAME_MAX_LENGTH,
        help_text=_("Your name in events, at tables and in the ratings."),
        validators=[validate_typed_name],
    )
    club = forms.CharField(
        label=_("Club"), max_length=80, required=False, validators=[validate_typed_name]
    )
    country = forms.CharField(
        label=_("Country"),
        max_length=40,  # a longer answer gets clean_country's message, not a length limit
        required=False,
        help_text=_("Two-letter ISO 3166 code, for example IT."),
    )
    language = forms.ChoiceField(
        label=_("Preferred language"), choices=get_user_model().Language.choices
    )
    is_bot_account = forms.BooleanField(
        label=_("This is a bot account (a program, not a person)"), required=False
    )

    def __init__(self, *args: Any, player: Player, bot_mark_fixed: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player = player
        if bot_mark_fixed:
            field = self.fields["is_bot_account"]
            field.disabled = True  # a disabled field keeps its initial value whatever is posted
            field.help_text = _("It cannot change any more: this account has played a rated game.")

    def clean_name(self) -> str:
        name = tidy(self.cleaned_data["name"])
        bot = bool(self.data.get("is_bot_account")) or self.player.is_bot
        problem = name_problem(name, player=self.player, bot=bot)
        if problem:
            raise forms.ValidationError(problem)
        return name

    def clean_country(self) -> str:
        try:
            return clean_country(self.cleaned_data["country"])
        except LeagueError as error:
            raise forms.ValidationError(str(error)) from None


class DeleteAccountForm(forms.Form):
    """The confirmation of deleting one's account: the password, as for logging in."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class ReportForm(forms.Form):
    reason = forms.ChoiceField(
        label=_("Reason"), choices=PlayerReport.Reason.choices, widget=forms.RadioSelect
    )
    text = forms.CharField(
        label=_("What happened"),
        required=False,
        max_length=PlayerReport._meta.get_field("text").max_length,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("Where and when (an event and round, or a table), and what you saw."),
    )
    table = forms.ChoiceField(
        label=_("A table you played together (optional)"),
        required=False,
        help_text=_("Staff see it beside your report, with every card of it."),
    )

    def __init__(self, *args: Any, tables: list[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = [("", "—"), *tables]
        if not tables:
            del self.fields["table"]


class ClaimForm(forms.Form):
    """The claim page's confirmation; the token travels in the POST body, never in a link."""

    token = forms.CharField(max_length=200, widget=forms.HiddenInput)
