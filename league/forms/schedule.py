"""Forms of the schedule: a round's window, a proposed time, a player's notice settings.

Times are typed on the event's clocks: the views validate these forms with the event's time
zone active (`django.utils.timezone.override`), so a naive "18:00" means 18:00 there.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.services.notice_kinds import kind_choices
from league.services.notice_prefs import time_zones


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


class TimeInput(forms.TimeInput):
    """The browser's time picker."""

    input_type = "time"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%H:%M", **kwargs)


class NoticeSettingsForm(forms.Form):
    """Per kind of notice (every kind of the registry, so a kind added later is here too):
    whether it is e-mailed (the field named as the kind) and pushed (`push_<kind>`); on-site
    notices always are. Then the quiet hours on the player's clock and the daily digest."""

    time_zone = forms.ChoiceField(label=_("Your time zone"), required=False)
    quiet_from = forms.TimeField(label=_("Quiet from"), required=False, widget=TimeInput())
    quiet_to = forms.TimeField(label=_("Quiet until"), required=False, widget=TimeInput())
    digest = forms.BooleanField(
        label=_("One e-mail a day listing the notices, instead of one e-mail each"),
        required=False,
    )
    digest_hour = forms.TypedChoiceField(
        label=_("Send the digest at"),
        coerce=int,
        required=False,
        empty_value=8,
        choices=[(h, f"{h:02d}:00") for h in range(24)],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [("", _("The site's time zone"))] + [
            (zone, zone) for zone in time_zones()
        ]
        for name, label in kind_choices():
            self.fields[name] = forms.BooleanField(label=label, required=False)
            self.fields[f"push_{name}"] = forms.BooleanField(label=label, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if (data.get("quiet_from") is None) != (data.get("quiet_to") is None):
            raise forms.ValidationError(_("Quiet hours need both a start and an end, or neither."))
        if data.get("quiet_from") is not None and data.get("quiet_from") == data.get("quiet_to"):
            raise forms.ValidationError(_("Quiet hours need an end different from their start."))
        return data

    def kind_rows(self) -> list[tuple[Any, forms.BoundField, forms.BoundField]]:
        """(label, e-mail box, push box) per kind, for the page's table."""
        return [(label, self[name], self[f"push_{name}"]) for name, label in kind_choices()]

    def choices(self) -> dict[str, Any]:
        """The valid form's values, as `notice_prefs.save_settings` takes them."""
        data = self.cleaned_data
        kinds = [name for name, _label in kind_choices()]
        return {
            "email": {kind: bool(data.get(kind)) for kind in kinds},
            "push": {kind: bool(data.get(f"push_{kind}")) for kind in kinds},
            "time_zone": data.get("time_zone") or "",
            "quiet_from": data.get("quiet_from"),
            "quiet_to": data.get("quiet_to"),
            "digest": bool(data.get("digest")),
            "digest_hour": data.get("digest_hour", 8),
        }
