"""Results from the table: a seated player submits the grid, the others confirm it and it counts;
a rejection or a different grid goes to the organizer, who sees both side by side and picks one.
Only the seated players act on a table's grids, only its event's organizers approve (403 for
anyone else, and nothing changes)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from league.errors import LeagueError
from league.models import Result, ResultSubmission, SubmissionVote
from league.services import table_results as service
from league.services.results import record_result
from tests.results.conftest import over_the_table
from tests.results.test_entering import grid_post

pytestmark = pytest.mark.django_db

GRID = [{"tricks": [10, 2, 4]}, {"tricks": [5, 6, 5]}]
OTHER = [{"tricks": [10, 2, 4]}, {"tricks": [6, 5, 5]}]
Status = ResultSubmission.Status


def submit_url(table):
    return reverse("league:table_submit", args=[table.event.slug, table.fixture.pk])


def action_url(table, submission):
    return reverse("league:submission_action", args=[table.event.slug, submission.pk])


def snapshot():
    """Everything a refusal must leave as it was."""
    return (
        list(ResultSubmission.objects.values_list("pk", "status", "grid")),
        list(SubmissionVote.objects.values_list("pk", "agrees")),
        list(Result.objects.values_list("pk", "version")),
    )


def test_a_grid_counts_once_the_others_at_the_table_confirm_it(client, table):
    ann, ben, cat = table.users
    client.force_login(ann)
    page = client.get(submit_url(table))
    assert page.status_code == 200 and 'name="d0.tricks.0"' in page.content.decode()
    assert client.post(submit_url(table), grid_post(GRID)).status_code == 302
    submission = ResultSubmission.objects.get()
    assert submission.status == Status.PENDING and not Result.objects.exists()

    client.force_login(ben)
    page = client.get(submit_url(table)).content.decode()
    assert "It is right: confirm" in page and "waiting for" in page
    client.post(action_url(table, submission), {"action": "confirm"})
    assert not Result.objects.exists()  # cat has not confirmed yet
    client.force_login(cat)
    client.post(action_url(table, submission), {"action": "confirm"})

    result = table.fixture.results.get(current=True)
    assert result.grid == GRID and result.source == Result.Source.SHEET
    assert result.entered_by == ann  # who typed it
    assert result.scored["totals"]["payouts"] == [4, -5, 1]
    submission.refresh_from_db()
    assert (submission.status, submission.result) == (Status.COUNTED, result)
    assert table.fixture.ledger.count() == 2 * 3


def test_the_same_outcome_from_another_player_is_a_confirmation(table):
    ann, ben, cat = table.users
    first = service.submit_grid(table.fixture, by=ann, grid=GRID)
    again = service.submit_grid(table.fixture, by=ben, grid=GRID)
    assert again.pk == first.pk and ResultSubmission.objects.count() == 1
    service.confirm_submission(first, by=cat)
    assert table.fixture.results.get(current=True).grid == GRID


def test_a_rejection_goes_to_the_organizer_who_counts_a_version(client, alice, table):
    ann, ben, cat = table.users
    submission = service.submit_grid(table.fixture, by=ann, grid=GRID)
    client.force_login(ben)
    client.post(action_url(table, submission), {"action": "reject", "reason": "hand 2 is wrong"})
    submission.refresh_from_db()
    assert submission.status == Status.DISPUTED
    client.force_login(cat)
    answer = client.post(action_url(table, submission), {"action": "confirm"})
    assert answer.status_code == 302 and not Result.objects.exists()  # disputed: not theirs

    client.force_login(alice)
    page = client.get(reverse("league:result", args=[table.event.slug, table.fixture.pk]))
    body = page.content.decode()
    assert "Submitted at the table" in body and "hand 2 is wrong" in body
    client.post(action_url(table, submission), {"action": "approve"})
    result = table.fixture.results.get(current=True)
    assert result.grid == GRID and result.entered_by == alice
    submission.refresh_from_db()
    assert submission.status == Status.COUNTED and submission.decided_by == alice


def test_a_different_grid_shows_both_versions_side_by_side_and_one_is_picked(client, alice, table):
    ann, ben, cat = table.users
    first = service.submit_grid(table.fixture, by=ann, grid=GRID)
    second = service.submit_grid(table.fixture, by=ben, grid=OTHER)
    first.refresh_from_db()
    assert (first.status, second.status) == (Status.DISPUTED, Status.DISPUTED)
    with pytest.raises(LeagueError, match="not waiting for confirmation"):
        service.confirm_submission(first, by=cat)

    client.force_login(alice)
    body = client.get(reverse("league:result", args=[table.event.slug, table.fixture.pk]))
    html = body.content.decode()
    assert html.count("Count this one") == 2
    assert 'class="differs"' in html  # deal 2 differs; deal 1 does not
    assert html.count('<tr class="differs">') == 1
    client.post(action_url(table, second), {"action": "approve"})
    assert table.fixture.results.get(current=True).grid == OTHER
    first.refresh_from_db()
    assert first.status == Status.SET_ASIDE


def test_a_player_replaces_or_withdraws_their_own_grid(table):
    ann, ben, _cat = table.users
    first = service.submit_grid(table.fixture, by=ann, grid=GRID)
    with pytest.raises(LeagueError, match="submitted already"):
        service.submit_grid(table.fixture, by=ann, grid=GRID)
    second = service.submit_grid(table.fixture, by=ann, grid=OTHER)
    first.refresh_from_db()
    assert first.status == Status.SET_ASIDE and second.status == Status.PENDING
    with pytest.raises(PermissionDenied):
        service.withdraw_submission(second, by=ben)
    service.withdraw_submission(second, by=ann)
    assert not ResultSubmission.objects.filter(status__in=ResultSubmission.OPEN).exists()


def test_the_grid_the_rules_refuse_is_no_submission(client, table):
    client.force_login(table.users[0])
    answer = client.post(submit_url(table), grid_post([{"tricks": [-1, 13, 4]}]))
    assert answer.status_code == 400
    assert 'data-error-for="d0.tricks.0">from 0 to 16<' in answer.content.decode()
    assert not ResultSubmission.objects.exists()
    unfinished = client.post(submit_url(table), grid_post(GRID[:1]))
    assert "only a forfeit can end it early" in unfinished.content.decode()
    assert not ResultSubmission.objects.exists()


def test_a_table_with_a_player_without_an_account_waits_for_the_organizer(alice):
    table = over_the_table(alice, accounts=2)
    people = [u for u in table.users if u is not None]
    submission = service.submit_grid(table.fixture, by=people[0], grid=GRID)
    service.confirm_submission(submission, by=people[1])
    assert not Result.objects.exists()
    assert service.needs_organizer(list(table.fixture.seats.select_related("player")))
    service.approve_submission(submission, by=alice)
    assert table.fixture.results.get(current=True).grid == GRID


def test_the_organizers_own_result_sets_the_open_grids_aside(alice, table):
    submission = service.submit_grid(table.fixture, by=table.users[0], grid=GRID)
    record_result(table.fixture, by=alice, grid=OTHER)
    submission.refresh_from_db()
    assert submission.status == Status.SET_ASIDE
    with pytest.raises(LeagueError, match="has a result already"):
        service.submit_grid(table.fixture, by=table.users[1], grid=GRID)


def test_the_fixture_and_round_pages_lead_the_players_to_the_grid(client, table):
    client.force_login(table.users[1])
    fixture_page = reverse("league:fixture", args=[table.event.slug, table.fixture.pk])
    assert "Enter the grid" in client.get(fixture_page).content.decode()
    round_page = reverse("league:round", args=[table.event.slug, 1])
    assert submit_url(table) in client.get(round_page).content.decode()
    service.submit_grid(table.fixture, by=table.users[0], grid=GRID)
    assert "A grid waits for confirmation." in client.get(round_page).content.decode()


# --- authorization -----------------------------------------------------------------------


def test_a_player_not_seated_at_the_table_is_refused_and_nothing_changes(client, dan, table):
    submission = service.submit_grid(table.fixture, by=table.users[0], grid=GRID)
    before = snapshot()
    client.force_login(dan)
    assert client.get(submit_url(table)).status_code == 403
    assert client.post(submit_url(table), grid_post(OTHER)).status_code == 403
    for action in ("confirm", "reject", "withdraw"):
        answer = client.post(action_url(table, submission), {"action": action, "reason": "no"})
        assert answer.status_code == 403, action
    with pytest.raises(PermissionDenied):
        service.confirm_submission(submission, by=dan)
    assert snapshot() == before


def test_only_the_events_organizers_approve(client, olga, table):
    ann, ben, _cat = table.users
    submission = service.submit_grid(table.fixture, by=ann, grid=GRID)
    before = snapshot()
    client.force_login(olga)  # organizes another event
    for action in ("approve", "set_aside"):
        assert client.post(action_url(table, submission), {"action": action}).status_code == 403
    client.force_login(ben)  # seated, but no organizer
    assert client.post(action_url(table, submission), {"action": "approve"}).status_code == 403
    with pytest.raises(PermissionDenied):
        service.approve_submission(submission, by=olga)
    assert snapshot() == before


def test_without_the_event_setting_the_organizer_enters_the_results(client, alice):
    table = over_the_table(alice, table_results=False)
    client.force_login(table.users[0])
    assert client.get(submit_url(table)).status_code == 403
    assert client.post(submit_url(table), grid_post(GRID)).status_code == 403
    with pytest.raises(PermissionDenied):
        service.submit_grid(table.fixture, by=table.users[0], grid=GRID)
    assert not ResultSubmission.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in(client, table):
    submission = service.submit_grid(table.fixture, by=table.users[0], grid=GRID)
    before = snapshot()
    assert client.get(submit_url(table)).status_code == 302
    assert client.post(action_url(table, submission), {"action": "confirm"}).status_code == 302
    url = reverse("league:result_check", args=[table.event.slug, table.fixture.pk])
    assert client.post(url, grid_post(GRID)).status_code == 403
    assert snapshot() == before


def test_the_submit_page_uses_a_fixed_number_of_queries(
    client, alice, django_assert_max_num_queries
):
    small = over_the_table(alice, deals=1)
    large = over_the_table(alice, "schieberamsch", deals=12, prefix="x-")
    service.submit_grid(
        large.fixture,
        by=large.users[0],
        grid=[
            {
                "grand": False,
                "points": [38, 45, 37],
                "pushes": 0,
                "jungfrau": None,
                "durchmarsch": None,
            }
        ]
        * 12,
    )
    for table in (small, large):
        client.force_login(table.users[1])
        with django_assert_max_num_queries(12):
            assert client.get(submit_url(table)).status_code == 200
