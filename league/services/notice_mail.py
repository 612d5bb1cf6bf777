"""E-mailing notices: each one at most once, to its account's own address, in its language.

`email_notice` claims the notice (`UPDATE … SET emailed_at = now WHERE emailed_at IS NULL`) and
sends inside the same transaction: a second run of the task (a retry, the sweep, a duplicate
delivery) finds it claimed and sends nothing; a send that fails for a while (the server down,
a 4xx answer) rolls the claim back, so the sweep tries again. A mail that can never go (a
message Django refuses to build, a 5xx answer: `permanent`) is logged once and marked
"failed", so the sweep does not try it every minute for days. Only the account's own address
gets mail, only a verified one where the deployment verifies addresses
(`ACCOUNT_EMAIL_VERIFICATION` not `none`), only for kinds its switches leave on; every mail has
a one-click unsubscribe link (and `List-Unsubscribe`). Subjects are `mail_subject`'s: one line.

A player's settings may make a mail wait: in their quiet hours it is "held" until they end, and
with the daily digest it waits as "digest" for the day's one mail (`league.services.
notice_timers` sends both).
"""

from __future__ import annotations

import logging
import smtplib
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.mail_subject import mail_subject
from league.models import Notice, NoticeSettings
from league.services.notice_kinds import reader_zones, words
from league.services.notice_prefs import in_quiet_hours
from league.services.notifications import unsubscribe_token, wants_email

log = logging.getLogger(__name__)

# Notices older than this are not mailed by the sweep any more (news that old is no news).
SWEEP_WINDOW = timedelta(days=2)
# The task normally mails a notice at once; the sweep waits this long before taking over.
SWEEP_GRACE = timedelta(minutes=1)


def site_url(path: str) -> str:
    """An absolute link to a path of this site (`SITE_URL`)."""
    return settings.SITE_URL.rstrip("/") + path


def unsubscribe_url(user_id: int, kind: str | None) -> str:
    token = unsubscribe_token(user_id, kind)
    return site_url(f"{reverse('league:unsubscribe')}?{urlencode({'token': token})}")


def address_for(notice: Notice) -> tuple[str, str]:
    """(status, address): "send" and the account's address, or why no mail goes out."""
    user = notice.user
    stored = (
        NoticeSettings.objects.filter(user_id=user.pk).values_list("email", flat=True).first() or {}
    )
    if not wants_email(stored, notice.kind):
        return "off", ""
    return account_address(user)


def account_address(user: Any) -> tuple[str, str]:
    """("send", address) when the account gets mail at all, else why not."""
    if not user.is_active:
        return "inactive", ""
    address = (user.email or "").strip()
    if not address:
        return "no_address", ""
    if settings.ACCOUNT_EMAIL_VERIFICATION != "none":
        verified = EmailAddress.objects.filter(
            user_id=user.pk, email__iexact=address, verified=True
        ).exists()
        if not verified:
            return "unverified", ""
    return "send", address


def build_message(notice: Notice, address: str) -> EmailMessage:
    """The mail of a notice, in its account's language."""
    user = notice.user
    with translation.override(user.language or settings.LANGUAGE_CODE):
        zone = reader_zones({user.pk}).get(user.pk)
        title, text = words(notice.kind, notice.context, reader_zone=zone)
        context = {
            "user": user,
            "text": text,
            "link": site_url(notice.url) if notice.url else "",
            "unsubscribe_kind": unsubscribe_url(user.pk, notice.kind),
            "unsubscribe_all": unsubscribe_url(user.pk, None),
            "settings_link": site_url(reverse("profile")),
        }
        body = render_to_string("league/notices/email.txt", context)
        subject = mail_subject(f"[Mediana] {title}")
    return EmailMessage(
        subject=subject,
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[address],
        headers={
            "List-Unsubscribe": f"<{context['unsubscribe_kind']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )


def permanent(error: Exception) -> bool:
    """Whether trying again cannot help: Django refused to build the message (a `ValueError`,
    such as `BadHeaderError`), or the server answered 5xx (for every recipient)."""
    if isinstance(error, ValueError):
        return True
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _text in error.recipients.values())
    return isinstance(error, smtplib.SMTPResponseException) and error.smtp_code >= 500


def email_notice(notice_id: int, *, release: bool = False, now: datetime | None = None) -> str:
    """Mail one notice unless it was handled already; returns what happened ("sent", "off",
    "no_address", "unverified", "inactive", "failed" for good, "held" in quiet hours, "digest"
    for the daily digest, or "done" when another run had it). `release`: a held notice, now
    that the quiet hours are over. A failure that may pass raises, and the claim is rolled
    back."""
    now = now or timezone.now()
    waiting = Q(email_status="held") if release else Q(emailed_at__isnull=True)
    with transaction.atomic():
        claimed = Notice.objects.filter(waiting, pk=notice_id).update(
            emailed_at=now, email_status=""
        )
        if not claimed:
            return "done"
        notice = Notice.objects.select_related("user").get(pk=notice_id)
        status, address = address_for(notice)
        row = NoticeSettings.objects.filter(user_id=notice.user_id).first()
        if status == "send" and row is not None and row.digest:
            status = "digest"
        elif status == "send" and in_quiet_hours(row, now):
            status = "held"
        if status == "send":
            try:
                build_message(notice, address).send()
            except Exception as error:
                if not permanent(error):
                    raise
                # Only the error's kind: its text may hold the headers (and their links).
                log.error(
                    "notice %s cannot be mailed (%s): marked failed, not tried again",
                    notice_id,
                    type(error).__name__,
                )
                status = "failed"
            else:
                status = "sent"
        Notice.objects.filter(pk=notice_id).update(email_status=status)
    return status


def email_notices(notice_ids: list[int]) -> int:
    """Mail each notice (see `email_notice`); one that fails is logged and left to the sweep.
    Returns how many mails went out."""
    sent = 0
    for notice_id in notice_ids:
        try:
            sent += email_notice(notice_id) == "sent"
        except Exception:
            log.exception("notice %s was not mailed; the sweep tries again", notice_id)
    return sent


def sweep_notice_mail(now: datetime | None = None) -> int:
    """Mail the recent notices whose task was lost (broker down, worker killed, SMTP failed)."""
    now = now or timezone.now()
    pending = Notice.objects.filter(
        emailed_at__isnull=True,
        created_at__lt=now - SWEEP_GRACE,
        created_at__gte=now - SWEEP_WINDOW,
    ).order_by("created_at")
    return email_notices(list(pending.values_list("pk", flat=True)[:500]))
