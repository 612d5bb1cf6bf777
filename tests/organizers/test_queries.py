"""The people pages cost the same few queries whatever the number of entries and waiting players."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Entry
from league.services import events as event_services
from league.services import registration
from tests.organizers.conftest import account, enter, make_event

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("players", [4, 24])
def test_people_pages_use_a_fixed_number_of_queries(
    client, olga, pat, players, django_assert_max_num_queries
):
    event = make_event(olga, "Busy cup")
    names = [f"p{n:02d}" for n in range(players)]
    enter(event, names, olga)
    event_services.withdraw(Entry.objects.get(event=event, player__name="p00"), by=olga)
    registration.configure(event, by=olga, signup_open=True, capacity=players, signup_deadline=None)
    for n in range(players // 4):
        registration.sign_up(event, account(f"waiting-{n}"))
    registration.sign_up(event, pat)
    pages = {
        "event": reverse("league:event", args=[event.slug]),
        "signup": reverse("league:signup", args=[event.slug]),
    }
    for who, budget in ((pat, 13), (olga, 13)):
        client.force_login(who)
        for name, url in pages.items():
            with django_assert_max_num_queries(budget):
                assert client.get(url).status_code == 200, name
    organizer_pages = ["entries", "registration", "organizers", "entries_import"]
    for name in organizer_pages:
        with django_assert_max_num_queries(9):
            assert client.get(reverse(f"league:{name}", args=[event.slug])).status_code == 200
    client.logout()
    with django_assert_max_num_queries(10):  # the public pages' bound (tests/league)
        assert client.get(pages["event"]).status_code == 200
