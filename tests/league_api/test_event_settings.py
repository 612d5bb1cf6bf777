"""`PATCH /api/events/<slug>/`: an event's settings change by the edit form's rules — its
organizers only, what a planned round used stays fixed (a 400 naming the field), a field that is
no setting or a bad value is a 400, and a refusal changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from league.forms.events import EventForm
from league.models import Event
from league.services import events as event_services
from league.services.organizers import add_co_organizer
from tests.league_api.builders import client_of, enter, league_with, make_event, seat_round

pytestmark = pytest.mark.django_db

LOCKED_AFTER_A_ROUND = [
    ("format", "swiss"),
    ("deals_per_match", 2),
    ("bot_level", "random"),
    ("seed", 99),
    ("scoring", "duplicate"),
]


def url(event: Event) -> str:
    return f"/api/events/{event.slug}/"


def settings(event: Event) -> dict[str, Any]:
    """Everything stored of the event, to show a refusal changed nothing."""
    return Event.objects.values().get(pk=event.pk)


def patch(client: Any, event: Event, body: Any) -> Any:
    return client.patch(url(event), body, format="json")


@pytest.fixture
def unplanned(alice) -> Event:
    """Alice's draft without a round: every setting may still change."""
    event = make_event(alice, "Unplanned", published=False)
    enter(event, ["ina", "jo", "kai"])
    return event


def test_the_organizer_changes_what_may_still_change(as_alice, cup):
    body = {
        "name": "Spring Cup (renamed)",
        "rounds": 6,
        "seconds_per_move": 90,
        "time_zone": "Europe/Berlin",
        "allow_spectators": False,
        "tiebreaks": ["wins", "total_payouts"],
    }
    answer = patch(as_alice, cup, body)
    assert answer.status_code == 200, answer.content
    cup.refresh_from_db()
    assert (cup.name, cup.rounds, cup.seconds_per_move) == ("Spring Cup (renamed)", 6, 90)
    assert (cup.time_zone, cup.allow_spectators) == ("Europe/Berlin", False)
    assert cup.tiebreaks == ["wins", "total_payouts"]
    shown = answer.json()
    assert shown["name"] == "Spring Cup (renamed)" and shown["time_zone"] == "Europe/Berlin"
    assert "seed" not in shown


def test_fields_left_out_keep_their_value(as_alice, cup):
    before = settings(cup)
    assert patch(as_alice, cup, {"name": "Only the name"}).status_code == 200
    after = settings(cup)
    assert after["name"] == "Only the name"
    changed = {key for key in before if before[key] != after[key]}
    assert changed <= {"name", "standings_version"}  # the standings are made again


def test_a_co_organizer_may_and_nobody_else(alice, cup, bob, charlie, django_user_model, anonymous):
    cora = django_user_model.objects.create_user("cora", password="cora-password")
    add_co_organizer(cup, "cora", by=alice)
    before = settings(cup)
    assert patch(anonymous, cup, {"name": "Hijacked"}).status_code == 401
    for outsider in (bob, charlie):  # a player of the event, an account with nothing to do here
        assert patch(client_of(outsider), cup, {"name": "Hijacked"}).status_code == 403
    assert settings(cup) == before
    assert patch(client_of(cora), cup, {"name": "By Cora"}).status_code == 200
    assert Event.objects.get(pk=cup.pk).name == "By Cora"


def test_an_outsider_gets_403_on_a_draft_too(charlie, unplanned):
    before = settings(unplanned)
    assert patch(client_of(charlie), unplanned, {"name": "Found it"}).status_code == 403
    assert settings(unplanned) == before


@pytest.mark.parametrize(("field", "value"), LOCKED_AFTER_A_ROUND)
def test_a_setting_a_round_has_used_is_refused_by_name(as_alice, cup, field, value):
    before = settings(cup)
    answer = patch(as_alice, cup, {"name": "Changed too", field: value})
    assert answer.status_code == 400, answer.content
    assert answer.json() == {field: ["this cannot change once rounds exist"]}
    assert settings(cup) == before


@pytest.mark.parametrize(
    "flags", [{"targets": "9-5-2"}, {"woburn_bidding": True}, {"win_tricks": 14}]
)
def test_a_variant_a_round_has_used_is_refused_flag_by_flag(as_alice, cup, flags):
    before = settings(cup)
    answer = patch(as_alice, cup, {"variant": flags})
    assert answer.status_code == 400, answer.content
    (flag,) = flags
    assert answer.json() == {"variant": [f"{flag}: this cannot change once rounds exist"]}
    assert settings(cup) == before


