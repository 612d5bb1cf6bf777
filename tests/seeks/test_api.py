"""/api/seeks/ and /api/challenges/ as a program uses them: a bot account seeks, polls its seek
until it names a table, and takes its seat's token there; challenges over HTTP; errors are
`{"detail": ...}` with a 4xx and change nothing."""

from __future__ import annotations

import pytest

from gameplay.models import Challenge, Seek

from .conftest import api

pytestmark = pytest.mark.django_db

SEEKS = "/api/seeks/"
CHALLENGES = "/api/challenges/"


def test_a_program_seeks_polls_its_table_and_takes_its_seat(ana, ben, cleo):
    first = api(ana).post(SEEKS, {"game": "saichugen", "pace": "fast"}, format="json")
    assert first.status_code == 201, first.content
    mine = first.json()
    assert mine["status"] == "open" and mine["table"] is None
    assert mine["seats"] == 3 and mine["waiting"] == 1 and mine["bots_after"] is None
    listed = api().get(SEEKS).json()["results"]
    assert [(s["player"], s["game"], s["pace"]) for s in listed] == [("ana", "saichugen", "fast")]
    assert "table" not in listed[0]
    api(ben).post(SEEKS, {"game": "saichugen", "pace": "fast"}, format="json")
    third = api(cleo).post(SEEKS, {"game": "saichugen", "pace": "fast"}, format="json").json()
    assert third["status"] == "matched" and third["table"]
    polled = api(ana).get(f"{SEEKS}{mine['seek']}/").json()
    assert polled["table"] == third["table"] and polled["url"] == f"/tables/{third['table']}/"
    joined = api(ana).post(f"/api/tables/{polled['table']}/join/")
    assert joined.status_code == 200 and joined.json()["token"]
    assert joined.json()["status"] == "playing"
    assert api().get(SEEKS).json()["results"] == []


def test_a_seek_is_its_seekers_to_read_and_withdraw(ana, ben):
    mine = api(ana).post(SEEKS, {"game": "mediatore"}, format="json").json()
    assert mine["pace"] == "relaxed"  # the default pace
    assert api(ben).get(f"{SEEKS}{mine['seek']}/").status_code == 404
    assert api(ben).delete(f"{SEEKS}{mine['seek']}/").status_code == 404
    assert api().get(f"{SEEKS}{mine['seek']}/").status_code in (401, 403)
    gone = api(ana).delete(f"{SEEKS}{mine['seek']}/")
    assert gone.status_code == 200 and gone.json()["status"] == "cancelled"
    again = api(ana).delete(f"{SEEKS}{mine['seek']}/")
    assert again.status_code == 409 and again.json()["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"game": "chess"},
        {"game": "saichugen", "pace": "glacial"},
        {"game": "saichugen", "bots_after": 5},
        {"game": "saichugen", "rated": "true"},
        ["saichugen"],
    ],
)
def test_bad_seeks_are_400_with_a_detail_and_make_nothing(ana, body):
    response = api(ana).post(SEEKS, body, format="json")
    assert response.status_code == 400 and response.json()["detail"]
    assert not Seek.objects.exists()


def test_anonymous_cannot_seek_or_challenge():
    assert api().post(SEEKS, {"game": "saichugen"}, format="json").status_code in (401, 403)
    assert api().get(CHALLENGES).status_code in (401, 403)
    assert not Seek.objects.exists()


def test_a_challenge_over_http(ana, ben, cleo):
    made = api(ana).post(
        CHALLENGES, {"player": "Ben", "game": "schieberamsch", "pace": "normal"}, format="json"
    )
    assert made.status_code == 201, made.content
    ch = made.json()
    assert ch["challenged"] == "ben" and ch["status"] == "pending" and not ch["incoming"]
    (theirs,) = api(ben).get(CHALLENGES).json()["results"]
    assert theirs["challenge"] == ch["challenge"] and theirs["incoming"]
    assert api(cleo).get(CHALLENGES).json()["results"] == []
    assert api(cleo).post(f"{CHALLENGES}{ch['challenge']}/accept/").status_code == 404
    assert api(ana).post(f"{CHALLENGES}{ch['challenge']}/accept/").status_code == 403
    accepted = api(ben).post(f"{CHALLENGES}{ch['challenge']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    table = accepted.json()["table"]
    assert api(ana).get(f"{CHALLENGES}{ch['challenge']}/").json()["table"] == table
    assert api(ana).post(f"/api/tables/{table}/join/").json()["status"] == "playing"
    late = api(ben).post(f"{CHALLENGES}{ch['challenge']}/decline/")
    assert late.status_code == 409 and late.json()["detail"]


def test_declining_and_withdrawing_over_http(ana, ben):
    one = api(ana).post(CHALLENGES, {"player": "ben", "game": "saichugen"}, format="json").json()
    declined = api(ben).post(f"{CHALLENGES}{one['challenge']}/decline/")
    assert declined.json()["status"] == "declined"
    two = api(ana).post(CHALLENGES, {"player": "ben", "game": "saichugen"}, format="json").json()
    assert api(ben).delete(f"{CHALLENGES}{two['challenge']}/").status_code == 403
    assert api(ana).delete(f"{CHALLENGES}{two['challenge']}/").json()["status"] == "withdrawn"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "saichugen"}, 400),
        ({"player": "ana", "game": "saichugen"}, 400),
        ({"player": "nobody", "game": "saichugen"}, 404),
        ({"player": "ben", "game": "saichugen", "bots": "yes"}, 400),
        ({"player": 7, "game": "saichugen"}, 400),
    ],
)
def test_bad_challenges_are_4xx_with_a_detail_and_make_nothing(ana, ben, body, code):
    response = api(ana).post(CHALLENGES, body, format="json")
    assert response.status_code == code and response.json()["detail"]
    assert not Challenge.objects.exists()


def test_the_schema_documents_the_additions():
    schema = api().get("/api/schema/", {"format": "json"}).json()
    for path in ("/api/seeks/", "/api/seeks/{seek_id}/", "/api/challenges/{challenge_id}/accept/"):
        assert path in schema["paths"], sorted(schema["paths"])
