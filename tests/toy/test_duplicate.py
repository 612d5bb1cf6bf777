"""A duplicate section of the toy game (spec duplicate.md): three tables, the same two deals,
results from score sheets; its travellers over the API and on their page, and each deal's
outcome line from a record."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from gameplay import api as gameplay
from games import catalogue
from league.models import Fixture, Section
from league.services import rounds as round_services
from league.services.results import record_result
from tests.league.conftest import alice, charlie, make_event  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_game")]

# Deal 0: [2, 1, 1] pays [2, -1, -1]; [1, 2, 1] pays [-1, 2, -1]; deal 1 the same everywhere.
SHEETS = (
    [[2, 1, 1], [0, 0, 4]],
    [[1, 2, 1], [0, 0, 4]],
    [[2, 1, 1], [0, 0, 4]],
)


@pytest.fixture
def toy_round(make_event, alice):  # noqa: F811
    """A published duplicate round of the toy: three tables over the table, two deals."""
    event = make_event("toy", players=9, scoring="duplicate", deals_per_match=2, play_online=False)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    return event, round_, list(round_.fixtures.order_by("number"))


def test_sheets_complete_the_section_and_the_travellers_show_it(toy_round, alice, charlie):  # noqa: F811
    event, round_, fixtures = toy_round
    for fixture, deals in zip(fixtures, SHEETS, strict=True):
        sheet = {"deals": [{"tricks": t} for t in deals]}
        record_result(Fixture.objects.get(pk=fixture.pk), by=alice, sheet=sheet)
    assert Section.objects.get(pk=fixtures[0].section_id).completed_at is not None
    client = APIClient()
    client.force_authenticate(charlie)
    answer = client.get(f"/api/events/{event.slug}/rounds/{round_.number}/deals/")
    assert answer.status_code == 200
    first, second = answer.json()["sections"][0]["deals"]
    assert [t["payouts"] for t in first["tables"]] == [[2, -1, -1], [-1, 2, -1], [2, -1, -1]]
    assert first["datum"] == [1.0, 0.0, -1.0]
    assert [t["matchpoints"] for t in second["tables"]] == [[1.0, 1.0, 1.0]] * 3
    page = APIClient().get(reverse("league:traveller", args=[event.slug, round_.number, 1]))
    assert page.status_code == 200


def toy_record() -> dict:
    return catalogue.random_record("toy", players=["a", "b", "c"], n_deals=2, seed=5)


def test_each_deal_of_a_toy_record_has_an_outcome_line():
    lines = gameplay.deal_outcomes(toy_record())
    assert len(lines) == 2 and all(lines)


def test_a_toy_deals_outcome_line_is_the_toys_own():
    assert not any(line.startswith("Scores ") for line in gameplay.deal_outcomes(toy_record()))
