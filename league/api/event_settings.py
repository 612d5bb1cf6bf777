"""`PATCH /api/events/<slug>/`: change an event's settings by the organizer's edit form's rules.

The body names only the settings to change. Its JSON types are checked here
(`EventSettingsSerializer`); everything else is the edit form's and its service's to decide, so
the API cannot drift from the page: the request is laid over the event's current settings and
bound to `league.forms.events.EventForm` exactly as the page binds a post (a setting a planned
round has used is refused beside its field, a bound, a choice, a duplicate rule), then
`league.services.events.update_event` saves it (its own checks, the closed event, nothing
changed on a refusal). A field that is not a setting is refused by name, never ignored.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from league.errors import LeagueError
from league.forms.events import EventForm
from league.models import Event

VARIANT_PREFIX = "variant__"


class EventSettingsSerializer(serializers.Serializer):
    """The settings an organizer may change, by JSON type only (all optional: the fields left
    out keep their value). Which values are allowed now is the edit form's rule."""

    name = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    kind = serializers.CharField(required=False, help_text="`tournament` or `league`")
    variant = serializers.DictField(
        required=False,
        help_text="the game's flags to change, by name (the others keep their value)",
    )
    format = serializers.CharField(required=False)
    rounds = serializers.IntegerField(required=False)
    deals_per_match = serializers.IntegerField(required=False)
    leftover = serializers.CharField(required=False)
    bot_level = serializers.CharField(required=False)
    rank_bots = serializers.BooleanField(
        required=False, help_text="rank the bots that fill seats among the people (off: unranked)"
    )
    scoring = serializers.CharField(required=False)
    duplicate_rank = serializers.CharField(required=False)
    bye_match_points = serializers.IntegerField(required=False)
    tiebreaks = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="in the order they decide; an empty list is the default order",
    )
    seconds_per_move = serializers.IntegerField(required=False)
    pace = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="a pace by name (a turn-based one, e.g. `2-days`, plays the fixtures by the "
        "day); blank: seconds_per_move",
    )
    on_timeout = serializers.CharField(required=False)
    play_online = serializers.BooleanField(required=False)
    allow_spectators = serializers.BooleanField(required=False)
    allow_bot_accounts = serializers.BooleanField(required=False)
    table_results = serializers.BooleanField(required=False)
    seed = serializers.IntegerField(
        required=False, write_only=True, help_text="never shown: it would tell the draws"
    )
    time_zone = serializers.CharField(required=False)
    asynchronous = serializers.BooleanField(required=False)
    deadline_policy = serializers.CharField(required=False)
    extension_days = serializers.IntegerField(required=False)


def not_settings() -> dict[str, str]:
    """Fields an event's JSON has that this endpoint does not set, each with where it changes."""
    read_only = _("read-only")
    return {
        "game": _(
            "an event's game cannot change (its variant, bots and score sheets are the game's): "
            "create another event"
        ),
        "visibility": _("publish the event with POST …/publish/"),
        "status": _("close the event with POST …/close/"),
        "signup_open": _("change the sign-up rules with PATCH …/registration/"),
        "capacity": _("change the sign-up rules with PATCH …/registration/"),
        "signup_deadline": _("change the sign-up rules with PATCH …/registration/"),
        "check_in_open": _("open or close check-in with POST …/check-in-window/"),
        **dict.fromkeys(("slug", "game_name", "entries_count", "created_at", "url"), read_only),
    }


def requested_changes(event: Event, body: Any) -> dict[str, Any]:
    """The settings the body asks to change, typed; a 400 naming every field that is not a
    setting (the game: only if it differs) or has the wrong JSON type."""
    if not isinstance(body, dict):
        raise LeagueError(_("send a JSON object: the settings to change, by name"))
    body = body.dict() if hasattr(body, "dict") else dict(body)  # a form post: one value each
    if body.get("game") == event.game:
        del body["game"]  # the event's own game, sent back as read: no change asked
    serializer = EventSettingsSerializer(data=body)
    known = set(serializer.fields)
    refused = not_settings()
    errors: dict[str, Any] = {
        name: [refused.get(name) or _("unknown field: not a setting of an event")]
        for name in body
        if name not in known
    }
    if not serializer.is_valid():
        errors.update(serializer.errors)
    if errors:
        raise ValidationError(errors)
    return dict(serializer.validated_data)


def bound_form(event: Event, changes: dict[str, Any], *, read_only: bool) -> EventForm:
    """The edit form bound to the event's current settings with `changes` laid over them, as
    if the organizer had changed those fields on the page and saved (the variant's flags typed
    first: `typed_flags`)."""
    unbound = EventForm(instance=event, game=event.game)
    data = {name: unbound[name].value() for name in unbound.fields}
    variant = typed_flags(changes.pop("variant", {}), unbound.schema)
    data.update(changes)
    data.update({f"{VARIANT_PREFIX}{name}": value for name, value in variant.items()})
    return EventForm(data, instance=event, game=event.game, read_only=read_only)


# A flag's JSON type by its type in the game's schema (a choice's values are the form's to judge).
FLAG_TYPES = {"bool": serializers.BooleanField, "int": serializers.IntegerField}


def typed_flags(variant: dict[str, Any], schema: list[dict[str, Any]]) -> dict[str, Any]:
    """The variant's flags, each of the JSON type its schema gives; a 400 under `variant` for
    a flag the game has not, or of the wrong type ("flag: why")."""
    types = {flag["name"]: flag["type"] for flag in schema}
    unknown = sorted(set(variant) - set(types))
    if unknown:
        message = _("%(names)s: not a flag of this game (its flags: %(flags)s)") % {
            "names": ", ".join(unknown),
            "flags": ", ".join(sorted(types)) or "—",
        }
        raise ValidationError({"variant": [message]})
    typed: dict[str, Any] = {}
    problems: list[str] = []
    for name, value in variant.items():
        field = FLAG_TYPES.get(types[name])
        try:
            typed[name] = field().run_validation(value) if field else value
        except ValidationError as exc:
            problems += [f"{name}: {m}" for m in exc.detail]
    if problems:
        raise ValidationError({"variant": problems})
    return typed


def form_errors(form: EventForm) -> dict[str, list[str]]:
    """The form's errors by the API's field names: a flag's under `variant` ("flag: why"),
    the form's own under `non_field_errors`."""
    errors: dict[str, list[str]] = {}
    for name, messages in form.errors.items():
        if name.startswith(VARIANT_PREFIX):
            flag = name.removeprefix(VARIANT_PREFIX)
            errors.setdefault("variant", []).extend(f"{flag}: {m}" for m in messages)
        elif name == "__all__":
            errors.setdefault("non_field_errors", []).extend(messages)
        else:
            errors.setdefault(name, []).extend(messages)
    return errors


def settings_to_save(event: Event, body: Any, *, read_only: bool) -> dict[str, Any]:
    """The fields for `update_event`, from the body as the edit form cleans them; a 400 with
    the form's errors by field when it refuses them."""
    form = bound_form(event, requested_changes(event, body), read_only=read_only)
    if not form.is_valid():
        raise ValidationError(form_errors(form))
    fields = form.service_fields()
    fields.pop("game")  # the page's edit saves the same way: the game never changes
    return fields
