"""Forms of the organizer pages; the variant fields are generated from the engine's schema."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from gameplay import api as gameplay
from league.models import Event, default_time_zone
from league.services.event_times import time_zone_names
from league.standings import tiebreak_choices


def variant_field(flag: dict[str, Any]) -> forms.Field:
    """A form field for one variant flag of the engine registry's schema."""
    label = flag["name"].replace("_", " ")
    help_text = flag.get("help", "")
    if flag["type"] == "bool":
        return forms.BooleanField(
            label=label, required=False, initial=flag["default"], help_text=help_text
        )
    if flag["type"] == "int":
        return forms.IntegerField(
            label=label,
            min_value=flag["min"],
            max_value=flag["max"],
            initial=flag["default"],
            help_text=help_text,
        )
    return forms.ChoiceField(
        label=label,
        choices=[(c, c) for c in flag["choices"]],
        initial=flag["default"],
        help_text=help_text,
    )


# The schedule's settings (league.services.schedule): optional in a post, defaults kept.
SCHEDULE_FIELDS = ("time_zone", "deadline_policy", "extension_days")


def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in time_zone_names()]


class EventForm(forms.ModelForm):
    """Event settings for one game; `variant__<flag>` fields come from the game's schema."""

    tiebreaks = forms.MultipleChoiceField(
        choices=tiebreak_choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="applied in the order listed after match points",
    )
    time_zone = forms.ChoiceField(
        label=gettext_lazy("Time zone"),
        choices=time_zone_choices,
        initial=default_time_zone,
        help_text=gettext_lazy("the event's times are shown and entered in it"),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "kind",
            "format",
            "rounds",
            "deals_per_match",
            "leftover",
            "bye_match_points",
            "seconds_per_move",
            "on_timeout",
            "play_online",
            "allow_spectators",
            "allow_bot_accounts",
            "table_results",
            "seed",
            "time_zone",
            "asynchronous",
            "deadline_policy",
            "extension_days",
        ]

    def __init__(self, *args: Any, game: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.schema = gameplay.game(game).variant_schema
        current = self.instance.variant if self.instance.pk else {}
        for flag in self.schema:
            field = variant_field(flag)
            if flag["name"] in current:
                field.initial = current[flag["name"]]
            self.fields[f"variant__{flag['name']}"] = field
        for name in SCHEDULE_FIELDS:  # left out (an older client): the event keeps its own
            self.fields[name].required = False
        if self.instance.pk:
            self.fields["tiebreaks"].initial = self.instance.tiebreaks
        else:
            # A new event: blank means create_event draws a random seed.
            self.initial["seed"] = None
            self.fields["seed"].required = False
            self.fields["seed"].help_text = gettext_lazy(
                "makes round plans and the lot repeatable; leave it blank for a random one"
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in SCHEDULE_FIELDS:
            if data.get(name) in (None, ""):
                data[name] = getattr(self.instance, name)  # the event's, or the default
        return data

    def variant(self) -> dict[str, Any]:
        out = {}
        for flag in self.schema:
            value = self.cleaned_data[f"variant__{flag['name']}"]
            if flag["type"] == "choice":
                # choices may be ints or strings in the schema; map back to the typed value
                value = next(c for c in flag["choices"] if str(c) == str(value))
            out[flag["name"]] = value
        return out

    def service_fields(self) -> dict[str, Any]:
        fields = {name: self.cleaned_data[name] for name in self.Meta.fields}
        fields["game"] = self.game
        fields["variant"] = self.variant()
        fields["tiebreaks"] = list(self.cleaned_data["tiebreaks"]) or None
        return fields


class EntryForm(forms.Form):
    player = forms.CharField(max_length=60, help_text="an existing player's name, or a new one")
    checked_in = forms.BooleanField(required=False, initial=True)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _strict_json(text: str) -> Any:
    """JSON as the standard has it: no NaN or Infinity (the database refuses them)."""
    return json.loads(text, parse_constant=_reject_constant)


class ResultForm(forms.Form):
    """A record (uploaded or pasted) or a typed score sheet (JSON), plus forfeit and reason."""

    record_file = forms.FileField(required=False, label="Game record file (JSON)")
    record_text = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 6}), label="…or paste the record"
    )
    sheet_text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        label="…or type a score sheet (JSON)",
        help_text='{"deals": [{"scores": [..], "payouts": [..]}, ...]}; Mediatore: contracts',
    )
    forfeited_seats = forms.CharField(
        required=False, help_text="seat numbers that forfeited, comma-separated"
    )
    reason = forms.CharField(required=False, max_length=300, help_text="required for a correction")
    # The version of the result the person saw (0: none): a resubmitted or stale form is refused.
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=32767)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        record_raw = None
        if data.get("record_file"):
            record_raw = data["record_file"].read().decode("utf-8", errors="replace")
        elif data.get("record_text", "").strip():
            record_raw = data["record_text"]
        sheet_raw = data.get("sheet_text", "").strip() or None
        if (record_raw is None) == (sheet_raw is None):
            raise forms.ValidationError("Give either a game record or a score sheet.")
        try:
            data["record"] = _strict_json(record_raw) if record_raw is not None else None
            data["sheet"] = _strict_json(sheet_raw) if sheet_raw is not None else None
        except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
            raise forms.ValidationError(f"Not valid JSON: {exc}") from None
        try:
            data["forfeited"] = [
                int(s) for s in data.get("forfeited_seats", "").replace(" ", "").split(",") if s
            ]
        except ValueError:
            raise forms.ValidationError("Forfeited seats must be numbers.") from None
        return data
