"""The organizer's absence actions on the pages: "Mark absent" on a table's page (seats, since
when, a confirmation), "Undo (arrived late)", the result page's absent seats over the table
with the deals typed so far, the marks on the round page, and the event help's rules."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from league.models import Result
from league.scheduling.formats.base import (
    ABSENCE_UNDONE_NEEDS_RESULTS,
    ABSENT_DUPLICATE,
    ABSENT_LOSES,
)
from league.services import absences
from league.services import rounds as round_services
from tests.language import text, text_in
from tests.results.test_entering import grid_post

pytestmark = pytest.mark.django_db

KNOCKOUT_OUT = (
    "An absent player is out: the players who were at the table decide who goes on, as above, "
    "and an absent player never fills the next round as one of the best non-winners."
)


def shown(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def table(make_event, alice):
    """A published over-the-table Swiss round of one table of three, three deals a match."""
    event = make_event("three_five_eight", players=3, deals_per_match=3, play_online=False)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    return event, round_.fixtures.get()


def page_of(event, fixture) -> str:
    return reverse("league:fixture", args=[event.slug, fixture.pk])


def test_only_organizers_see_mark_absent(client, alice, charlie, table):
    event, fixture = table
    button = text("Mark absent…")
    assert button not in shown(client.get(page_of(event, fixture)))
    client.force_login(charlie)
    assert button not in shown(client.get(page_of(event, fixture)))
    client.force_login(alice)
    page = shown(client.get(page_of(event, fixture)))
    assert button in page and text_in("absent since", "before the first deal") in page
    # over the table the deals played are typed in the score grid, which the card links to
    assert text_in("absent since", "after deal %(k)s", k=1) not in page
    assert reverse("league:result", args=[event.slug, fixture.pk]) in page


def test_mark_absent_confirms_then_counts_and_undo_takes_it_back(client, alice, table):
    event, fixture = table
    client.force_login(alice)
    absent = reverse("league:fixture_absent", args=[event.slug, fixture.pk])
    name = fixture.seats.get(number=1).player.name
    confirm = client.get(absent, {"seats": ["1"], "after_deal": "0"})
    assert confirm.status_code == 200
    told = text("Table %(n)s: %(names)s absent before the first deal.", n=1, names=name)
    assert told in shown(confirm)
    assert not Result.objects.exists()  # a confirmation changes nothing
    done = shown(client.post(absent, {"seats": ["1"], "after_deal": "0"}, follow=True))
    result = fixture.results.get(current=True)
    assert (result.source, result.absent_seats) == (Result.Source.ABSENCE, [1])
    assert text("Table %(n)s: the absence counts as its result.", n=1) in done
    assert f"{text('absent')}: {name}" in done
    assert text("Undo (arrived late)") in done and text("Mark absent…") not in done
    round_page = shown(client.get(reverse("league:round", args=[event.slug, 1])))
    assert f"{text('absent')}: {name}" in round_page  # by name, not seat number
    undo = reverse("league:fixture_absent_undo", args=[event.slug, fixture.pk])
    asked = text(
        "The absence no longer counts (it stays in the result's history): the table is "
        "played as usual."
    )
    assert asked in shown(client.get(undo))
    back = shown(client.post(undo, follow=True))
    assert text("Table %(n)s: the absence is taken back.", n=1) in back
    assert text("Mark absent…") in back
    assert not fixture.results.filter(current=True).exists()


def test_a_refused_mark_says_why_and_changes_nothing(client, alice, table):
    event, fixture = table
    client.force_login(alice)
    absent = reverse("league:fixture_absent", args=[event.slug, fixture.pk])
    every = {"seats": ["0", "1", "2"], "after_deal": "0"}
    refused = shown(client.post(absent, every, follow=True))
    assert text("somebody must have come: not every seat can be absent") in refused
    empty = shown(client.get(absent, {"after_deal": "0"}, follow=True))
    assert text("Tick the absent players, and say since when.") in empty
    assert not Result.objects.exists()


def test_the_result_page_counts_the_deals_typed_before_an_absence(client, alice, table):
    event, fixture = table
    client.force_login(alice)
    url = reverse("league:result", args=[event.slug, fixture.pk])
    help_text = text(
        "did not come, or left after the deals typed above: they forfeit, the others win"
    )
    assert help_text in shown(client.get(url))
    post = grid_post([{"tricks": [10, 2, 4]}], **{"result-absent": ["0"]})
    response = client.post(url, post)
    assert response.status_code == 302, shown(response)
    result = fixture.results.get(current=True)
    assert (result.source, result.absent_seats) == (Result.Source.ABSENCE, [0])
    assert len(result.scored["deals"]) == 1 and result.grid == [{"tricks": [10, 2, 4]}]
    assert help_text not in shown(client.get(url))  # a correction now: no absence


def test_the_fixture_page_reads_a_fixed_number_of_queries(
    client, alice, table, django_assert_max_num_queries
):
    """The same ceiling with the Mark absent form and with the Undo button (whose rule reads
    the event's rounds once)."""
    event, fixture = table
    client.force_login(alice)
    with django_assert_max_num_queries(10):
        assert text("Mark absent…") in shown(client.get(page_of(event, fixture)))
    absences.mark_absent(fixture, by=alice, seats=[2])
    with django_assert_max_num_queries(10):
        assert text("Undo (arrived late)") in shown(client.get(page_of(event, fixture)))


def test_the_help_page_says_what_an_absence_counts_for(client, make_event):
    knockout = make_event("three_five_eight", players=6, format="knockout")
    page = shown(client.get(reverse("league:event_help", args=[knockout.slug])))
    assert text(ABSENT_LOSES) in page and text(KNOCKOUT_OUT) in page
    assert text(ABSENCE_UNDONE_NEEDS_RESULTS) in page and text(ABSENT_DUPLICATE) not in page
    league = make_event("saichugen", players=3, format="league", scoring="duplicate")
    page = shown(client.get(reverse("league:event_help", args=[league.slug])))
    assert text(KNOCKOUT_OUT) not in page and text(ABSENT_DUPLICATE) in page
    assert text(ABSENCE_UNDONE_NEEDS_RESULTS) not in page
