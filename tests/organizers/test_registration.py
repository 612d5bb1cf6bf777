"""Registration end to end: sign-up from the event page and the API, the capacity and its waiting
list, the deadline, the invitation link, late entries, and the self check-in window."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.errors import LeagueError
from league.models import Entry, Event, Notice, Seat, WaitingPlace
from league.services import events as event_services
from league.services import registration
from league.services import rounds as round_services
from tests.organizers.conftest import account, api, make_event

pytestmark = pytest.mark.django_db


def browser(user: Any | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def people(db) -> dict[str, Any]:
    return {name: account(name) for name in ("ann", "ben", "cid", "dan", "eve")}


@pytest.fixture
def cup(olga) -> Event:
    """Olga's published league, open for sign-up with two places."""
    event = make_event(olga, "Open cup")
    registration.configure(event, by=olga, signup_open=True, capacity=2, signup_deadline=None)
    event.refresh_from_db()
    return event


def entered(event: Event) -> list[str]:
    return sorted(
        Entry.objects.filter(event=event, withdrawn_after_round__isnull=True).values_list(
            "player__name", flat=True
        )
    )


def waiting(event: Event) -> list[str]:
    return list(
        WaitingPlace.objects.filter(event=event)
        .order_by("created_at", "pk")
        .values_list("player__name", flat=True)
    )


