"""Web Push end to end: a browser subscribes, a notice is pushed through a push service (our
own, local), the browser's keys decrypt it; a push service that dropped the subscription (404,
410) makes us drop it; a subscription is taken only from a known push service, with the
session's CSRF token; the private VAPID key stays on the server."""

from __future__ import annotations

import json
import stat

import http_ece
import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from config.vapid import embedded_private_key, generate_pair, public_from_private
from league import tasks
from league.models import Notice, NoticeSettings, PushSubscription
from league.services.notifications import notify


def subscribe(client, bob, browser_keys):
    client.force_login(bob)
    response = client.post(
        reverse("league:push_subscribe"), browser_keys.json(), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    return response


def moved_up(users, key="k1"):
    return notify(users, "moved_up", key=key, url="/events/", context={"event": "Winter league"})


def decrypt(browser_keys, body: bytes) -> dict:
    plain = http_ece.decrypt(
        body, private_key=browser_keys.key, auth_secret=browser_keys.auth, version="aes128gcm"
    )
    return json.loads(plain)


def test_a_subscribed_browser_gets_the_notice_from_its_push_service(
    client, bob, browser_keys, push_service, settings, django_capture_on_commit_callbacks
):
    subscribe(client, bob, browser_keys)
    with django_capture_on_commit_callbacks(execute=True):
        assert moved_up([bob]) == 1
    notice = Notice.objects.get(user=bob)
    assert notice.push_status == "sent"
    [(path, headers, body)] = push_service.received
    headers = {name.lower(): value for name, value in headers.items()}
    assert browser_keys.endpoint.endswith(path)
    # Signed with the site's VAPID key (RFC 8292), encrypted for this browser alone (RFC 8291).
    assert headers["authorization"].startswith("vapid t=")
    assert f"k={settings.VAPID_PUBLIC_KEY}" in headers["authorization"]
    assert headers["content-encoding"] == "aes128gcm"
    assert int(headers["ttl"]) > 0
    shown = decrypt(browser_keys, body)
    assert shown["title"] == "You are in Winter league"
    assert "waiting list of Winter league" in shown["body"]
    assert shown["url"] == reverse("league:notice_open", args=[notice.pk])
    assert shown["tag"] == f"notice-{notice.pk}"
    # A second run of the task pushes nothing twice.
    tasks.push_notices([notice.pk])
    assert len(push_service.received) == 1


def test_the_push_is_in_the_accounts_language(
    client, bob, browser_keys, push_service, django_capture_on_commit_callbacks
):
    bob.language = "de"
    bob.save(update_fields=["language"])
    subscribe(client, bob, browser_keys)
    with django_capture_on_commit_callbacks(execute=True):
        moved_up([bob])
    shown = decrypt(browser_keys, push_service.received[0][2])
    assert shown["title"] != "You are in Winter league"
    assert "Winter league" in shown["title"]


@pytest.mark.parametrize("status", [404, 410])
def test_a_push_service_that_dropped_the_subscription_makes_us_drop_it(
    status, client, bob, browser_keys, push_service, django_capture_on_commit_callbacks
):
    subscribe(client, bob, browser_keys)
    push_service.status = status
    with django_capture_on_commit_callbacks(execute=True):
        moved_up([bob])
    assert len(push_service.received) == 1
    assert not PushSubscription.objects.exists()
    assert Notice.objects.get(user=bob).push_status == "failed"
    with django_capture_on_commit_callbacks(execute=True):
        moved_up([bob], key="k2")
    assert len(push_service.received) == 1  # nowhere to push any more
    assert Notice.objects.get(user=bob, key="k2").push_status == "none"


def test_another_failure_keeps_the_subscription(
    client, bob, browser_keys, push_service, django_capture_on_commit_callbacks
):
    subscribe(client, bob, browser_keys)
    push_service.status = 500
    with django_capture_on_commit_callbacks(execute=True):
        moved_up([bob])
    assert PushSubscription.objects.count() == 1
    assert Notice.objects.get(user=bob).push_status == "failed"


def test_a_kind_switched_off_for_push_is_not_pushed(
    client, bob, browser_keys, push_service, django_capture_on_commit_callbacks
):
    subscribe(client, bob, browser_keys)
    NoticeSettings.objects.create(user=bob, push={"moved_up": False})
    with django_capture_on_commit_callbacks(execute=True):
        moved_up([bob])
    assert push_service.received == []
    assert Notice.objects.get(user=bob).push_status == "off"


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": "https://evil.example/push/1"},  # not a push service this site knows
        {"endpoint": "http://fcm.googleapis.com/x"},  # not https
        {"endpoint": "https://user@fcm.googleapis.com.evil.example/x"},
        {"keys": {"p256dh": "AAAA", "auth": "AAAA"}},  # not keys
        {"keys": "nothing"},
    ],
)
def test_a_subscription_from_elsewhere_or_unreadable_is_refused(client, bob, settings, change):
    client.force_login(bob)
    data = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/abc",
        "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22},
    }
    data.update(change)
    response = client.post(reverse("league:push_subscribe"), data, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_the_endpoints_need_a_session_and_its_csrf_token(bob, browser_keys):
    anonymous = Client(enforce_csrf_checks=True)
    url = reverse("league:push_subscribe")
    response = anonymous.post(url, browser_keys.json(), content_type="application/json")
    assert response.status_code in (302, 403)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(bob)
    response = strict.post(url, browser_keys.json(), content_type="application/json")
    assert response.status_code == 403
    response = strict.post(url, "not json", content_type="application/json")
    assert response.status_code == 403
    assert not PushSubscription.objects.exists()
    assert strict.get(url).status_code == 405


def test_only_the_account_itself_drops_its_subscription(client, bob, carol, browser_keys):
    subscribe(client, bob, browser_keys)
    client.force_login(carol)
    body = {"endpoint": browser_keys.endpoint}
    url = reverse("league:push_unsubscribe")
    assert client.post(url, body, content_type="application/json").status_code == 200
    assert PushSubscription.objects.filter(user=bob).count() == 1
    client.force_login(bob)
    assert client.post(url, body, content_type="application/json").status_code == 200
    assert not PushSubscription.objects.exists()
    assert client.post(url, "[1]", content_type="application/json").status_code == 400


def test_the_page_has_the_public_key_never_the_private_one(client, bob, settings):
    client.force_login(bob)
    page = client.get(reverse("profile")).content.decode()
    assert settings.VAPID_PUBLIC_KEY in page
    assert settings.VAPID_PRIVATE_KEY not in page
    assert 'id="push-settings"' in page


def test_the_embedded_key_is_made_once_owner_only(tmp_path):
    key = embedded_private_key(tmp_path)
    assert embedded_private_key(tmp_path) == key
    assert stat.S_IMODE((tmp_path / "vapid_private_key").stat().st_mode) == 0o600
    assert len(public_from_private(key)) == 87  # 65 bytes, base64url
    with pytest.raises(ImproperlyConfigured) as error:
        public_from_private("not a key")
    assert "not a key" not in str(error.value)


def test_the_command_prints_a_matching_pair(capsys):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    assert public_from_private(lines["VAPID_PRIVATE_KEY"]) == lines["VAPID_PUBLIC_KEY"]
    assert generate_pair()[0] != lines["VAPID_PRIVATE_KEY"]


def test_a_failed_push_logs_no_endpoint_and_no_key(
    client, bob, browser_keys, push_service, settings, caplog, django_capture_on_commit_callbacks
):
    subscribe(client, bob, browser_keys)
    push_service.status = 500
    with (
        caplog.at_level("DEBUG", logger="league"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        moved_up([bob])
    text = caplog.text
    assert "failed (HTTP 500)" in text
    path = browser_keys.endpoint.rsplit("/", 1)[1]
    for secret in (path, settings.VAPID_PRIVATE_KEY, browser_keys.json()["keys"]["auth"]):
        assert secret not in text
