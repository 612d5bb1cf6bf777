"""Forms of the people side of running an event: co-organizers, sign-up rules, imports.

They only parse what a person typed; the rules (and every refusal) are the services'
(league.services.organizers, registration, entry_import)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class CoOrganizerForm(forms.Form):
    name = forms.CharField(
        label=_("Account"),
        max_length=150,
        help_text=_("the user name or the player name of an account"),
    )


class RegistrationForm(forms.Form):
    """The sign-up rules. The deadline is typed on the event's clocks (the view activates its
    time zone), like every time of the event."""

    signup_open = forms.BooleanField(
        label=_("Open for sign-up"),
        required=False,
        help_text=_("players with an account sign up from the event's page (once it is published)"),
    )
    capacity = forms.IntegerField(
        label=_("Capacity"),
        required=False,
        min_value=1,
        max_value=100000,
        help_text=_("the most players sign-up lets in; later ones wait; blank: no limit"),
    )
    signup_deadline = forms.DateTimeField(
        label=_("Sign-up deadline"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )


class ImportForm(forms.Form):
    """A pasted list, or a CSV file: one player a line, name[,club[,country[,e-mail]]]."""

    text = forms.CharField(
        label=_("Paste a list"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "placeholder": "name,club,country,email"}),
        help_text=_(
            "one player a line: name, then optionally club, country (two letters) and e-mail, "
            "separated by commas (or tabs, pasted from a spreadsheet); a first line "
            "“name,club,country,email” names the columns"
        ),
    )
    file = forms.FileField(label=_("…or upload a CSV file"), required=False)

    MAX_BYTES = 256 * 1024

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(_("the file is too large (at most 256 KB)"))
            data["data"] = upload.read()
        elif (data.get("text") or "").strip():
            data["data"] = None
        else:
            raise forms.ValidationError(_("paste a list or choose a CSV file"))
        return data