def test_a_locked_setting_sent_back_unchanged_is_no_change(as_alice, cup):
    body = {
        "game": cup.game,
        "format": cup.format,
        "deals_per_match": cup.deals_per_match,
        "variant": dict(cup.variant),
        "name": "Sent back",
    }
    answer = patch(as_alice, cup, body)
    assert answer.status_code == 200, answer.content
    assert Event.objects.get(pk=cup.pk).name == "Sent back"


def test_before_any_round_the_format_variant_and_deals_change(as_alice, unplanned):
    body = {
        "format": "swiss",
        "deals_per_match": 2,
        "variant": {"targets": "9-5-2", "woburn_bidding": True},
        "seed": 42,
    }
    answer = patch(as_alice, unplanned, body)
    assert answer.status_code == 200, answer.content
    unplanned.refresh_from_db()
    assert (unplanned.format, unplanned.deals_per_match, unplanned.seed) == ("swiss", 2, 42)
    assert unplanned.variant["targets"] == "9-5-2" and unplanned.variant["woburn_bidding"]
    assert unplanned.variant["kitty_mode"] == "discard_then_take"  # the flags left out kept


def test_the_game_never_changes(as_alice, unplanned):
    before = settings(unplanned)
    answer = patch(as_alice, unplanned, {"game": "saichugen"})
    assert answer.status_code == 400
    assert "game cannot change" in answer.json()["game"][0]
    assert settings(unplanned) == before


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"colour": "red"}, "colour", "unknown field"),
        ({"status": "closed"}, "status", "…/close/"),
        ({"visibility": "published"}, "visibility", "…/publish/"),
        ({"capacity": 10}, "capacity", "…/registration/"),
        ({"slug": "elsewhere"}, "slug", "read-only"),
        ({"variant": {"colour": "red"}}, "variant", "colour: not a flag of this game"),
    ],
)
def test_a_field_that_is_no_setting_is_refused_by_name(as_alice, cup, body, field, words):
    before = settings(cup)
    answer = patch(as_alice, cup, {"name": "Changed too", **body})
    assert answer.status_code == 400, answer.content
    assert words in " ".join(answer.json()[field])
    assert settings(cup) == before


BAD_VALUES = [
    ({"rounds": 0}, "rounds"),
    ({"rounds": 51}, "rounds"),
    ({"rounds": "many"}, "rounds"),
    ({"rounds": 2.5}, "rounds"),
    ({"rounds": True}, "rounds"),
    ({"name": ""}, "name"),
    ({"name": {"first": "x"}}, "name"),
    ({"name": "x" * 121}, "name"),
    ({"kind": "party"}, "kind"),
    ({"time_zone": "Mars/Olympus"}, "time_zone"),
    ({"tiebreaks": ["coin_toss"]}, "tiebreaks"),
    ({"tiebreaks": "wins"}, "tiebreaks"),
    ({"tiebreaks": ["wins", "wins"]}, "tiebreaks"),
    ({"seconds_per_move": -5}, "seconds_per_move"),
    ({"extension_days": 0}, "detail"),  # the service's bound, worded as on the page
    ({"deadline_policy": "pray"}, "deadline_policy"),
    ({"play_online": "perhaps"}, "play_online"),
    ({"variant": ["targets"]}, "variant"),
    ({"seed": "x"}, "seed"),
]


@pytest.mark.parametrize(("body", "field"), BAD_VALUES, ids=lambda v: str(v)[:40])
def test_a_bad_value_is_a_400_naming_its_field_and_changes_nothing(as_alice, cup, body, field):
    before = settings(cup)
    answer = patch(as_alice, cup, body)
    assert answer.status_code == 400, answer.content
    assert field in answer.json(), answer.json()
    assert settings(cup) == before


def test_fewer_rounds_than_planned_is_refused(as_alice, cup):
    seat_round(cup, [enter(cup, ["fritz", "gus", "hal"])], publish=False)  # round 2, a draft
    before = settings(cup)
    answer = patch(as_alice, cup, {"rounds": 1})
    assert answer.status_code == 400
    assert "rounds" in answer.json()
    assert settings(cup) == before
    assert patch(as_alice, cup, {"rounds": 2}).status_code == 200


