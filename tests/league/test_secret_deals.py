"""A league table's deals cannot be worked out from anything public (issue 13's audit).

The old seed was `event.seed * 100_003 + fixture.pk`: with the default event seed 0 it was the
fixture id, which the public API lists, so anyone could replay every hand of every table.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from gameplay.models import Table
from gameplay.services import matches
from games import start_match
from league.models import Event
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.players import player_for_user

pytestmark = pytest.mark.django_db(transaction=True)


def online_league(alice, *, seed: int) -> Event:
    event = event_services.create_event(
        alice, name="Open", game="saichugen", rounds=1, deals_per_match=2, seed=seed
    )
    event_services.publish_event(event, by=alice)
    event.refresh_from_db()
    for name in ("ana", "ben", "cleo"):
        user = get_user_model().objects.create_user(name, password="pw")
        event_services.add_entry(event, player_for_user(user), by=alice, checked_in=True)
    return event


def first_deal(table_ref: str) -> dict:
    table = Table.objects.get(pk=table_ref)
    return matches.load_match(table).export()["deals"][0]


def dealt_from(seed, n_deals: int = 2) -> dict:
    deal = start_match("saichugen", seed=seed, n_deals=n_deals).export()["deals"][0]
    return {"hands": deal["hands"], "stock": deal["stock"]}


def test_a_published_table_is_not_dealt_from_public_data(alice):
    event = online_league(alice, seed=0)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    fixture = round_.fixtures.get()
    table = Table.objects.get(pk=fixture.table_ref)
    deal = first_deal(fixture.table_ref)
    cards = {"hands": deal["hands"], "stock": deal["stock"]}

    public = [fixture.pk, round_.pk, event.pk, event.seed, 0, event.seed * 100_003 + fixture.pk]
    assert table.seed not in {str(p) for p in public}
    for guess in public:
        assert cards != dealt_from(guess), f"the deal follows from the public number {guess}"
        assert cards != dealt_from(str(guess))


def test_tables_opened_from_identical_inputs_get_different_deals(alice):
    event = online_league(alice, seed=1234)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    fixture = round_.fixtures.get()
    first = fixture.table_ref
    # the same round, the same fixture, the same event seed: open its table once more
    round_services.open_tables(round_)
    fixture.refresh_from_db()
    second = fixture.table_ref
    assert first != second
    a, b = Table.objects.get(pk=first), Table.objects.get(pk=second)
    assert a.seed != b.seed
    assert first_deal(first)["hands"] != first_deal(second)["hands"]
    assert first_deal(first)["commitment"] != first_deal(second)["commitment"]


def test_a_new_event_gets_a_random_schedule_seed_unless_one_is_given(alice):
    def new(**fields):
        return event_services.create_event(alice, name="Cup", game="saichugen", **fields)

    seeds = {new().seed for _ in range(3)}
    assert len(seeds) == 3 and 0 not in seeds
    assert new(seed=77).seed == 77  # an explicit seed stays: round plans are repeatable
    assert new(seed=0).seed == 0

    client = APIClient()
    client.force_login(alice)
    made = [
        client.post("/api/events/", {"name": f"API {n}", "game": "saichugen"}, format="json")
        for n in range(2)
    ]
    assert [r.status_code for r in made] == [201, 201]
    api_seeds = {Event.objects.get(slug=r.json()["slug"]).seed for r in made}
    assert len(api_seeds) == 2 and 0 not in api_seeds


def test_the_new_event_form_leaves_the_seed_blank_for_a_random_one(alice, client):
    client.force_login(alice)
    url = reverse("league:event_create") + "?game=saichugen"
    page = client.get(url).content.decode()
    assert 'name="seed"' in page and 'name="seed" value="0"' not in page
    response = client.post(
        url,
        {
            "game": "saichugen",
            "name": "Form cup",
            "kind": "league",
            "format": "league",
            "rounds": 2,
            "deals_per_match": 1,
            "leftover": "bye",
            "bye_match_points": 1,
            "seconds_per_move": 60,
            "on_timeout": "default",
            "seed": "",
            "variant__payout": "zero_sum",
            "tiebreaks": ["total_payouts", "lot"],
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Event.objects.get(name="Form cup").seed != 0
