"""`/api/` is the API's index: JSON for anyone, every part linked absolutely, every link alive."""

from __future__ import annotations

import base64
from urllib.parse import urlsplit

import pytest
from django.urls import resolve
from rest_framework.test import APIClient

from games import catalogue

pytestmark = pytest.mark.django_db

# Links a GET is not the way to use: the token is POSTed (it answers a GET with 405).
POST_ONLY = {"token"}


def flatten(tree: dict, prefix: str = "") -> dict[str, str]:
    """Every link of the index by its dotted key (`league.ratings.saichugen`)."""
    out = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        elif isinstance(value, str) and value.startswith("http"):
            out[f"{prefix}{key}"] = value
    return out


@pytest.fixture
def index() -> dict:
    response = APIClient().get("/api/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    return response.json()


def test_the_root_lists_every_part_of_the_api_with_absolute_links(index):
    links = flatten(index)
    assert {"schema", "docs", "token", "lobby.tables", "league.events", "league.players"} <= set(
        links
    )
    assert set(index["league"]["ratings"]) == {g.name for g in catalogue.games()}
    assert set(index["templates"]) == {
        "event", "entries", "rounds", "fixtures", "standings", "ledger",
    }  # fmt: skip
    for key, link in links.items():
        parts = urlsplit(link)
        assert (parts.scheme, parts.netloc) == ("http", "testserver"), key
        assert parts.path.startswith("/api/"), key


def test_every_link_resolves_and_answers(index):
    client = APIClient()
    links = {k: v for k, v in flatten(index).items() if not k.startswith("templates.")}
    for key, link in links.items():
        path = urlsplit(link).path
        resolve(path)  # a URL of the site, or Resolver404
        answer = client.get(path)
        assert answer.status_code == (405 if key in POST_ONLY else 200), (key, answer.status_code)


def test_the_templates_filled_in_with_an_event_answer(index, played):
    client = APIClient()
    for key, template in index["templates"].items():
        assert "{slug}" in template, key
        path = urlsplit(template.replace("{slug}", played.slug)).path
        assert client.get(path).status_code == 200, key


def test_no_login_is_needed_and_wrong_credentials_are_not_refused():
    bad = base64.b64encode(b"nobody:wrong").decode()
    client = APIClient()
    assert client.get("/api/", HTTP_AUTHORIZATION=f"Basic {bad}").status_code == 200
    assert client.get("/api/", HTTP_AUTHORIZATION="Token not-a-token").status_code == 200


def test_the_index_holds_no_secret(index, alice, settings):
    settings.SECRET_KEY = "a-long-and-very-secret-key-nobody-may-read"
    client = APIClient()
    client.force_login(alice)
    mine = client.get("/api/").json()
    assert mine == index  # the same for everyone: nothing of the account in it
    text = str(mine)
    assert settings.SECRET_KEY not in text
    assert "password" not in text.lower()


def test_the_root_is_in_the_schema():
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert "get" in response.json()["paths"]["/api/"]
