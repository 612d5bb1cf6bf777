"""The end of an online match finishes the event too: a knockout of three people whose final is
played at the table becomes finished by itself, naming its champion (docs/league.md, "The end
of an event")."""

from __future__ import annotations

import pytest

from league.models import Event, Result
from league.services import rounds as round_services
from tests.league.test_online_fixtures import league_of_people, play_people_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_online_final_finishes_the_knockout_by_itself(alice, client):
    event = league_of_people(alice, ["ana", "ben", "cleo"], format="knockout")
    final = round_services.generate_round(event, by=alice)
    round_services.publish_round(final, by=alice)
    fixture = final.fixtures.get()
    event.refresh_from_db()
    assert event.stage == "running" and fixture.table_ref
    play_people_out(fixture.table_ref)  # the end of the match: the league's one receiver
    assert fixture.results.get(current=True).source == Result.Source.ONLINE
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    winners = client.get(f"/api/events/{event.slug}/").json()["winners"]
    assert len(winners) == 3
    assert winners[0]["decided_by"] in {"result", "total_payouts", "match_points", "lot"}
    assert {w["player"]["name"] for w in winners} == {"ana", "ben", "cleo"}
