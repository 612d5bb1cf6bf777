"""Reporting a player to staff: a link on the player page, a form, a list in the admin.

vera reports; rex is reported; sam is staff; the admin site lists what vera sent.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.utils import timezone

from league.models import Player, PlayerReport
from league.services import reports
from league.services.players import bot_player, player_for_user

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def vera() -> tuple:
    user = User.objects.create_user("vera", password="pw")
    client = Client()
    client.force_login(user)
    return user, client


@pytest.fixture
def rex() -> Player:
    return player_for_user(User.objects.create_user("rex", password="pw"))


@pytest.fixture
def staff() -> Client:
    sam = User.objects.create_user("sam", password="pw", is_staff=True)
    client = Client()
    client.force_login(sam)
    return client


def report(client: Client, player: Player, reason: str = "cheating", text: str = "Round 2."):
    return client.post(f"/players/{player.pk}/report/", {"reason": reason, "text": text})


def test_the_player_page_links_to_the_report_form_except_on_your_own(vera, rex):
    user, client = vera
    page = client.get(rex.get_absolute_url()).content.decode()
    assert f'href="/players/{rex.pk}/report/"' in page
    own = client.get(player_for_user(user).get_absolute_url()).content.decode()
    assert "/report/" not in own
    form = client.get(f"/players/{rex.pk}/report/").content.decode()
    assert 'name="reason"' in form and 'name="text"' in form


def test_a_report_is_stored_for_staff(vera, rex):
    user, client = vera
    response = report(client, rex, "abuse", "  Called me names at table 3.  ")
    assert response.status_code == 302 and response["Location"] == rex.get_absolute_url()
    filed = PlayerReport.objects.get()
    assert (filed.reporter, filed.player, filed.reason) == (user, rex, "abuse")
    assert filed.text == "Called me names at table 3." and not filed.handled


def test_nobody_reports_themselves_or_a_builtin_bot(vera):
    user, client = vera
    response = report(client, player_for_user(user))
    assert response.status_code == 400 and "cannot report yourself" in response.content.decode()
    bot = bot_player("Bot A")
    assert report(client, bot).status_code == 400
    assert not PlayerReport.objects.exists()


def test_bad_input_is_a_400_that_stores_nothing(vera, rex):
    _user, client = vera
    assert report(client, rex, reason="because").status_code == 400
    assert report(client, rex, text="x" * 2001).status_code == 400
    assert client.post("/players/999999/report/", {"reason": "other"}).status_code == 404
    assert not PlayerReport.objects.exists()


def test_reporting_needs_a_login(rex):
    response = report(Client(), rex)
    assert response.status_code == 302 and "login/?next=" in response["Location"]
    assert not PlayerReport.objects.exists()


def test_an_account_sends_at_most_the_daily_allowance(vera, rex, settings):
    settings.PLAYER_REPORTS_PER_DAY = 3
    _user, client = vera
    for _ in range(3):
        assert report(client, rex).status_code == 302
    refused = report(client, rex)
    assert refused.status_code == 429 and "try again tomorrow" in refused.content.decode()
    assert PlayerReport.objects.count() == 3
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        assert report(client, rex).status_code == 302
    assert PlayerReport.objects.count() == 4


def test_staff_list_filter_and_mark_reports_handled_in_the_admin(vera, rex, staff):
    user, _client = vera
    first = reports.report_player(user, rex, reason="cheating", text="Signals.")
    reports.report_player(user, rex, reason="other", text="Odd name.")
    listing = staff.get("/admin/league/playerreport/")
    assert listing.status_code == 200 and "rex" in listing.content.decode()
    filtered = staff.get("/admin/league/playerreport/", {"reason__exact": "cheating"})
    assert list(filtered.context["cl"].result_list) == [first]
    response = staff.post(
        "/admin/league/playerreport/",
        {"action": "mark_as_handled", "_selected_action": [first.pk]},
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.handled and first.handled_by.username == "sam" and first.handled_at
    assert PlayerReport.objects.filter(handled=False).count() == 1
    assert staff.get("/admin/league/playerreport/add/").status_code == 403
    # On a report's own page, Save marks it handled (or open again) and records who.
    second = PlayerReport.objects.get(handled=False)
    page = f"/admin/league/playerreport/{second.pk}/change/"
    assert 'name="handled"' in staff.get(page).content.decode()
    assert staff.post(page, {"handled": "on", "text": "tampered"}).status_code == 302
    second.refresh_from_db()
    assert second.handled and second.handled_by.username == "sam"
    assert second.text == "Odd name."  # nothing else on the page is written
    assert staff.post(page, {}).status_code == 302
    second.refresh_from_db()
    assert not second.handled and second.handled_by is None


def test_only_staff_read_or_handle_reports(vera, rex):
    user, client = vera
    filed = reports.report_player(user, rex, reason="cheating")
    response = client.get("/admin/league/playerreport/")
    assert response.status_code == 302  # to the admin's log-in
    with pytest.raises(PermissionDenied):
        reports.mark_handled([filed], by=user)
    filed.refresh_from_db()
    assert not filed.handled


def finished_table(*users, status="finished") -> str:
    from gameplay.models import Seat, Table

    table = Table.objects.create(
        game="saichugen", status=status, finished_at=timezone.now() - timedelta(hours=1)
    )
    for n, user in enumerate(users):
        Seat.objects.create(table=table, number=n, name=user.username, user=user)
    return table.pk


def test_a_report_may_attach_a_table_played_together_and_only_such_a_table(vera, rex, staff):
    user, client = vera
    other = User.objects.create_user("olga", password="pw")
    together = finished_table(user, rex.user)
    elsewhere = finished_table(user, other)  # vera's, but not with rex
    playing = finished_table(user, rex.user, status="playing")  # not over: not offered
    form = client.get(f"/players/{rex.pk}/report/").content.decode()
    assert f'value="{together}"' in form
    assert f'value="{elsewhere}"' not in form and f'value="{playing}"' not in form
    for ref in (elsewhere, playing, "no-such-table"):
        response = client.post(
            f"/players/{rex.pk}/report/", {"reason": "cheating", "text": "", "table": ref}
        )
        assert response.status_code == 400
    assert not PlayerReport.objects.exists()
    response = client.post(
        f"/players/{rex.pk}/report/", {"reason": "cheating", "text": "soft play", "table": together}
    )
    assert response.status_code == 302
    filed = PlayerReport.objects.get()
    assert filed.chat_table == together
    page = staff.get(f"/admin/league/playerreport/{filed.pk}/change/").content.decode()
    assert f'href="/tables/{together}/replay/"' in page
    # The service checks it too, whatever the form offered.
    with pytest.raises(reports.LeagueError):
        reports.report_player(user, rex, reason="cheating", table=elsewhere)


def test_without_a_table_together_the_form_offers_none(vera, rex):
    _, client = vera
    assert 'name="table"' not in client.get(f"/players/{rex.pk}/report/").content.decode()
