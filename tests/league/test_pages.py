"""Organizer pages refuse everyone but the event's organizers; public pages cost fixed queries."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from league.models import Entry, Event, Round
from league.services import rounds as round_services
from tests.language import text
from tests.league.conftest import play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def event_with_round(make_event, alice):
    event = make_event("saichugen", players=6)
    round_ = play_round(event, alice)
    return event, round_


def organizer_urls(event: Event, round_: Round) -> list[tuple[str, str]]:
    slug = event.slug
    entry = Entry.objects.filter(event=event).first()
    fixture = round_.fixtures.first()
    return [
        ("get", reverse("league:event_edit", args=[slug])),
        ("post", reverse("league:event_edit", args=[slug])),
        ("post", reverse("league:event_publish", args=[slug])),
        ("post", reverse("league:event_close", args=[slug])),
        ("get", reverse("league:entries", args=[slug])),
        ("post", reverse("league:entries", args=[slug])),
        ("post", reverse("league:entry_action", args=[slug, entry.pk])),
        ("post", reverse("league:round_generate", args=[slug])),
        ("post", reverse("league:round_action", args=[slug, round_.number])),
        ("get", reverse("league:result", args=[slug, fixture.pk])),
        ("post", reverse("league:result", args=[slug, fixture.pk])),
    ]


def test_every_organizer_url_refuses_an_outsider(client, charlie, event_with_round):
    event, round_ = event_with_round
    client.force_login(charlie)
    for method, url in organizer_urls(event, round_):
        response = getattr(client, method)(url, {"action": "withdraw"})
        assert response.status_code == 403, (method, url)
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING  # not closed
    assert not Entry.objects.filter(event=event, withdrawn_after_round__isnull=False).exists()


def test_every_organizer_url_sends_anonymous_visitors_to_log_in(client, event_with_round):
    event, round_ = event_with_round
    for method, url in organizer_urls(event, round_):
        response = getattr(client, method)(url)
        assert response.status_code == 302, (method, url)
        assert response["Location"].startswith(reverse("login"))


def test_the_organizer_may_use_every_organizer_url(client, alice, event_with_round):
    event, round_ = event_with_round
    client.force_login(alice)
    for method, url in organizer_urls(event, round_):
        response = getattr(client, method)(url)
        assert response.status_code in (200, 302), (method, url)


def test_staff_may_manage_any_event(client, charlie, event_with_round):
    event, _ = event_with_round
    charlie.is_staff = True
    charlie.save()
    client.force_login(charlie)
    assert client.get(reverse("league:entries", args=[event.slug])).status_code == 200


def test_a_draft_event_is_hidden_from_the_public(client, charlie, make_event, alice):
    event = make_event()
    Event.objects.filter(pk=event.pk).update(visibility=Event.Visibility.DRAFT)
    for url in (
        reverse("league:event", args=[event.slug]),
        reverse("league:standings", args=[event.slug]),
    ):
        assert client.get(url).status_code == 404
    assert event.name not in client.get(reverse("league:events")).content.decode()
    client.force_login(alice)
    assert client.get(reverse("league:event", args=[event.slug])).status_code == 200


def test_the_organizer_creates_an_event_from_the_variant_form(client, alice):
    client.force_login(alice)
    page = client.get(reverse("league:event_create") + "?game=three_five_eight")
    assert "variant__targets" in page.content.decode()
    response = client.post(
        reverse("league:event_create"),
        {
            "game": "three_five_eight",
            "name": "Autumn 3-5-8",
            "kind": "tournament",
            "format": "league",
            "rounds": 4,
            "deals_per_match": 3,
            "leftover": "bye",
            "bye_match_points": 1,
            "seconds_per_move": 60,
            "on_timeout": "default",
            "seed": 1,
            "variant__targets": "9-5-2",
            "variant__kitty_mode": "discard_then_take",
            "variant__win_tricks": 12,
            "variant__exchange_priority": "new_target",
            "tiebreaks": ["total_payouts", "lot"],
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(name="Autumn 3-5-8")
    assert event.variant["targets"] == "9-5-2"
    assert event.variant["woburn_bidding"] is False
    assert event.tiebreaks == ["total_payouts", "lot"]
    assert event.organizers.filter(pk=alice.pk).exists()


def test_the_organizer_enters_a_sheet_through_the_result_page(client, alice, make_event):
    event = make_event("schieberamsch")
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    fixture = round_.fixtures.first()
    client.force_login(alice)
    url = reverse("league:result", args=[event.slug, fixture.pk])
    bad = client.post(
        url, {"sheet_text": '{"deals": [{"scores": [1, 2], "payouts": [0]}]}', "version": 0}
    )
    assert bad.status_code == 200
    assert "list of 3 whole numbers" in bad.content.decode()
    good = client.post(url, {"sheet_text": '{"deals": [{"scores": [0, 4, 0]}]}', "version": 0})
    assert good.status_code == 302
    assert fixture.results.get(current=True).scored["totals"]["payouts"] == [4, -8, 4]


def _grow(make_event, alice, players):
    event = make_event("saichugen", players=players, rounds=2)
    play_round(event, alice)
    play_round(event, alice, seed=7)
    return event


@pytest.mark.parametrize("players", [6, 15])
def test_public_pages_use_a_fixed_number_of_queries(
    client, make_event, alice, players, django_assert_max_num_queries
):
    event = _grow(make_event, alice, players)
    player = Entry.objects.filter(event=event).first().player
    urls = [
        reverse("league:events"),
        reverse("league:event", args=[event.slug]),
        reverse("league:round", args=[event.slug, 2]),
        reverse("league:standings", args=[event.slug]),
        reverse("league:standings_csv", args=[event.slug]),
        reverse("league:ledger_csv", args=[event.slug]),
        reverse("league:player", args=[player.pk]),
    ]
    client.get(urls[3])  # the standings snapshot exists after the first read
    for url in urls:
        # The same bound for 6 and 15 players; the player page is the largest (its ratings
        # sections: current ratings, a bounded history, seat and head-to-head totals, names).
        with django_assert_max_num_queries(10):
            response = client.get(url)
        assert response.status_code == 200, url


def test_standings_and_ledger_csv(client, make_event, alice):
    event = _grow(make_event, alice, 6)
    standings = client.get(reverse("league:standings_csv", args=[event.slug])).content.decode()
    lines = standings.strip().splitlines()
    assert lines[0].startswith("rank,player_id,player,matches_played,match_points")
    assert len(lines) == 1 + 6
    ledger = client.get(reverse("league:ledger_csv", args=[event.slug])).content.decode()
    rows = [line.split(",") for line in ledger.strip().splitlines()[1:]]
    assert len(rows) == 2 * 6  # two rounds, one deal, six players
    assert sum(int(r[-1]) for r in rows) == 0


def test_the_same_swap_posted_twice_is_done_once(client, make_event, alice):
    event = make_event("saichugen", players=6)
    round_ = round_services.generate_round(event, by=alice)
    client.force_login(alice)
    page = client.get(reverse("league:round", args=[event.slug, round_.number])).content.decode()
    draft = page.split('name="draft" value="')[1].split('"')[0]
    one, two = (t.seats.order_by("number").first().player_id for t in round_.fixtures.all())
    url = reverse("league:round_action", args=[event.slug, round_.number])
    form = {"action": "swap", "first": one, "second": two, "draft": draft}
    before = sorted(round_.fixtures.values_list("number", "seats__player_id"))
    client.post(url, form)  # the click
    swapped = sorted(round_.fixtures.values_list("number", "seats__player_id"))
    assert swapped != before
    again = client.post(url, form, follow=True)  # the second click of a double click
    changed = text("the draft has changed since you loaded it: check it, then swap again")
    assert escape(changed) in again.content.decode()  # a message, HTML-escaped
    assert sorted(round_.fixtures.values_list("number", "seats__player_id")) == swapped
