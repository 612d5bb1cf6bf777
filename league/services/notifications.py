"""Notices to players: on the site (the bell, `/notices/`) and by e-mail.

`notify` makes one `Notice` per account and key; the unique constraint on (user, key) — not a
check before the insert — makes a retried call, or a task run twice, make nothing twice. The
notices it made are mailed by a Celery task after the transaction commits
(`league.services.notice_mail`), which claims each notice once. On-site notices are always
made; e-mail is switched per kind on the profile page (`email_switches`), and an e-mail's
unsubscribe link (a signed token, no log-in) switches a kind, or all of them, off.

A notice is also pushed to the account's browsers that subscribed (`league.services.web_push`,
a task after commit), for the kinds its push switches leave on; quiet hours and the daily
digest make push and mail wait (`notice_prefs`, `notice_timers`).

A notice also reaches the account's open pages at once (`tell_open_pages`, after commit, through
`gameplay.api.tell_user`): its title in the account's language, its link, and the bell's new
unread count, so the header's bell moves without a reload.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from gameplay.api import tell_user
from league import queue
from league.errors import LeagueError
from league.models import Event, Notice, NoticeSettings
from league.services.notice_kinds import KINDS, player_names, reader_zones, words

UNSUBSCRIBE_SALT = "league.notices.unsubscribe"
ALL_KINDS = "*"  # an unsubscribe token or switch for every kind at once


def check_url(url: str) -> str:
    """A notice links to a page of this site, by path: never elsewhere, never to a secret."""
    if url and (not url.startswith("/") or url.startswith("//") or "token" in url.lower()):
        raise ValueError(f"a notice's link must be a path on this site without a token: {url!r}")
    return url


def notify(
    users: Iterable[Any],
    kind: str,
    *,
    key: str,
    event: Event | None = None,
    url: str = "",
    context: dict | None = None,
) -> int:
    """Give each account one notice of `kind` for `key`, and queue its e-mail after commit.

    Returns how many notices were made now: an account that already has a notice with this key
    gets none (a retry, a second run of a task). `url` is a path of this site (the table's or
    the fixture's page: never a seat token); `context` holds the values the kind's words use
    (JSON: names, numbers, times as ISO strings).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind of notice {kind!r}")
    check_url(url)
    ctx = dict(context or {})
    if event is not None:
        ctx.setdefault("event", event.name)
        ctx.setdefault("time_zone", event.time_zone)
    made: list[int] = []
    seen: set[int] = set()
    for user in users:
        user_id = getattr(user, "pk", user)
        if user_id is None or user_id in seen:
            continue
        seen.add(user_id)
        try:
            with transaction.atomic():  # a savepoint: a duplicate key undoes this one only
                notice = Notice.objects.create(
                    user_id=user_id, kind=kind, key=key[:160], event=event, url=url, context=ctx
                )
        except IntegrityError:
            continue  # this account has this notice already
        made.append(notice.pk)
    if made:
        queue.email_notices(made)
        queue.push_notices(made)
        tell_open_pages(made)
    return len(made)


def tell_open_pages(notice_ids: list[int]) -> None:
    """Show these new notices on their accounts' open pages (live.js): a fixed number of
    queries whatever their number, words in each account's language."""
    notices = list(Notice.objects.filter(pk__in=notice_ids).select_related("user"))
    unread = dict(
        Notice.objects.filter(user_id__in={n.user_id for n in notices}, read_at__isnull=True)
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    names = player_names([n.context for n in notices])
    zones = reader_zones({n.user_id for n in notices})
    for notice in notices:
        language = notice.user.language or settings.LANGUAGE_CODE
        with translation.override(language):
            zone = zones.get(notice.user_id)
            title, _text = words(notice.kind, notice.context, language, names, zone)
        tell_user(
            notice.user_id,
            {
                "type": "notice",
                "id": f"league-{notice.pk}",
                "text": str(title),
                "url": notice.url or reverse("league:notices"),
                "unread": unread.get(notice.user_id, 0),
            },
        )


# --- reading -----------------------------------------------------------------------------------


def unread_count(user: Any) -> int:
    """How many notices the account has not read (the bell): one query."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notice.objects.filter(user_id=user.pk, read_at__isnull=True).count()


def mark_read(user: Any, notice_id: int) -> bool:
    """Mark one of the account's own notices read; False for someone else's (or no such)."""
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied(_("log in to read your notices"))
    updated = Notice.objects.filter(pk=notice_id, user_id=user.pk, read_at__isnull=True).update(
        read_at=timezone.now()
    )
    return bool(updated) or Notice.objects.filter(pk=notice_id, user_id=user.pk).exists()


def mark_all_read(user: Any) -> int:
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied(_("log in to read your notices"))
    return Notice.objects.filter(user_id=user.pk, read_at__isnull=True).update(
        read_at=timezone.now()
    )


# --- e-mail switches ---------------------------------------------------------------------------


def wants_email(stored: dict[str, Any], kind: str) -> bool:
    """Whether a kind is e-mailed, from the switches as stored (defaults for the rest)."""
    if stored.get(ALL_KINDS) is False:
        return False
    spec = KINDS.get(kind)
    default = spec.email_default if spec else False
    return bool(stored.get(kind, default))


def email_switches(user: Any) -> dict[str, bool]:
    """Every kind and whether it is e-mailed to this account."""
    stored = (
        NoticeSettings.objects.filter(user_id=user.pk).values_list("email", flat=True).first() or {}
    )
    return {kind: wants_email(stored, kind) for kind in KINDS}


def set_email_switches(user: Any, switches: dict[str, bool], *, by: Any) -> dict[str, bool]:
    """Save the account's own e-mail switches (kinds not given keep theirs)."""
    if not getattr(by, "is_authenticated", False) or by.pk != user.pk:
        raise PermissionDenied(_("only the account itself changes its e-mail switches"))
    unknown = set(switches) - set(KINDS)
    if unknown:
        raise LeagueError(_("unknown kinds of notice: %(kinds)s") % {"kinds": sorted(unknown)})
    with transaction.atomic():
        row, _created = NoticeSettings.objects.select_for_update().get_or_create(user_id=user.pk)
        current = {kind: wants_email(row.email, kind) for kind in KINDS}
        current.update({kind: bool(on) for kind, on in switches.items()})
        # Store only what differs from the defaults (a new kind later gets its default).
        row.email = {k: v for k, v in current.items() if v != KINDS[k].email_default}
        row.save(update_fields=["email"])
    return current


def unsubscribe_token(user_id: int, kind: str | None = None) -> str:
    """A signed token that switches off e-mails of `kind` (None: every kind) for one account;
    it never expires and grants nothing else."""
    return signing.dumps([user_id, kind or ALL_KINDS], salt=UNSUBSCRIBE_SALT, compress=False)


def read_unsubscribe_token(token: str) -> tuple[Any, str]:
    """The account and kind (or "*") a token names; LeagueError for a bad or forged one."""
    try:
        user_id, kind = signing.loads(token or "", salt=UNSUBSCRIBE_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        raise LeagueError(_("This unsubscribe link is not valid.")) from None
    if kind != ALL_KINDS and kind not in KINDS:
        raise LeagueError(_("This unsubscribe link is not valid."))
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        raise LeagueError(_("This unsubscribe link is not valid."))
    return user, kind


def unsubscribe(token: str) -> tuple[Any, str]:
    """Switch off what the token names (no log-in: the signature is the authority)."""
    user, kind = read_unsubscribe_token(token)
    with transaction.atomic():
        row, _created = NoticeSettings.objects.select_for_update().get_or_create(user_id=user.pk)
        email = dict(row.email)
        email[kind] = False
        row.email = email
        row.save(update_fields=["email"])
    return user, kind
