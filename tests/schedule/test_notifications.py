"""notify: one notice per (account, key), mailed once, to the right address, with a working
unsubscribe link; the bell and the notices page."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from allauth.account.models import EmailAddress
from django.core.exceptions import PermissionDenied
from django.core.mail import EmailMessage
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league import tasks
from league.models import Notice, NoticeSettings
from league.services import notice_mail
from league.services.notifications import email_switches, notify, set_email_switches


def send(users, kind="moved_up", key="k1", **more):
    return notify(users, kind, key=key, url="/events/", context={"event": "Winter league"}, **more)


def test_a_second_call_with_the_same_key_makes_nothing(
    players, mailoutbox, django_capture_on_commit_callbacks
):
    bob = players[0]
    with django_capture_on_commit_callbacks(execute=True):
        assert send([bob, bob]) == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert send([bob]) == 0
        assert send([bob], key="k2") == 1
    assert Notice.objects.filter(user=bob).count() == 2
    assert len(mailoutbox) == 2
    assert mailoutbox[0].to == ["bob@example.org"]


def test_a_retried_mail_task_sends_nothing_twice(
    players, mailoutbox, django_capture_on_commit_callbacks
):
    bob, carol, _ = players
    with django_capture_on_commit_callbacks(execute=True):
        send([bob, carol])
    ids = list(Notice.objects.values_list("pk", flat=True))
    assert len(mailoutbox) == 2
    tasks.email_notices.delay(ids)  # the broker delivered it again, or a retry
    tasks.email_notices(ids)
    assert notice_mail.sweep_notice_mail() == 0
    assert len(mailoutbox) == 2
    assert set(Notice.objects.values_list("email_status", flat=True)) == {"sent"}


def test_a_failed_send_is_rolled_back_and_sent_once_by_the_sweep(
    players, mailoutbox, monkeypatch, django_capture_on_commit_callbacks
):
    bob = players[0]

    def broken(self, fail_silently=False):
        raise OSError("SMTP is down")

    with monkeypatch.context() as patched:
        patched.setattr(EmailMessage, "send", broken)
        with django_capture_on_commit_callbacks(execute=True):
            send([bob])
    notice = Notice.objects.get(user=bob)
    assert notice.emailed_at is None  # the claim went back with the failed send
    later = notice.created_at + notice_mail.SWEEP_GRACE * 2
    assert notice_mail.sweep_notice_mail(later) == 1
    assert notice_mail.sweep_notice_mail(later) == 0
    assert len(mailoutbox) == 1


def test_a_notice_links_only_to_a_path_of_this_site(players):
    for url in ("https://evil.example/", "//evil.example/x", "/tables/x/?token=abc"):
        with pytest.raises(ValueError, match="a path on this site"):
            notify(players, "moved_up", key="x", url=url)
    with pytest.raises(ValueError, match="unknown kind"):
        notify(players, "no_such_kind", key="x")
    assert not Notice.objects.exists()


def _link(body: str, label: str) -> str:
    line = next(line for line in body.splitlines() if line.startswith(label))
    return re.search(r"https?://\S+", line).group(0)


def test_the_unsubscribe_link_works_without_logging_in_and_stops_that_kind(
    client, players, mailoutbox, django_capture_on_commit_callbacks
):
    bob = players[0]
    with django_capture_on_commit_callbacks(execute=True):
        send([bob])
    mail = mailoutbox[0]
    link = _link(mail.body, "Stop e-mails of this kind:")
    assert mail.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    path = urlparse(link).path + "?" + urlparse(link).query
    page = client.get(path)
    assert page.status_code == 200
    assert "Unsubscribe" in page.content.decode()
    assert email_switches(bob)["moved_up"] is True  # looking changes nothing
    # The mail client's one-click POST (RFC 8058): no session, no CSRF token.
    response = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert email_switches(bob)["moved_up"] is False
    assert email_switches(bob)["round_published"] is True
    with django_capture_on_commit_callbacks(execute=True):
        send([bob], key="k2")
        send([bob], kind="result_entered", key="k3")
    assert [m.subject for m in mailoutbox[1:]] == [
        "[Mediana] Your result in round ? of Winter league"
    ]
    assert Notice.objects.get(key="k2").email_status == "off"
    assert Notice.objects.filter(user=bob, read_at__isnull=True).count() == 3  # still on-site


def test_the_unsubscribe_all_link_stops_every_kind_and_a_forged_one_nothing(
    client, players, mailoutbox, django_capture_on_commit_callbacks
):
    bob = players[0]
    with django_capture_on_commit_callbacks(execute=True):
        send([bob])
    link = _link(mailoutbox[0].body, "Stop all e-mails")
    parsed = urlparse(link)
    forged = client.post(parsed.path + "?" + parsed.query.replace("token=", "token=x"))
    assert forged.status_code == 400
    assert client.post(parsed.path, {"token": "nonsense"}).status_code == 400
    assert all(email_switches(bob).values())
    assert client.post(parsed.path + "?" + parsed.query).status_code == 200
    assert not any(email_switches(bob).values())


def test_mail_goes_only_to_a_verified_address_where_verification_is_required(
    players, settings, mailoutbox, django_capture_on_commit_callbacks
):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    bob, carol, dave = players
    EmailAddress.objects.create(user=bob, email=bob.email, verified=True, primary=True)
    EmailAddress.objects.create(user=carol, email=carol.email, verified=False, primary=True)
    dave.email = ""
    dave.save()
    with django_capture_on_commit_callbacks(execute=True):
        send(players)
    assert [m.to for m in mailoutbox] == [["bob@example.org"]]
    status = dict(Notice.objects.values_list("user__username", "email_status"))
    assert status == {"bob": "sent", "carol": "unverified", "dave": "no_address"}


def test_without_verification_the_accounts_own_address_gets_it(
    players, settings, mailoutbox, django_capture_on_commit_callbacks
):
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    with django_capture_on_commit_callbacks(execute=True):
        send(players[:1])
    assert [m.to for m in mailoutbox] == [["bob@example.org"]]


def test_the_mail_is_written_in_the_accounts_language(
    players, mailoutbox, django_capture_on_commit_callbacks
):
    bob = players[0]
    bob.language = "de"
    bob.save()
    with django_capture_on_commit_callbacks(execute=True):
        notify(
            [bob],
            "deadline_soon",
            key="d",
            url="/events/",
            context={
                "event": "Winterliga",
                "round": 1,
                "table": 1,
                "deadline": "2026-01-05T17:00:00+00:00",
                "time_zone": "Europe/Berlin",
            },
        )
    # Django's German formats and month names: "5. Januar 2026 18:00 CET".
    assert "5. Januar 2026 18:00 CET" in mailoutbox[0].body


def test_the_profile_switches_choose_what_is_mailed(client, players):
    bob = players[0]
    client.force_login(bob)
    page = client.get(reverse("profile")).content.decode()
    assert 'name="deadline_soon"' in page
    response = client.post(reverse("league:notice_settings"), {"round_published": "on"})
    assert response.status_code == 302
    switches = email_switches(bob)
    assert switches["round_published"] is True
    assert switches["result_entered"] is False
    assert NoticeSettings.objects.get(user=bob).email["result_entered"] is False


def test_only_the_account_itself_changes_its_switches(players):
    bob, carol, _ = players
    with pytest.raises(PermissionDenied):
        set_email_switches(bob, {"moved_up": False}, by=carol)
    assert email_switches(bob)["moved_up"] is True


def test_the_bell_counts_unread_notices_in_one_query(client, players):
    bob, carol, _ = players
    send([bob, carol])
    send([bob], key="k2")
    client.force_login(bob)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("league:events"))
    assert '<span class="count">2</span>' in page.content.decode()
    notice_queries = [q["sql"] for q in queries if "league_notice" in q["sql"]]
    assert len(notice_queries) == 1
    with CaptureQueriesContext(connection) as queries:
        client.logout()
        client.get(reverse("league:events"))
    assert not [q for q in queries if "league_notice" in q["sql"]]


def test_the_notices_page_marks_read_one_and_all(client, players, django_assert_max_num_queries):
    bob, carol, _ = players
    for n in range(5):
        send([bob, carol], key=f"k{n}")
    client.force_login(bob)
    with django_assert_max_num_queries(6):
        page = client.get(reverse("league:notices"))
    assert page.content.decode().count("A place came free") == 5
    mine = Notice.objects.filter(user=bob).first()
    theirs = Notice.objects.filter(user=carol).first()
    assert client.post(reverse("league:notice_read", args=[theirs.pk])).status_code == 404
    assert Notice.objects.get(pk=theirs.pk).read_at is None
    client.post(reverse("league:notice_read", args=[mine.pk]))
    assert Notice.objects.get(pk=mine.pk).read_at is not None
    opened = client.get(reverse("league:notice_open", args=[mine.pk]))
    assert opened.status_code == 302 and opened["Location"] == "/events/"
    client.post(reverse("league:notices_read_all"))
    assert not Notice.objects.filter(user=bob, read_at__isnull=True).exists()
    assert Notice.objects.filter(user=carol, read_at__isnull=True).count() == 5
    client.logout()
    assert client.get(reverse("league:notices")).status_code == 302  # to the log-in
