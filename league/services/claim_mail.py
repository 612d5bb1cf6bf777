"""E-mailing a claim invitation to an imported player: once per entry, to the address the
organizer's import gave (`Entry.email`), through Django's e-mail framework.

The link carries the invitation's token (league.services.claims): it goes to the address only,
never to a log or back to the organizer's page. One mail per entry, so an organizer's import
cannot become a way to send someone mail again and again; without an address the organizer is
shown the link once instead (the claim invitation page).
"""

from __future__ import annotations

import smtplib
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.mail_subject import mail_subject
from league.errors import LeagueError
from league.models import Entry
from league.services import claims


@transaction.atomic
def mail_claim_invitation(entry: Entry, *, by: Any, claim_url: str) -> str:
    """Make an invitation to claim the entry's player and mail it; returns the address.

    `claim_url` is the absolute URL of the claim page (the request's host); the token is added
    here. Authorized by `claims.invite_to_claim` (the organizers of the player's events). A mail
    that cannot be sent undoes the invitation and says so."""
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    if not entry.email:
        raise LeagueError(_("no e-mail address was given for %(name)s") % {"name": entry.player})
    if entry.claim_mailed_at is not None:
        raise LeagueError(
            _("an invitation was e-mailed to %(name)s on %(when)s already")
            % {
                "name": entry.player.name,
                "when": formats.date_format(entry.claim_mailed_at, "DATE_FORMAT"),
            }
        )
    made = claims.invite_to_claim(entry.player, by=by)
    link = f"{claim_url}?{urlencode({'token': made.token})}"
    subject = mail_subject(_("Claim your player %(name)s on Mediana") % {"name": entry.player.name})
    body = _(
        "The organizers of %(event)s entered you as %(name)s. To play online and keep your "
        "results and ratings under your own account, open this link, sign up (or log in) and "
        "confirm:\n\n%(link)s\n\nThe link works once, for %(days)s days. If this is not you, "
        "ignore this mail."
    ) % {
        "event": entry.event.name,
        "name": entry.player.name,
        "link": link,
        "days": claims.invitation_days(),
    }
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [entry.email])
    except (OSError, smtplib.SMTPException):
        raise LeagueError(
            _("the mail to %(address)s could not be sent: try again later")
            % {"address": entry.email}
        ) from None
    Entry.objects.filter(pk=entry.pk).update(claim_mailed_at=timezone.now())
    return entry.email
