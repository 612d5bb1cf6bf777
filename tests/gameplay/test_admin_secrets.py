"""The Django admin shows an unfinished table without its secrets: no seed, no salt, no state,
no record and no hidden action. Once the table is finished its record and actions are shown;
the seed never is (tables that share a seed share their deals)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from gameplay.models import Action, Table
from gameplay.services import matches, play
from games.core.bots.common import expand_random

from .conftest import make_table, make_users

pytestmark = pytest.mark.django_db


def shows(card: str, response) -> bool:
    """Whether an admin page shows a `{"card": card}` action (as a dict or as JSON)."""
    html = response.content.decode()
    return (
        f"&#x27;card&#x27;: &#x27;{card}&#x27;" in html
        or f"&quot;card&quot;: &quot;{card}&quot;" in html
    )


def play_out(table: Table) -> None:
    rng = random.Random(1)
    while True:
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return
        match = matches.load_match(table)
        seat = match.to_act()[0]
        action = expand_random(rng.choice(match.legal(seat)), rng)
        play.play_action(table.id, seat, action, table.seq)


@pytest.fixture
def committed():
    """A Saichugen table where seat 0 has committed a card face down."""
    table = make_table("saichugen", people=make_users("ana", "ben", "cleo"), seed=None)
    match = matches.load_match(table)
    card = match.view(0)["hand"][0]
    play.play_action(table.id, 0, {"act": "commit", "card": card}, 0)
    table.refresh_from_db()
    return table, card


def test_an_unfinished_table_shows_no_seed_state_record_or_hidden_card(admin_client, committed):
    table, card = committed
    page = admin_client.get(reverse("admin:gameplay_table_change", args=[table.id]))
    assert page.status_code == 200
    html = page.content.decode()
    assert table.id in html  # it is the table's page
    assert table.seed not in html
    assert "&quot;hands&quot;" not in html and "salt" not in html

    actions = admin_client.get(reverse("admin:gameplay_action_changelist"), {"q": table.id})
    assert actions.status_code == 200
    assert table.id in actions.content.decode()
    assert not shows(card, actions)
    action = Action.objects.get(table=table)
    one = admin_client.get(reverse("admin:gameplay_action_change", args=[action.pk]))
    assert one.status_code == 403
    assert not shows(card, one)


def test_secret_fields_cannot_be_probed_with_list_filters(admin_client, committed):
    table, card = committed
    tables_url = reverse("admin:gameplay_table_changelist")
    for lookup in ("seed", "seed__startswith", "state__hands__0__0", "record__isnull"):
        probe = admin_client.get(tables_url, {lookup: table.seed[:1]})
        assert probe.status_code == 400, lookup
    actions_url = reverse("admin:gameplay_action_changelist")
    assert admin_client.get(actions_url, {"action__card": card}).status_code == 400
    assert admin_client.get(actions_url, {"table__seed": table.seed}).status_code == 400
    assert admin_client.get(actions_url, {"kind": "player"}).status_code == 200


def test_a_finished_table_shows_its_record_and_actions_but_never_its_seed(admin_client, committed):
    table, card = committed
    play_out(table)
    page = admin_client.get(reverse("admin:gameplay_table_change", args=[table.id])).content
    assert "&quot;hands&quot;" in page.decode() and "salt" in page.decode()
    assert table.seed not in page.decode()
    actions = admin_client.get(reverse("admin:gameplay_action_changelist"), {"q": table.id})
    assert shows(card, actions)
    action = Action.objects.get(table=table, seq=1)
    one = admin_client.get(reverse("admin:gameplay_action_change", args=[action.pk]))
    assert one.status_code == 200
    assert shows(card, one)
