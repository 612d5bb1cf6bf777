"""Web Push: a player's browsers subscribe (`subscribe`), and each new notice whose kind the
player pushes reaches them through their push services (`push_notice`, a Celery task after
commit), signed with the site's VAPID key and encrypted for each browser alone.

A subscription names the push service's URL the browser got (its `endpoint`); the server posts
there, so only the push services of `WEBPUSH_ENDPOINT_HOSTS` are accepted, over https. A push
service that answers 404 or 410 has dropped the subscription, and it is deleted. The push holds
the notice's title and text in the player's language and the path that opens it; the service
worker (static/js/sw.js) shows it. Logs name a subscription by id, never its endpoint or keys.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any
from urllib.parse import urlparse

import requests
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from config.vapid import b64url_decode
from league.errors import LeagueError
from league.models import Notice, NoticeSettings, PushSubscription
from league.services.notice_kinds import reader_zones, words
from league.services.notice_prefs import in_quiet_hours, wants_push

log = logging.getLogger(__name__)

# How long a push service keeps a push for a browser that is offline (seconds).
PUSH_TTL = 24 * 3600
# Subscriptions one account may keep (a phone, a laptop, ...): the oldest goes beyond.
MAX_PER_ACCOUNT = 10


def enabled() -> bool:
    """Whether this site pushes at all (it has a VAPID key)."""
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


def check_endpoint(endpoint: str) -> str:
    """The endpoint, if it is a push service's URL this site posts to; LeagueError otherwise."""
    url = urlparse(endpoint or "")
    host = (url.hostname or "").lower()
    schemes = ("https", "http") if settings.WEBPUSH_ALLOW_HTTP else ("https",)
    known = any(host == h or host.endswith("." + h) for h in settings.WEBPUSH_ENDPOINT_HOSTS)
    if url.scheme not in schemes or not known or len(endpoint) > 1000 or url.username:
        raise LeagueError(_("This browser's push service is not one this site can use."))
    return endpoint


def _check_key(value: Any, size: int) -> str:
    try:
        if not isinstance(value, str) or len(b64url_decode(value)) != size:
            raise ValueError
    except ValueError:
        raise LeagueError(_("The browser sent a subscription this site cannot read.")) from None
    return value


def subscribe(user: Any, data: dict[str, Any]) -> PushSubscription:
    """Keep a browser's subscription (`PushSubscription.toJSON()`) for the account; the same
    endpoint again updates its keys (and moves to this account: one browser, one account)."""
    if not getattr(user, "is_authenticated", False) or getattr(user, "is_guest", False):
        raise PermissionDenied(_("log in to get notices on this device"))
    if not enabled():
        raise LeagueError(_("This site sends no push notices."))
    keys = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(keys, dict):
        raise LeagueError(_("The browser sent a subscription this site cannot read."))
    endpoint = check_endpoint(str(data.get("endpoint") or ""))
    p256dh = _check_key(keys.get("p256dh"), 65)
    auth = _check_key(keys.get("auth"), 16)
    with transaction.atomic():
        try:
            with transaction.atomic():
                sub, _made = PushSubscription.objects.update_or_create(
                    endpoint=endpoint, defaults={"user_id": user.pk, "p256dh": p256dh, "auth": auth}
                )
        except IntegrityError:  # the same browser, at the same moment: the other one won
            sub = PushSubscription.objects.get(endpoint=endpoint)
        extra = PushSubscription.objects.filter(user_id=user.pk).order_by("-created_at", "-pk")
        old = list(extra.values_list("pk", flat=True)[MAX_PER_ACCOUNT:])
        if old:
            PushSubscription.objects.filter(pk__in=old).delete()
    return sub


def unsubscribe(user: Any, endpoint: str) -> int:
    """Forget the account's subscription at this endpoint (the browser turned push off)."""
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied(_("log in to get notices on this device"))
    deleted, _kinds = PushSubscription.objects.filter(user_id=user.pk, endpoint=endpoint).delete()
    return deleted


def payload(notice: Notice) -> dict[str, str]:
    """What the service worker shows: the notice's words in the account's language, the path
    that opens it (and marks it read), a tag so a push sent twice shows once."""
    with translation.override(notice.user.language or settings.LANGUAGE_CODE):
        zone = reader_zones({notice.user_id}).get(notice.user_id)
        title, text = words(notice.kind, notice.context, reader_zone=zone)
    return {
        "title": str(title),
        "body": str(text),
        "url": reverse("league:notice_open", args=[notice.pk]),
        "tag": f"notice-{notice.pk}",
        "icon": static("img/icon-192.png"),
    }


def send(sub: PushSubscription, data: dict[str, str]) -> str:
    """Post one push; "sent", "gone" (404/410: the subscription is deleted) or "failed"."""
    try:
        check_endpoint(sub.endpoint)
        webpush(
            {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
            data=json.dumps(data),
            vapid_private_key=Vapid02.from_raw(settings.VAPID_PRIVATE_KEY.encode()),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=PUSH_TTL,
            timeout=settings.WEBPUSH_TIMEOUT,
        )
    except WebPushException as error:
        code = getattr(error.response, "status_code", None)
        if code in (404, 410):
            PushSubscription.objects.filter(pk=sub.pk).delete()
            return "gone"
        log.warning("push to subscription %s failed (HTTP %s)", sub.pk, code)
        return "failed"
    except (LeagueError, requests.RequestException, ValueError) as error:
        log.warning("push to subscription %s failed (%s)", sub.pk, type(error).__name__)
        return "failed"
    return "sent"


def push_notice(notice_id: int, *, release: bool = False, now: datetime | None = None) -> str:
    """Push one notice to its account's browsers unless it was handled already: "sent", "off"
    (the kind is not pushed), "none" (no browser), "held" (quiet hours: `release` it later),
    "failed", "disabled" (no VAPID key) or "done" (another run had it)."""
    now = now or timezone.now()
    waiting = Q(push_status="held") if release else Q(pushed_at__isnull=True)
    claimed = Notice.objects.filter(waiting, pk=notice_id).update(pushed_at=now, push_status="")
    if not claimed:
        return "done"
    notice = Notice.objects.select_related("user").get(pk=notice_id)
    row = NoticeSettings.objects.filter(user_id=notice.user_id).first()
    subs = list(PushSubscription.objects.filter(user_id=notice.user_id))
    if not enabled():
        status = "disabled"
    elif not wants_push(row.push if row else {}, notice.kind):
        status = "off"
    elif not subs:
        status = "none"
    elif in_quiet_hours(row, now):
        status = "held"
    else:
        data = payload(notice)
        results = [send(sub, data) for sub in subs]
        status = "sent" if "sent" in results else "failed"
    Notice.objects.filter(pk=notice_id).update(push_status=status)
    return status


def push_notices(notice_ids: list[int]) -> int:
    """Push each notice (see `push_notice`); returns how many reached a browser."""
    sent = 0
    for notice_id in notice_ids:
        try:
            sent += push_notice(notice_id) == "sent"
        except Exception:
            log.exception("notice %s was not pushed", notice_id)
    return sent
