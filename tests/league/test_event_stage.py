"""One status and one entry count for an event, wherever it is shown: the event list, the event
page, the home page, the organizer's pages and the API (`Event.stage`,
`league.services.entry_counts`)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Entry, Event
from league.services import events as event_services
from league.services import registration
from league.services.players import player_for_user
from tests.home.page import parse
from tests.league.conftest import play_round

pytestmark = pytest.mark.django_db


def stage_on(client, url: str, event: Event) -> str:
    """The `data-stage` shown on the page next to the event (its row in a list)."""
    response = client.get(url)
    assert response.status_code == 200, url
    root = parse(response.content)
    for node in root.walk():
        links = [a.attrs.get("href") for a in node.find_all("a")]
        marks = [n for n in node.find_all("span") if "event-stage" in n.attrs.get("class", "")]
        if len(marks) == 1 and event.get_absolute_url() in links and node.tag in ("tr", "li"):
            return marks[0].attrs["data-stage"]
    marks = [n for n in root.find_all("span") if n.attrs.get("class") == "event-stage"]
    assert len(marks) == 1, url
    return marks[0].attrs["data-stage"]


def stages(client, event: Event, *, home: bool = True) -> set[str]:
    """The status as every page shows it, and the API's (and the player API's) `status`."""
    urls = [
        reverse("league:events"),
        event.get_absolute_url(),
        reverse("league:entries", args=[event.slug]),
        reverse("league:registration", args=[event.slug]),
        reverse("league:organizers", args=[event.slug]),
    ]
    seen = {stage_on(client, url, event) for url in urls + (["/"] if home else [])}
    seen.add(client.get(f"/api/events/{event.slug}/").json()["status"])
    listed = client.get("/api/events/").json()["results"]
    seen |= {e["status"] for e in listed if e["slug"] == event.slug}
    player = Entry.objects.filter(event=event).first().player_id
    played = client.get(f"/api/players/{player}/").json()["events"]
    seen |= {e["status"] for e in played if e["slug"] == event.slug}
    return seen


def test_the_status_is_the_same_on_every_page_and_in_the_api(make_event, alice, client):
    client.force_login(alice)  # the organizer: she sees the draft and the organizer pages
    event = make_event("saichugen", players=6, format="swiss", rounds=1)
    Event.objects.filter(pk=event.pk).update(visibility=Event.Visibility.DRAFT)
    event.refresh_from_db()
    # A draft is on no home page, and its players' API pages leave it out.
    assert {
        stage_on(client, url, event)
        for url in (
            reverse("league:events"),
            event.get_absolute_url(),
            reverse("league:entries", args=[event.slug]),
        )
    } | {client.get(f"/api/events/{event.slug}/").json()["status"]} == {"draft"}
    event_services.publish_event(event, by=alice)
    assert stages(client, event) == {"registration"}
    play_round(event, alice)  # its only round: played to its end
    assert stages(client, event) == {"finished"}
    event_services.update_event(event, by=alice, rounds=2)
    assert stages(client, event) == {"running"}
    play_round(event, alice)
    assert stages(client, event) == {"finished"}
    event_services.close_event(event, by=alice)
    assert stages(client, event) == {"closed"}


def entry_counts(client, event: Event) -> set[int]:
    """The entries as the event list, the event page, its sign-up card and the API count them."""
    events = parse(client.get(reverse("league:events")).content)
    (row,) = [tr for tr in events.find_all("tr") if event.get_absolute_url() in tr.links]
    listed = int(row.find_all("td")[3].text)
    page = parse(client.get(event.get_absolute_url()).content)
    (heading,) = [h for h in page.find_all("h2") if h.text.startswith("Entries (")]
    on_page = int(heading.text.removeprefix("Entries (").removesuffix(")"))
    card = page.find(id="signup").text
    on_card = int(card.split("Sign-up", 1)[1].split()[0])
    body = client.get(f"/api/events/{event.slug}/").json()
    return {listed, on_page, on_card, body["entries_count"]}


def test_the_entries_are_counted_the_same_everywhere(make_event, alice, bob, client):
    event = make_event("saichugen", players=6, format="swiss", rounds=2)
    registration.configure(event, by=alice, signup_open=True, capacity=None, signup_deadline=None)
    gone, later = Entry.objects.filter(event=event)[:2]
    event_services.add_entry(event, player_for_user(bob), by=alice)
    event_services.withdraw(gone, by=alice)  # before playing: not counted
    assert entry_counts(client, event) == {6}
    home = parse(client.get("/").content).find(id="upcoming-events")
    assert f"{event.name} · Saichugen · Registration · 6 entries" in home.text

    play_round(event, alice)
    event_services.withdraw(Entry.objects.get(pk=later.pk), by=alice)  # after playing: counted
    assert entry_counts(client, event) == {6}
    client.force_login(bob)  # bob's own sign-up card says the same
    assert entry_counts(client, event) == {6}
