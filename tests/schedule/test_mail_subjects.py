"""E-mail subjects are one line whatever the names in them hold (accounts.mail_subject): a name
stored with a carriage return before names were checked no longer stops its notices. A notice
whose mail can never go is logged once and marked failed, not tried by the sweep for days; one
that may go later is still tried again."""

from __future__ import annotations

import logging
import smtplib
from datetime import UTC, datetime

import pytest
from django.core.mail import BadHeaderError, EmailMessage

from accounts.mail_subject import mail_subject
from league.models import Notice, Player
from league.services import notice_mail
from league.services.notifications import notify
from tests.language import text


def test_a_subject_is_one_line_whatever_the_text_holds():
    typed = "Round 1 of Winter\r\nleague\tcup\u2028final\x00!\x0b"
    assert mail_subject(typed) == "Round 1 of Winter league cup final!"
    assert mail_subject("x" * 300) == "x" * 200


@pytest.mark.parametrize("stored", ["Winter\rleague", "Winter\r\nleague", " Winter\n\nleague "])
def test_an_event_name_stored_with_a_line_break_is_still_mailed(
    players, mailoutbox, django_capture_on_commit_callbacks, stored
):
    bob = players[0]
    with django_capture_on_commit_callbacks(execute=True):
        notify([bob], "moved_up", key="k", url="/events/", context={"event": stored})
    (sent,) = mailoutbox
    assert sent.subject == "[Mediana] " + text("You are in %(event)s", event="Winter league")
    assert Notice.objects.get(user=bob).email_status == "sent"


def test_a_players_name_stored_with_a_carriage_return_is_still_mailed(
    players, mailoutbox, django_capture_on_commit_callbacks
):
    bob, carol, _ = players
    Player.objects.filter(user=bob).update(name="Bob\rby")
    context = {"by_player": bob.player.pk, "when": datetime(2026, 1, 5, tzinfo=UTC).isoformat()}
    with django_capture_on_commit_callbacks(execute=True):
        notify([carol], "time_proposed", key="k", url="/events/", context=context)
    (sent,) = mailoutbox
    assert sent.subject.startswith("[Mediana] Bob by") and "\r" not in sent.subject


PERMANENT = {
    "a header Django refuses": BadHeaderError("Header values can't contain newlines (token=x)"),
    "every recipient refused (550)": smtplib.SMTPRecipientsRefused(
        {"bob@example.org": (550, b"5.1.1 no such user")}
    ),
    "the message refused (554)": smtplib.SMTPDataError(554, b"5.7.1 rejected"),
}


@pytest.mark.parametrize("error", PERMANENT.values(), ids=PERMANENT.keys())
def test_a_mail_that_can_never_go_is_marked_failed_once_and_not_tried_again(
    players, mailoutbox, monkeypatch, caplog, django_capture_on_commit_callbacks, error
):
    bob = players[0]
    attempts = []

    def refused(self, fail_silently=False):
        attempts.append(self.subject)
        raise error

    monkeypatch.setattr(EmailMessage, "send", refused)
    with caplog.at_level(logging.ERROR, logger="league.services.notice_mail"):
        with django_capture_on_commit_callbacks(execute=True):
            notify([bob], "moved_up", key="k", url="/events/", context={"event": "Cup"})
        notice = Notice.objects.get(user=bob)
        later = notice.created_at + notice_mail.SWEEP_GRACE * 2
        assert notice_mail.sweep_notice_mail(later) == 0
        assert notice_mail.sweep_notice_mail(later + notice_mail.SWEEP_GRACE) == 0
    notice.refresh_from_db()
    assert (notice.email_status, notice.emailed_at is not None) == ("failed", True)
    assert len(attempts) == 1
    (logged,) = [r for r in caplog.records if r.name == "league.services.notice_mail"]
    assert "marked failed" in logged.getMessage() and logged.exc_info is None
    assert "token" not in logged.getMessage() and "bob@example.org" not in logged.getMessage()


TRANSIENT = {
    "the server away": OSError("connection refused"),
    "a 4xx answer": smtplib.SMTPDataError(451, b"4.3.0 try again later"),
    "a recipient refused for now (450)": smtplib.SMTPRecipientsRefused(
        {"bob@example.org": (450, b"4.2.1 mailbox busy")}
    ),
    "the connection dropped": smtplib.SMTPServerDisconnected("gone"),
}


@pytest.mark.parametrize("error", TRANSIENT.values(), ids=TRANSIENT.keys())
def test_only_a_mail_that_may_go_later_is_tried_again_by_the_sweep(
    players, mailoutbox, monkeypatch, django_capture_on_commit_callbacks, error
):
    bob, carol, _ = players

    def refused(self, fail_silently=False):
        raise error if self.to == ["bob@example.org"] else BadHeaderError("never")

    with monkeypatch.context() as patched:
        patched.setattr(EmailMessage, "send", refused)
        with django_capture_on_commit_callbacks(execute=True):
            notify([bob, carol], "moved_up", key="k", url="/events/", context={"event": "Cup"})
    pending = Notice.objects.get(user=bob)
    assert (pending.email_status, pending.emailed_at) == ("", None)
    assert Notice.objects.get(user=carol).email_status == "failed"
    assert notice_mail.sweep_notice_mail(pending.created_at + notice_mail.SWEEP_GRACE * 2) == 1
    assert [m.to for m in mailoutbox] == [["bob@example.org"]]
    assert Notice.objects.get(user=bob).email_status == "sent"
