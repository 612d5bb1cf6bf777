"""The notices that wait on a player's clock, sent by a periodic job (beat, every minute; the
server runs it itself in the embedded mode): those held in quiet hours, pushed and mailed once
the hours end, and the daily digests, one mail per player a day at the player's hour listing the
notices that waited for it ("digest"), instead of one mail each.

A digest is claimed by its day (`digest_sent_on`, set in the transaction that sends it), so a
second run, or two at once, sends nothing twice; a send that fails rolls the claim back and the
next run tries again. A player who turns the digest off gets what waited at the next run.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import ngettext

from accounts.mail_subject import mail_subject
from league.models import Notice, NoticeSettings
from league.services import web_push
from league.services.notice_kinds import player_names, reader_zones, words
from league.services.notice_mail import account_address, email_notice, site_url, unsubscribe_url
from league.services.notice_prefs import in_quiet_hours, zone_of

log = logging.getLogger(__name__)

# Notices a digest lists at most (the rest wait for the next day's).
DIGEST_MAX = 200


def release_held(now: datetime | None = None) -> int:
    """Push and mail the notices held in quiet hours that are over; returns how many went."""
    now = now or timezone.now()
    held = list(
        Notice.objects.filter(Q(email_status="held") | Q(push_status="held"))
        .order_by("created_at", "pk")
        .values_list("pk", "user_id", "email_status", "push_status")[:1000]
    )
    rows = NoticeSettings.objects.in_bulk(
        {user_id for _pk, user_id, _e, _p in held}, field_name="user_id"
    )
    released = 0
    for pk, user_id, email_status, push_status in held:
        if in_quiet_hours(rows.get(user_id), now):
            continue
        try:
            if push_status == "held":
                released += web_push.push_notice(pk, release=True, now=now) == "sent"
            if email_status == "held":
                released += email_notice(pk, release=True, now=now) == "sent"
        except Exception:
            log.exception("held notice %s was not sent; the next run tries again", pk)
    return released


def digest_due(row: NoticeSettings, now: datetime) -> bool:
    """Whether the player's digest of today (on their clock) is due and not yet sent."""
    if not row.digest:
        return True  # switched off: what waited goes now
    local = now.astimezone(zone_of(row))
    return local.hour >= row.digest_hour and row.digest_sent_on != local.date()


def build_digest(user: Any, notices: list[Notice], address: str) -> EmailMessage:
    """One mail listing the notices, in the account's language."""
    names = player_names([n.context for n in notices])
    zone = reader_zones({user.pk}).get(user.pk)
    with translation.override(user.language or settings.LANGUAGE_CODE):
        items = []
        for notice in notices:
            title, text = words(notice.kind, notice.context, None, names, zone)
            link = site_url(reverse("league:notice_open", args=[notice.pk]))
            items.append({"title": title, "text": text, "link": link})
        context = {
            "user": user,
            "items": items,
            "unsubscribe_all": unsubscribe_url(user.pk, None),
            "settings_link": site_url(reverse("profile")),
        }
        body = render_to_string("league/notices/digest.txt", context)
        count = len(items)
        title = ngettext("%(count)s notice of the day", "%(count)s notices of the day", count)
        subject = mail_subject("[Mediana] " + title % {"count": count})
    return EmailMessage(
        subject=subject,
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[address],
        headers={
            "List-Unsubscribe": f"<{context['unsubscribe_all']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )


def send_digest(row: NoticeSettings, now: datetime) -> str:
    """The player's digest, if due: "sent", "empty", "not_due", "done" (another run had it), or
    why no mail can go (the notices are then marked so)."""
    if not digest_due(row, now):
        return "not_due"
    today = now.astimezone(zone_of(row)).date()
    with transaction.atomic():
        if row.digest:
            claimed = (
                NoticeSettings.objects.filter(pk=row.pk)
                .filter(Q(digest_sent_on__isnull=True) | Q(digest_sent_on__lt=today))
                .update(digest_sent_on=today)
            )
            if not claimed:
                return "done"
        waiting = Notice.objects.select_for_update().filter(
            user_id=row.user_id, email_status="digest"
        )
        notices = list(waiting.select_related("user").order_by("created_at", "pk")[:DIGEST_MAX])
        if not notices:
            return "empty"
        user = notices[0].user
        status, address = account_address(user)
        if status == "send":
            build_digest(user, notices, address).send()
            status = "sent"
        Notice.objects.filter(pk__in=[n.pk for n in notices]).update(
            email_status="digested" if status == "sent" else status
        )
    return status


def send_digests(now: datetime | None = None) -> int:
    """Every digest that is due; returns how many mails went out."""
    now = now or timezone.now()
    waiting_users = Notice.objects.filter(email_status="digest").values("user_id")
    rows = NoticeSettings.objects.filter(Q(digest=True) | Q(user_id__in=waiting_users))
    sent = 0
    for row in rows.order_by("pk"):
        try:
            sent += send_digest(row, now) == "sent"
        except Exception:
            log.exception("the digest of account %s was not sent; the next run tries", row.user_id)
    return sent


def run_timers(now: datetime | None = None) -> dict[str, int]:
    """The periodic job: release what quiet hours held, then send the due digests."""
    now = now or timezone.now()
    return {"released": release_held(now), "digests": send_digests(now)}
