"""The flags are staff's alone: listed and decided in the admin, refused to everyone else."""

from __future__ import annotations

import pytest

from league.models import FairPlayFlag, RatedMatch
from tests.ratings.conftest import T0, later

pytestmark = pytest.mark.django_db


@pytest.fixture
def flagged(friendly, users):
    mallory, second = users(2, prefix="mallory")
    for n in range(3):
        friendly(
            [mallory, second, "Bot A"], [6, -4, -2], at=later(T0, 10 * n), forfeited=[1], deals=2
        )
    return FairPlayFlag.objects.get(kind="feeding")


def url(flag=None) -> str:
    base = "/admin/league/fairplayflag/"
    return f"{base}{flag.pk}/change/" if flag else base


def test_players_and_outsiders_never_see_a_flag(client, flagged, django_user_model):
    for path in (url(), url(flagged)):
        assert client.get(path).status_code == 302  # to the admin's log-in
    player = django_user_model.objects.get(username="mallory0")
    client.force_login(player)
    for path in (url(), url(flagged)):
        response = client.get(path)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    response = client.post(url(flagged), {"decision": "cleared", "reason": "mine"})
    flagged.refresh_from_db()
    assert flagged.decision == ""


def test_a_moderator_reads_the_evidence_and_decides_with_a_reason(
    client, flagged, django_user_model, django_capture_on_commit_callbacks
):
    moderator = django_user_model.objects.create_user("mod", password="pw", is_staff=True)
    client.force_login(moderator)
    listing = client.get(url()).content.decode()
    assert "mallory0" in listing and "mallory1" in listing
    page = client.get(url(flagged)).content.decode()
    assert "tables: 3" in page and page.count("/replay/") == 3
    # No reason: the form refuses and nothing changes.
    response = client.post(url(flagged), {"decision": "voided", "reason": ""})
    assert response.status_code == 200
    assert set(RatedMatch.objects.values_list("review", flat=True)) == {"held"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(flagged), {"decision": "voided", "reason": "two accounts"})
    assert response.status_code == 302
    flagged.refresh_from_db()
    assert (flagged.decision, flagged.decided_by, flagged.reason) == (
        "voided",
        moderator,
        "two accounts",
    )
    assert set(flagged.matches.values_list("review", flat=True)) == {"voided"}
    # Decided for good: the page shows it, it takes no second answer.
    page = client.get(url(flagged)).content.decode()
    assert 'name="decision"' not in page


def test_a_report_shows_staff_the_tables_together_and_the_flags(
    client, flagged, friendly, users, django_user_model
):
    from league.models import Player, PlayerReport

    (ann,) = users(1, prefix="ann")
    mallory = django_user_model.objects.get(username="mallory0")
    together = friendly([ann, mallory, "Bot B"], [-4, 6, -2], at=later(T0, -60))
    report = PlayerReport.objects.create(
        reporter=ann, player=Player.objects.get(user=mallory), reason="cheating"
    )
    moderator = django_user_model.objects.create_user("mod", password="pw", is_staff=True)
    client.force_login(moderator)
    page = client.get(f"/admin/league/playerreport/{report.pk}/change/").content.decode()
    assert f"/tables/{together}/replay/" in page
    assert f"/admin/league/fairplayflag/{flagged.pk}/change/" in page
