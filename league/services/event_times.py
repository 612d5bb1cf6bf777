"""An event's times: its time zone, checked and applied, and a time as its pages show it.

Every time of an event (a round's start and deadline, a proposed time, a notice's deadline) is
stored in UTC and shown in the event's time zone, labelled with the zone's abbreviation
("18:00 CET"), in the reader's language's format (Django's localized DATETIME_FORMAT).
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from league.errors import LeagueError
from league.models import Event

# The most days the "extend" deadline policy may add.
MAX_EXTENSION_DAYS = 60


@cache
def time_zone_names() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows, sorted (the event form's choices)."""
    return tuple(sorted(available_timezones()))


def check_time_zone(name: str) -> str:
    """The name of a known time zone, or a clear refusal."""
    name = (name or "").strip()
    if name not in time_zone_names() and name != "UTC":
        raise LeagueError(
            _("%(zone)s is no time zone: give an IANA name such as Europe/Rome or UTC")
            % {"zone": name or "''"}
        )
    return name


def zone(name: str) -> ZoneInfo:
    """The event's time zone; UTC for a name this machine does not know (never a 500)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def in_zone(moment: datetime, name: str) -> datetime:
    """`moment` on the clocks of the time zone `name`."""
    return timezone.localtime(moment, zone(name))


def show_time(moment: datetime | None, name: str, language: str | None = None) -> str:
    """A time as the event's pages show it: localized for `language` (default: the active
    one), in the event's zone, labelled with it: "Jan. 5, 2026, 6 p.m. CET"."""
    if moment is None:
        return ""
    local = in_zone(moment, name)
    with translation.override(language or translation.get_language()):
        text = formats.date_format(local, "DATETIME_FORMAT", use_l10n=True)
    return f"{text} {local.tzname()}"


def check_schedule_fields(fields: dict) -> dict:
    """Check an event's schedule settings (time zone, asynchronous play, deadline policy) in
    the fields given to create or update it; returns them, the time zone's name trimmed."""
    if "time_zone" in fields:
        fields["time_zone"] = check_time_zone(fields["time_zone"])
    if fields.get("asynchronous") and not fields.get("play_online", True):
        raise LeagueError(_("an asynchronous event is played online: switch online play on"))
    policy = fields.get("deadline_policy")
    if policy is not None and policy not in Event.DeadlinePolicy.values:
        raise LeagueError(
            _("the deadline policy is one of %(names)s")
            % {"names": ", ".join(Event.DeadlinePolicy.values)}
        )
    days = fields.get("extension_days")
    if days is not None and not 1 <= int(days) <= MAX_EXTENSION_DAYS:
        raise LeagueError(_("an extension is 1 to %(most)s days") % {"most": MAX_EXTENSION_DAYS})
    return fields
