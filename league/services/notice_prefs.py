"""A player's notice settings beyond the e-mail switches: push per kind, quiet hours and the
daily digest, all on the player's own clock (a time zone of `zoneinfo`'s).

Quiet hours run from `quiet_from` to `quiet_to` (past midnight when `quiet_from` is later):
notices made then wait, push and mail, until they end (`league.services.notice_timers`). The
digest turns single mails into one mail a day at `digest_hour`. Only the account itself
changes its settings (`save_settings`), and a bad value changes nothing.
"""

from __future__ import annotations

from datetime import datetime, time
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from league.errors import LeagueError
from league.models import NoticeSettings
from league.services.notice_kinds import KINDS
from league.services.notifications import ALL_KINDS, wants_email

PUSH_DEFAULT = True  # a kind is pushed to a browser that was subscribed, unless switched off


@cache
def time_zones() -> tuple[str, ...]:
    """The time zones a player may pick, sorted (zoneinfo's, without the legacy aliases' case)."""
    return tuple(sorted(z for z in available_timezones() if "/" in z or z == "UTC"))


def zone_of(row: NoticeSettings | None) -> ZoneInfo:
    """The player's time zone; the site's when none is set (or it is gone from the database)."""
    name = (row.time_zone if row else "") or settings.TIME_ZONE
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(settings.TIME_ZONE)


def wants_push(stored: dict[str, Any], kind: str) -> bool:
    """Whether a kind is pushed, from the push switches as stored (default on)."""
    if stored.get(ALL_KINDS) is False:
        return False
    return bool(stored.get(kind, PUSH_DEFAULT))


def in_quiet_hours(row: NoticeSettings | None, now: datetime) -> bool:
    """Whether `now` falls in the player's quiet hours, read on the player's clock."""
    if row is None or row.quiet_from is None or row.quiet_to is None:
        return False
    start, end = row.quiet_from, row.quiet_to
    if start == end:
        return False
    local = now.astimezone(zone_of(row)).time().replace(tzinfo=None)
    if start < end:
        return start <= local < end
    return local >= start or local < end  # past midnight


def settings_of(user: Any) -> dict[str, Any]:
    """Everything the settings page shows: per kind e-mail and push, and the timing."""
    row = NoticeSettings.objects.filter(user_id=user.pk).first()
    email = row.email if row else {}
    push = row.push if row else {}
    out: dict[str, Any] = {}
    for kind in KINDS:
        out[kind] = wants_email(email, kind)
        out[f"push_{kind}"] = wants_push(push, kind)
    out.update(
        time_zone=row.time_zone if row else "",
        quiet_from=row.quiet_from if row else None,
        quiet_to=row.quiet_to if row else None,
        digest=row.digest if row else False,
        digest_hour=row.digest_hour if row else 8,
    )
    return out


def save_settings(
    user: Any,
    *,
    by: Any,
    email: dict[str, bool],
    push: dict[str, bool],
    time_zone: str,
    quiet_from: time | None,
    quiet_to: time | None,
    digest: bool,
    digest_hour: int,
) -> None:
    """Save the account's own settings at once, or none of them (LeagueError says why)."""
    if not getattr(by, "is_authenticated", False) or by.pk != user.pk:
        raise PermissionDenied(_("only the account itself changes its notice settings"))
    unknown = (set(email) | set(push)) - set(KINDS)
    if unknown:
        raise LeagueError(_("unknown kinds of notice: %(kinds)s") % {"kinds": sorted(unknown)})
    if time_zone and time_zone not in time_zones():
        raise LeagueError(_("Pick a time zone from the list."))
    if (quiet_from is None) != (quiet_to is None):
        raise LeagueError(_("Quiet hours need both a start and an end, or neither."))
    if not 0 <= digest_hour <= 23:
        raise LeagueError(_("The digest's hour is from 0 to 23."))
    with transaction.atomic():
        row, _created = NoticeSettings.objects.select_for_update().get_or_create(user_id=user.pk)
        mails = {kind: wants_email(row.email, kind) for kind in KINDS}
        mails.update({k: bool(v) for k, v in email.items()})
        pushes = {kind: wants_push(row.push, kind) for kind in KINDS}
        pushes.update({k: bool(v) for k, v in push.items()})
        # Only what differs from the defaults (a kind added later gets its default).
        row.email = {k: v for k, v in mails.items() if v != KINDS[k].email_default}
        row.push = {k: v for k, v in pushes.items() if v != PUSH_DEFAULT}
        row.time_zone = time_zone
        row.quiet_from, row.quiet_to = quiet_from, quiet_to
        row.digest, row.digest_hour = bool(digest), digest_hour
        row.save()
