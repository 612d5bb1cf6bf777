"""The schema documents /api/tables/ with token auth; `POST /play/now/` opens a table against
bots for a logged-in person and sends anyone else to log in first."""

from __future__ import annotations

import pytest
import yaml
from django.core.management import call_command
from django.urls import reverse

from gameplay.models import Seat, Table

pytestmark = pytest.mark.django_db


def test_the_schema_covers_the_tables_api_and_shows_token_auth(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths["/api/tables/"])
    assert "get" in paths["/api/tables/{table_id}/"]
    assert "post" in paths["/api/tables/{table_id}/join/"]
    assert "post" in paths["/api/tables/{table_id}/leave/"]
    schemes = schema["components"]["securitySchemes"]
    assert schemes["tokenAuth"]["type"] == "apiKey" and schemes["tokenAuth"]["in"] == "header"
    create = paths["/api/tables/"]["post"]
    assert {"tokenAuth": []} in create["security"]
    assert "201" in create["responses"] and "400" in create["responses"]


def test_play_now_makes_a_started_table_and_opens_its_page(client, ana):
    client.force_login(ana)
    response = client.post(reverse("gameplay:play-now"), {"game": "mediatore"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.id}/"
    assert "token" not in response["Location"]
    # A first game is relaxed (gameplay/paces.py): 90 s a move.
    assert (table.status, table.rated, table.seconds_per_move, table.pace, table.n_deals) == (
        "playing",
        True,
        90,
        "relaxed",
        4,
    )
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    assert seats[0].user_id == ana.pk and all(s.bot_level == "basic" for s in seats[1:])
    # The page knows ana by her session.
    assert client.get(response["Location"]).status_code == 200


def test_play_now_offers_a_visitor_a_guest_seat_or_to_log_in_and_back(client):
    """docs/accounts.md, "Guests": the choice page; logging in comes back to the same choice."""
    response = client.post(reverse("gameplay:play-now"), {"game": "saichugen"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="as_guest"' in html
    assert f'{reverse("account_login")}?next=%2Fplay%2Fnow%2F%3Fgame%3Dsaichugen"' in html
    assert not Table.objects.exists()


def test_play_now_refuses_an_unknown_game_and_sends_a_reload_back_to_its_form(client, ana):
    client.force_login(ana)
    response = client.post(reverse("gameplay:play-now"), {"game": "skat"})
    assert response.status_code == 400 and b"Unknown game" in response.content
    # A reload or a typed address is a GET: back to the page with the form, not an empty 405.
    assert client.get(reverse("gameplay:play-now"))["Location"] == reverse("home")
    assert client.get(reverse("gameplay:seek"))["Location"] == reverse("gameplay:play")
    assert client.get(reverse("gameplay:challenge"))["Location"] == reverse("gameplay:play")
    assert client.put(reverse("gameplay:play-now")).status_code == 405
    assert not Table.objects.exists()
