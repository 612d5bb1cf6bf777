"""`load_demo` (what `make run` loads): idempotent, and its links point where the server runs."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from league.models import Event, Fixture, Player, RatedMatch

pytestmark = pytest.mark.django_db


def load(**options) -> str:
    out = StringIO()
    call_command("load_demo", stdout=out, **options)
    return out.getvalue()


def test_loading_twice_keeps_the_same_rows_and_prints_links_to_the_given_server():
    load(password="first-pass")
    counts = (Event.objects.count(), Fixture.objects.count(), Player.objects.count())
    text = load(password="second-pass", base_url="http://10.0.0.5:8123/")
    assert (Event.objects.count(), Fixture.objects.count(), Player.objects.count()) == counts
    assert "http://10.0.0.5:8123/tables/" in text
    assert "http://10.0.0.5:8123/events/" in text
    assert "127.0.0.1:8000" not in text
    organizer = get_user_model().objects.get(username="organizer")
    assert organizer.check_password("second-pass") and not organizer.check_password("first-pass")


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
