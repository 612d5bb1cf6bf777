"""`load_demo` (what `make run` loads): idempotent, and its links point where the server runs;
its duplicate event is finished, its sections dealt alike, with travellers and standings."""

from __future__ import annotations

from fractions import Fraction
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from gameplay import api as gameplay
from league.models import Event, Fixture, Player, RatedMatch, Result, Section
from league.services.standings import compute_rows

pytestmark = pytest.mark.django_db


def load(**options) -> str:
    out = StringIO()
    call_command("load_demo", stdout=out, **options)
    return out.getvalue()


def test_loading_twice_keeps_the_same_rows_and_prints_links_to_the_given_server():
    load(password="first-pass")
    counts = (Event.objects.count(), Fixture.objects.count(), Player.objects.count())
    results = sorted(Result.objects.values_list("pk", "version", "current"))
    sections = sorted(Section.objects.values_list("pk", "seed", "completed_at"))
    text = load(password="second-pass", base_url="http://10.0.0.5:8123/")
    assert (Event.objects.count(), Fixture.objects.count(), Player.objects.count()) == counts
    assert sorted(Result.objects.values_list("pk", "version", "current")) == results
    assert sorted(Section.objects.values_list("pk", "seed", "completed_at")) == sections
    assert "http://10.0.0.5:8123/events/demo-saichugen-duplicate/" in text
    assert "http://10.0.0.5:8123/tables/" in text
    assert "http://10.0.0.5:8123/events/" in text
    assert "127.0.0.1:8000" not in text
    organizer = get_user_model().objects.get(username="organizer")
    assert organizer.check_password("second-pass") and not organizer.check_password("first-pass")
    # The played rounds were entered as records: no online table of theirs is left playing.
    refs = Fixture.objects.filter(round__event__slug="demo-saichugen-league").values_list(
        "table_ref", flat=True
    )
    assert not any(refs)


def test_the_demo_organizer_holds_the_organizer_role_and_the_demo_league_is_rated(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        load(password="pw")
    organizer = get_user_model().objects.get(username="organizer")
    assert organizer.user_permissions.filter(codename="organize_events").exists()
    # The two played rounds count: three tables of nine players, twice.
    demo = RatedMatch.objects.filter(fixture__round__event__slug="demo-saichugen-league")
    assert demo.filter(rated_at__isnull=False).count() == 6


def test_the_demo_duplicate_event_is_finished_with_sections_dealt_alike_and_standings(client):
    load(password="pw")
    event = Event.objects.get(slug="demo-saichugen-duplicate")
    assert event.is_duplicate and event.status == Event.Status.CLOSED and not event.play_online
    rounds = list(event.round_set.order_by("number"))
    assert [r.status for r in rounds] == ["published", "published"]
    for round_ in rounds:
        [section] = Section.objects.filter(round=round_)  # one section of three tables
        assert section.completed_at is not None and section.seed
        fixtures = list(round_.fixtures.order_by("number"))
        assert len(fixtures) == 3 and {f.section_id for f in fixtures} == {section.pk}
        assert all(not f.table_ref for f in fixtures)  # no online table left waiting
        records = [f.results.get(current=True).record for f in fixtures]
        dealt = gameplay.deal_set(event.game, event.variant, 2, seed=section.seed)
        for record in records:  # each table dealt the section's cards, commitments and all
            assert [
                {key: deal[key] for key in ("hands", "stock", "commitment")}
                for deal in record["deals"]
            ] == dealt
        assert len({str([d["actions"] for d in r["deals"]]) for r in records}) > 1  # own play
    rows = compute_rows(event)
    assert len(rows) == 9
    assert all(row["duplicate_deals"] == 4 for row in rows)  # two rounds of two deals each
    # differences sum to 0 and matchpoints are half the top on average, over the whole field
    # (the rows carry totals rounded to 6 places: thirds of a datum leave at most 5e-7 each)
    total = sum(Fraction(row["duplicate_total"]) for row in rows)
    assert abs(total) <= Fraction(len(rows), 2 * 10**6)
    pcts = [Fraction(row["matchpoint_pct"]).limit_denominator(10**6) for row in rows]
    assert sum(pcts) / len(pcts) == 50
    totals = [row["duplicate_total"] for row in rows]
    assert totals == sorted(totals, key=float, reverse=True)  # ranked by the duplicate total
    # published to everyone: the travellers page and the deals API
    traveller = client.get(reverse("league:traveller", args=[event.slug, 2, 1]))
    assert traveller.status_code == 200
    deals = client.get(reverse("league-api:round-deals", args=[event.slug, 1])).json()
    [section] = deals["sections"]
    assert len(section["tables"]) == 3 and len(section["deals"]) == 2
    assert all(table["completed"] for deal in section["deals"] for table in deal["tables"])
