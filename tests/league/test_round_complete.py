"""A round whose every table has its result says so on its page, and offers its organizer the
next round there (the club evening's "is the round closed?")."""

from __future__ import annotations

import pytest

from league.services import rounds as round_services
from league.services.results import record_result
from tests.league.conftest import record_for

pytestmark = pytest.mark.django_db


def test_the_round_page_says_when_every_table_has_its_result(make_event, alice, client):
    event = make_event("saichugen", players=6, format="swiss", rounds=2)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    first, second = round_.fixtures.order_by("number")
    url = f"/events/{event.slug}/rounds/1/"
    record_result(first, by=alice, record=record_for(first))
    assert 'id="round-complete"' not in client.get(url).content.decode()
    record_result(second, by=alice, record=record_for(second))
    page = client.get(url).content.decode()
    assert 'id="round-complete"' in page and "Generate next round" not in page  # a visitor
    client.force_login(alice)
    page = client.get(url).content.decode()
    assert "Every table of this round has its result." in page
    assert f'action="/events/{event.slug}/rounds/new/"' in page
    round_services.generate_round(event, by=alice)  # the next one exists as a draft now
    assert f'action="/events/{event.slug}/rounds/new/"' not in client.get(url).content.decode()