def test_a_value_of_an_unplanned_event_is_judged_too(as_alice, unplanned):
    before = settings(unplanned)
    for body, field in [
        ({"variant": {"targets": "10-5-1"}}, "variant"),
        ({"variant": {"win_tricks": 99}}, "variant"),
        ({"deals_per_match": 0}, "deals_per_match"),
        ({"format": "lottery"}, "format"),
        ({"variant": {"woburn_bidding": "maybe"}}, "variant"),
        ({"variant": {"win_tricks": "many"}}, "variant"),
        ({"variant": {"win_tricks": None}}, "variant"),
        ({"bot_level": "godlike"}, "bot_level"),
    ]:
        answer = patch(as_alice, unplanned, body)
        assert answer.status_code == 400, (body, answer.content)
        assert field in answer.json(), (body, answer.json())
    assert settings(unplanned) == before


def test_the_services_own_refusal_is_a_400_with_its_reason(as_alice, cup):
    before = settings(cup)
    answer = patch(as_alice, cup, {"asynchronous": True, "play_online": False})
    assert answer.status_code == 400
    assert "online" in answer.json()["detail"]
    assert settings(cup) == before


@pytest.mark.parametrize(
    ("body", "kind"), [([1, 2], "json"), ("not json {", "text/plain"), ("{", "json")]
)
def test_a_body_that_is_no_object_is_a_400(as_alice, cup, body, kind):
    before = settings(cup)
    if kind == "json":
        raw = body if isinstance(body, str) else json.dumps(body)
        answer = as_alice.patch(url(cup), raw, content_type="application/json")
    else:
        answer = as_alice.patch(url(cup), body, content_type=kind)
    assert 400 <= answer.status_code < 500, answer.content
    assert settings(cup) == before


def test_a_form_encoded_patch_is_read_too(as_alice, cup):
    answer = as_alice.patch(url(cup), {"name": "Posted", "rounds": "6"}, format="multipart")
    assert answer.status_code == 200, answer.content
    cup.refresh_from_db()
    assert (cup.name, cup.rounds) == ("Posted", 6)


def test_a_closed_event_changes_no_more(alice, as_alice):
    event = make_event(alice, "Closed Cup")
    event_services.close_event(event, by=alice)
    before = settings(event)
    answer = patch(as_alice, event, {"name": "Reopened?"})
    assert answer.status_code == 400
    assert answer.json() == {"detail": "this event is closed"}
    assert settings(event) == before


def test_the_api_and_the_edit_page_refuse_with_the_same_words(client, alice, as_alice, cup):
    """Not a copy of the rules: the page's own form answers both."""
    client.force_login(alice)
    page = client.post(
        reverse("league:event_edit", args=[cup.slug]),
        {**_form_post(cup), "format": "swiss"},
    )
    api = patch(as_alice, cup, {"format": "swiss"})
    (message,) = api.json()["format"]
    assert message in page.content.decode()


def _form_post(event: Event) -> dict[str, Any]:
    form = EventForm(instance=event, game=event.game)
    post: dict[str, Any] = {}
    for name, field in form.fields.items():
        if field.disabled:
            continue
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                post[name] = "on"
        elif isinstance(value, list):
            post.update({f"{name}_{i}": v for i, v in enumerate(value)})
        elif value is not None:
            post[name] = value
    return post


@pytest.mark.parametrize("size", [1, 3])
def test_a_patch_reads_a_fixed_number_of_queries(alice, size, django_assert_max_num_queries):
    event = league_with(alice, rounds=size, tables=size)
    client = client_of(alice)
    # the same for a bigger event (18 since the end of an event is settled on every change)
    with django_assert_max_num_queries(18):
        answer = patch(client, event, {"name": f"League of {size}", "rounds": 6})
    assert answer.status_code == 200, answer.content


@pytest.mark.parametrize("seconds", [86_401, 2**31, -1])
def test_a_clock_beyond_a_day_a_move_is_a_400_not_a_database_error(as_alice, cup, seconds):
    """A PostgreSQL integer overflows at 2**31: the service bounds the clock first."""
    before = settings(cup)
    answer = patch(as_alice, cup, {"seconds_per_move": seconds})
    assert answer.status_code == 400
    assert settings(cup) == before
    assert patch(as_alice, cup, {"seconds_per_move": 86_400}).status_code == 200
