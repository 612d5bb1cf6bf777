"""The profile's notice settings: per kind e-mail and push (every kind of the registry), the
time zone, quiet hours and the digest; a bad value is refused with its reason and changes
nothing; the page costs the same queries however many devices and kinds."""

from __future__ import annotations

from datetime import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import NoticeSettings, PushSubscription
from league.services import notice_kinds
from league.services.notice_prefs import settings_of

GOOD = {
    "round_published": "on",
    "push_round_published": "on",
    "time_zone": "Asia/Tokyo",
    "quiet_from": "22:30",
    "quiet_to": "07:00",
    "digest": "on",
    "digest_hour": "19",
}


def test_the_settings_are_saved(client, bob):
    client.force_login(bob)
    response = client.post(reverse("league:notice_settings"), GOOD)
    assert response.status_code == 302
    assert response["Location"].endswith("#notices")
    saved = settings_of(bob)
    assert saved["round_published"] is True and saved["push_round_published"] is True
    assert saved["result_entered"] is False and saved["push_result_entered"] is False
    assert saved["time_zone"] == "Asia/Tokyo"
    assert (saved["quiet_from"], saved["quiet_to"]) == (time(22, 30), time(7))
    assert saved["digest"] is True and saved["digest_hour"] == 19
    page = client.get(reverse("profile")).content.decode()
    assert '<option value="Asia/Tokyo" selected>' in page
    assert 'value="22:30"' in page


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"time_zone": "Mars/Olympus"}, "Select a valid choice"),
        ({"quiet_to": ""}, "both a start and an end"),
        ({"quiet_from": "22:00", "quiet_to": "22:00"}, "an end different from their start"),
        ({"quiet_from": "25:00"}, "Enter a valid time"),
        ({"digest_hour": "24"}, "Select a valid choice"),
        ({"digest_hour": "x"}, "Select a valid choice"),
    ],
)
def test_a_bad_value_is_refused_and_changes_nothing(client, bob, change, reason):
    client.force_login(bob)
    assert client.post(reverse("league:notice_settings"), GOOD).status_code == 302
    before = settings_of(bob)
    response = client.post(reverse("league:notice_settings"), {**GOOD, "digest": "", **change})
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert settings_of(bob) == before


def test_a_kind_added_later_appears_by_itself(client, bob, monkeypatch):
    kinds = dict(notice_kinds.KINDS)
    kinds["a_later_kind"] = notice_kinds.Kind(
        "a_later_kind", "A later kind", True, lambda c: "Your turn", lambda c: "Play."
    )
    monkeypatch.setattr(notice_kinds, "KINDS", kinds)
    for module in ("league.services.notifications", "league.services.notice_prefs"):
        monkeypatch.setattr(f"{module}.KINDS", kinds)
    client.force_login(bob)
    page = client.get(reverse("profile")).content.decode()
    assert 'name="a_later_kind"' in page and 'name="push_a_later_kind"' in page
    response = client.post(reverse("league:notice_settings"), {**GOOD, "push_a_later_kind": "on"})
    assert response.status_code == 302
    assert NoticeSettings.objects.get(user=bob).email["a_later_kind"] is False


def test_someone_logged_out_is_sent_to_log_in(client):
    response = client.post(reverse("league:notice_settings"), GOOD)
    assert response.status_code == 302
    assert "login" in response["Location"]


def count_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("profile")).status_code == 200
    return len(queries)


def test_the_page_costs_the_same_queries_for_one_device_or_many(client, bob):
    client.force_login(bob)
    client.post(reverse("league:notice_settings"), GOOD)
    PushSubscription.objects.create(
        user=bob, endpoint="https://fcm.googleapis.com/fcm/send/0", p256dh="x", auth="y"
    )
    client.get(reverse("profile"))  # shows (and drops) the "saved" message
    one = count_queries(client)
    for n in range(1, 6):
        PushSubscription.objects.create(
            user=bob, endpoint=f"https://fcm.googleapis.com/fcm/send/{n}", p256dh="x", auth="y"
        )
    assert count_queries(client) == one
    assert "6 devices get your push notices." in client.get(reverse("profile")).content.decode()


def test_a_reload_of_the_settings_answer_goes_back_to_the_profile(client, bob):
    """After a refused save the browser sits on the form's address: a reload (GET) must not
    land on a blank "method not allowed" page."""
    client.force_login(bob)
    response = client.get(reverse("league:notice_settings"))
    assert response.status_code == 302
    assert response["Location"] == reverse("profile") + "#notices"
