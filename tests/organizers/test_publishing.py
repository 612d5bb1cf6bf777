"""Publishing a round in a draft event publishes the event too, and only when asked: the page
confirms first, the API answers 409 without `publish_event: true`. Otherwise the players of the
round would get a 404 for the event and for their own table."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Event, Round
from league.services import rounds as round_services
from tests.organizers.conftest import api, enter, make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(olga) -> Event:
    event = make_event(olga, "Quiet draft", publish=False)
    enter(event, ["ana", "bo", "cy"], olga)
    round_services.generate_round(event, by=olga)
    return event


def state(event: Event) -> tuple[str, str]:
    event.refresh_from_db()
    return event.visibility, Round.objects.get(event=event, number=1).status


def test_the_service_refuses_unless_told_to_publish_the_event_too(olga, draft):
    round_ = Round.objects.get(event=draft, number=1)
    with pytest.raises(round_services.DraftEventRound, match="publishes the event too"):
        round_services.publish_round(round_, by=olga)
    assert state(draft) == ("draft", "draft")
    round_services.publish_round(round_, by=olga, publish_event=True)
    assert state(draft) == ("published", "published")


def test_the_page_asks_and_its_confirmation_publishes_both(client, olga, draft):
    client.force_login(olga)
    url = reverse("league:round_action", args=[draft.slug, 1])
    asked = client.get(url, {"action": "publish"}).content.decode()
    assert "Publish round 1 and Quiet draft?" in asked and 'name="publish_event" value="1"' in asked
    # A bare POST (an old form, a script) is not enough: the page asks again.
    bare = client.post(url, {"action": "publish"})
    assert bare.status_code == 200 and "publishes the event too" in bare.content.decode()
    assert state(draft) == ("draft", "draft")
    done = client.post(url, {"action": "publish", "publish_event": "1"})
    assert done.status_code == 302
    assert state(draft) == ("published", "published")
    assert Client().get(draft.get_absolute_url()).status_code == 200  # anyone sees it now
    assert Client().get(reverse("league:round", args=[draft.slug, 1])).status_code == 200


def test_the_api_answers_409_unless_publish_event_is_true(olga, draft):
    client = api(olga)
    url = f"/api/events/{draft.slug}/rounds/1/publish/"
    refused = client.post(url)
    assert refused.status_code == 409
    assert "publish_event: true" in refused.json()["detail"]
    assert state(draft) == ("draft", "draft")
    assert client.post(url, {"publish_event": False}, format="json").status_code == 409
    done = client.post(url, {"publish_event": True}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "published"
    assert state(draft) == ("published", "published")


def test_a_published_event_publishes_its_rounds_as_before(olga):
    event = make_event(olga, "Open league")
    enter(event, ["ana", "bo", "cy"], olga)
    round_services.generate_round(event, by=olga)
    response = api(olga).post(f"/api/events/{event.slug}/rounds/1/publish/")
    assert response.status_code == 200  # no body needed: backward compatible