def sign_up_on_the_page(user: Any, event: Event) -> str:
    client = browser(user)
    response = client.post(reverse("league:signup", args=[event.slug]), follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_the_organizer_opens_sign_up_on_the_registration_page(client, olga, people):
    event = make_event(olga, "Spring cup")
    page = reverse("league:event", args=[event.slug])
    assert 'id="sign-up"' not in browser(people["ann"]).get(page).content.decode()
    client.force_login(olga)
    saved = client.post(
        reverse("league:registration", args=[event.slug]),
        {"signup_open": "on", "capacity": "3", "signup_deadline": "2099-05-01T18:00"},
    )
    assert saved.status_code == 302
    event.refresh_from_db()
    assert (event.signup_open, event.capacity) == (True, 3)
    assert event.signup_deadline is not None
    shown = browser(people["ann"]).get(page).content.decode()
    assert 'id="sign-up"' in shown and "3 places" in shown
    anonymous = browser().get(page).content.decode()
    assert "Log in" in anonymous and 'id="sign-up"' not in anonymous


def test_a_full_event_has_a_waiting_list_that_moves_up_when_someone_withdraws(cup, people):
    ann, ben, cid, dan = (people[n] for n in ("ann", "ben", "cid", "dan"))
    assert "You are entered" in sign_up_on_the_page(ann, cup)
    sign_up_on_the_page(ben, cup)
    page = sign_up_on_the_page(cid, cup)
    assert "number 1 on the waiting list" in page
    sign_up_on_the_page(dan, cup)
    assert entered(cup) == ["ann", "ben"] and waiting(cup) == ["cid", "dan"]
    assert "2 waiting" in browser().get(cup.get_absolute_url()).content.decode()

    leave = reverse("league:signup_leave", args=[cup.slug])
    asked = browser(ann).get(leave)
    assert asked.status_code == 200 and "Withdraw from Open cup?" in asked.content.decode()
    assert entered(cup) == ["ann", "ben"]  # the confirmation page changed nothing
    assert browser(ann).post(leave).status_code == 302
    assert entered(cup) == ["ben", "cid"] and waiting(cup) == ["dan"]
    (notice,) = Notice.objects.filter(user=cid, kind="moved_up")
    assert notice.url == cup.get_absolute_url()
    assert not Notice.objects.filter(kind="moved_up").exclude(user=cid).exists()
    assert "You are entered" in browser(cid).get(cup.get_absolute_url()).content.decode()


def test_the_organizer_withdrawing_or_removing_an_entry_frees_a_place_too(cup, olga, people):
    for name in ("ann", "ben", "cid", "dan"):
        registration.sign_up(cup, people[name])
    ann = Entry.objects.get(event=cup, player__name="ann")
    event_services.withdraw(ann, by=olga)
    assert waiting(cup) == ["dan"]
    event_services.remove_entry(Entry.objects.get(event=cup, player__name="ben"), by=olga)
    assert entered(cup) == ["cid", "dan"] and waiting(cup) == []
    assert Notice.objects.filter(kind="moved_up").count() == 2


def test_a_larger_capacity_moves_the_list_up_and_nobody_is_told_twice(cup, olga, people):
    for name in ("ann", "ben", "cid", "dan", "eve"):
        registration.sign_up(cup, people[name])
    registration.configure(cup, by=olga, signup_open=True, capacity=3, signup_deadline=None)
    assert entered(cup) == ["ann", "ben", "cid"] and waiting(cup) == ["dan", "eve"]
    registration.configure(cup, by=olga, signup_open=True, capacity=3, signup_deadline=None)
    assert Notice.objects.filter(kind="moved_up").count() == 1


def test_leaving_the_waiting_list(cup, people):
    for name in ("ann", "ben", "cid"):
        registration.sign_up(cup, people[name])
    assert registration.leave(cup, people["cid"]) == "waiting"
    assert waiting(cup) == [] and entered(cup) == ["ann", "ben"]


def test_sign_up_closes_at_its_deadline(cup, olga, people):
    past = timezone.now() - timedelta(minutes=1)
    registration.configure(cup, by=olga, signup_open=True, capacity=None, signup_deadline=past)
    page = sign_up_on_the_page(people["ann"], cup)
    assert "sign-up closed at its deadline" in page
    response = api(people["ben"]).post(f"/api/events/{cup.slug}/signup/", {}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "sign-up closed at its deadline"}
    assert entered(cup) == []


def test_an_event_closed_to_sign_up_refuses_it(olga, people):
    event = make_event(olga, "Invitation only")
    response = api(people["ann"]).post(f"/api/events/{event.slug}/signup/", {}, format="json")
    assert response.status_code == 400
    assert "not open for sign-up" in response.json()["detail"]
    assert not Entry.objects.filter(event=event).exists()


def test_the_invitation_link_opens_sign_up_for_a_draft_and_a_new_one_replaces_it(
    client, olga, people
):
    draft = make_event(olga, "Secret league", publish=False)
    signup = reverse("league:signup", args=[draft.slug])
    assert browser(people["ann"]).get(signup).status_code == 404
    client.force_login(olga)
    asked = client.get(reverse("league:invitation", args=[draft.slug]))
    assert "Make a new invitation link?" in asked.content.decode()
    made = client.post(reverse("league:invitation", args=[draft.slug]), {"action": "new"})
    assert made["Cache-Control"] == "no-store"
    link = made.content.decode().split(
        'id="invitation-link" type="text" readonly size="80" value="'
    )
    link = link[1].split('"')[0]
    token = link.split("token=")[1]
    assert len(token) >= 40
    draft.refresh_from_db()
    assert token not in draft.invitation_hash  # only its hash is kept

    ann = browser(people["ann"])
    page = ann.get(f"{signup}?token={token}")
    assert page.status_code == 200 and "you were invited" in page.content.decode()
    assert browser().get(f"{signup}?token={token}").status_code == 200  # log in, then back
    ann.post(signup, {"token": token})
    assert entered(draft) == ["ann"]
    assert ann.get(draft.get_absolute_url()).status_code == 404  # still a draft

    client.post(reverse("league:invitation", args=[draft.slug]), {"action": "new"})
    assert browser(people["ben"]).get(f"{signup}?token={token}").status_code == 404
    response = api(people["ben"]).post(
        f"/api/events/{draft.slug}/signup/", {"token": token}, format="json"
    )
    assert response.status_code == 404
    assert entered(draft) == ["ann"]


def test_late_entries_follow_the_format(olga, people):
    league = make_event(olga, "Late league", format="league", rounds=3)
    knockout = make_event(olga, "Late knockout", format="knockout", rounds=2)
    for event in (league, knockout):
        registration.configure(
            event, by=olga, signup_open=True, capacity=None, signup_deadline=None
        )
        for name in ("ann", "ben", "cid"):
            registration.sign_up(event, people[name])
        round_services.generate_round(event, by=olga)
    assert registration.sign_up(league, people["dan"]).entry is not None
    with pytest.raises(LeagueError, match="takes no entries once its first round is planned"):
        registration.sign_up(knockout, people["dan"])
    standing = registration.standing(knockout, people["eve"])
    assert not standing.can_sign_up and "takes no entries" in standing.problem


def test_a_bot_account_signs_up_only_where_the_event_allows_bot_accounts(olga, people):
    robo = account("robo")
    robo.is_bot_account = True
    robo.save()
    robo.player.is_bot = True
    robo.player.save()
    event = make_event(olga, "People only", allow_bot_accounts=False)
    registration.configure(event, by=olga, signup_open=True, capacity=None, signup_deadline=None)
    with pytest.raises(LeagueError, match="bot account"):
        registration.sign_up(event, robo)


def test_self_check_in_leaves_the_no_shows_out_of_the_next_round(client, olga, people):
    event = make_event(olga, "Check-in cup", leftover="bye")
    registration.configure(event, by=olga, signup_open=True, capacity=None, signup_deadline=None)
    for user in people.values():
        registration.sign_up(event, user)
    assert Entry.objects.filter(event=event, checked_in=True).count() == 5  # in by default

    client.force_login(olga)
    window = reverse("league:check_in_window", args=[event.slug])
    assert "Open self check-in for round 1?" in client.get(window).content.decode()
    assert client.post(window, {"action": "open"}).status_code == 302
    assert Entry.objects.filter(event=event, checked_in=True).count() == 0

    page = browser(people["ann"]).get(event.get_absolute_url()).content.decode()
    assert 'id="check-in"' in page
    check_in = reverse("league:signup_check_in", args=[event.slug])
    for name in ("ann", "ben"):
        assert browser(people[name]).post(check_in, {"checked_in": "1"}).status_code == 302
    api(people["cid"]).post(
        f"/api/events/{event.slug}/signup/check-in/", {"checked_in": True}, format="json"
    )
    with pytest.raises(LeagueError, match="close it before planning"):
        round_services.generate_round(event, by=olga)
    assert client.post(window, {"action": "close"}).status_code == 302
    refused = browser(people["dan"]).post(check_in, {"checked_in": "1"}, follow=True)
    assert "check-in is not open" in refused.content.decode()

    round_ = round_services.generate_round(event, by=olga)
    seated = set(Seat.objects.filter(fixture__round=round_).values_list("player__name", flat=True))
    assert seated == {"ann", "ben", "cid"}  # dan and eve did not check in


def test_the_api_signs_up_reports_and_withdraws(cup, olga, people):
    ann, ben, cid = api(people["ann"]), api(people["ben"]), api(people["cid"])
    url = f"/api/events/{cup.slug}/signup/"
    assert api().post(url, {}, format="json").status_code == 401
    assert ann.post(url, {}, format="json").json()["status"] == "entered"
    ben.post(url, {}, format="json")
    body = cid.post(url, {}, format="json").json()
    assert (body["status"], body["waiting_position"]) == ("waiting", 1)
    assert cid.post(url, {}, format="json").status_code == 400  # on the list already
    assert api().get(url).json()["problem"] == "log in (or sign up for an account) to enter"
    assert ann.delete(url).json()["status"] == "withdrawn"
    assert cid.get(url).json()["status"] == "entered"
    state = api(olga).get(f"/api/events/{cup.slug}/registration/").json()
    assert (state["entered"], state["waiting"], state["capacity"]) == (2, 0, 2)
    assert api().get(f"/api/events/{cup.slug}/registration/").json()["waiting_list"] == []


def test_the_api_sets_the_rules_opens_check_in_and_makes_a_link(cup, olga, people):
    client = api(olga)
    base = f"/api/events/{cup.slug}/"
    changed = client.patch(f"{base}registration/", {"capacity": 5}, format="json").json()
    assert (changed["capacity"], changed["signup_open"]) == (5, True)
    bad = client.patch(f"{base}registration/", {"capacity": 0}, format="json")
    assert bad.status_code == 400
    link = client.post(f"{base}registration/invitation/").json()["link"]
    assert f"/events/{cup.slug}/signup/?token=" in link
    assert client.post(f"{base}check-in-window/", {"open": True}, format="json").json()[
        "check_in_open"
    ]
    assert client.post(f"{base}check-in-window/", {"open": "yes"}, format="json").status_code == 400
