"""`load_demo` (what `make run` loads): idempotent, and its links point where the server runs."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from league.models import Event, Fixture, Player

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
