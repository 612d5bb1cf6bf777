"""Forms of the schedule: a round's window, a proposed time, a player's e-mail switches.

Times are typed on the event's clocks: the views validate these forms with the event's time
zone active (`django.utils.timezone.override`), so a naive "18:00" means 18:00 there.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.services.notice_kinds import kind_choices


class LocalDateTimeInput(forms.DateTimeInput):
    """The browser's date-and-time picker; the value in the shape it expects."""

    input_type = "datetime-local"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class RoundScheduleForm(forms.Form):
    starts_at = forms.DateTimeField(label=_("Starts"), required=False, widget=LocalDateTimeInput())
    deadline = forms.DateTimeField(label=_("Deadline"), required=False, widget=LocalDateTimeInput())


class ProposalForm(forms.Form):
    starts_at = forms.DateTimeField(label=_("Play at"), widget=LocalDateTimeInput())


class NoticeSettingsForm(forms.Form):
    """One switch per kind of notice: whether it is e-mailed too (on-site notices always are)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, label in kind_choices():
            self.fields[name] = forms.BooleanField(label=label, required=False)
