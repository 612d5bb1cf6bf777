"""An event played by the day: its pace makes its fixtures' tables turn-based; a bad pace is
refused; the event form takes a pace of days beyond the seconds' bound."""

from __future__ import annotations

import pytest

from gameplay.models import Table
from league.errors import LeagueError
from league.forms.events import EventForm
from league.models import Fixture
from league.services import events as event_services
from tests.schedule.conftest import alice, make_event, players, publish  # noqa: F401


@pytest.mark.django_db(transaction=True)
def test_an_event_by_the_day_opens_turn_based_tables(make_event, publish, players):  # noqa: F811
    event = make_event(pace="3-days")
    assert (event.pace, event.seconds_per_move) == ("3-days", 3 * 86400)
    publish(event)
    refs = list(Fixture.objects.filter(round__event=event).values_list("table_ref", flat=True))
    assert refs and all(refs)
    table = Table.objects.get(pk=refs[0])
    assert (table.pace, table.seconds_per_move, table.origin) == ("3-days", 3 * 86400, "event")
    # Its people's turns are counted as at any turn-based table.
    assert table.seats.filter(due_since__isnull=False).exists()


def test_a_bad_pace_is_refused(alice):  # noqa: F811
    with pytest.raises(LeagueError) as refused:
        event_services.create_event(alice, name="X", game="saichugen", pace="forever")
    assert "the pace is one of" in str(refused.value)


def test_the_event_form_takes_a_pace_of_days(make_event):  # noqa: F811
    event = make_event(pace="2-days")
    form = EventForm(instance=event, game="saichugen")
    assert "7-days" in [v for v, _ in form.fields["pace"].choices]
    assert dict(form.fields["pace"].choices)[""]  # blank: the seconds per move


def _posted(form: EventForm) -> dict:
    """What the browser posts back for an unchanged form."""
    data: dict = {}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if value is None or value is False:
            continue
        if value is True:
            data[name] = "on"
        elif isinstance(value, list | tuple):
            data[name] = [str(v) for v in value]
        else:
            data[name] = field.prepare_value(value)
    return data


def test_an_event_by_the_day_saves_through_its_form(make_event):  # noqa: F811
    event = make_event(pace="2-days")
    data = _posted(EventForm(instance=event, game="saichugen"))
    form = EventForm(data, instance=event, game="saichugen")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["seconds_per_move"] == 2 * 86400
    data["pace"] = "forever"
    assert not EventForm(data, instance=event, game="saichugen").is_valid()


def test_the_form_of_an_event_by_the_day_leaves_the_seconds_to_the_pace(make_event):  # noqa: F811
    event = make_event(pace="2-days")
    form = EventForm(instance=event, game="saichugen")
    assert form.get_initial_for_field(form.fields["seconds_per_move"], "seconds_per_move") is None
    data = _posted(form)
    data["pace"] = ""  # back to a clock of seconds: they must be given
    refused = EventForm(data, instance=event, game="saichugen")
    assert not refused.is_valid() and "seconds_per_move" in refused.errors
    data["seconds_per_move"] = "45"
    form = EventForm(data, instance=event, game="saichugen")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["seconds_per_move"] == 45


def test_the_event_page_states_its_clock(client, make_event):  # noqa: F811
    event = make_event(pace="2-days")
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert "Clock: 2 days a move" in page


@pytest.mark.django_db(transaction=True)
def test_a_round_by_the_day_without_a_deadline_warns_its_organizer(
    client,
    alice,  # noqa: F811
    make_event,  # noqa: F811
    publish,  # noqa: F811
):
    from datetime import timedelta

    from django.utils import timezone

    event = make_event(pace="2-days")
    first = publish(event)
    client.force_login(alice)
    url = f"/events/{event.slug}/rounds/{first.number}/"
    assert 'id="no-deadline-by-the-day"' in client.get(url).content.decode()
    client.logout()
    assert 'id="no-deadline-by-the-day"' not in client.get(url).content.decode()
    second = publish(event, deadline=timezone.now() + timedelta(days=30))
    client.force_login(alice)
    page = client.get(f"/events/{event.slug}/rounds/{second.number}/").content.decode()
    assert 'id="no-deadline-by-the-day"' not in page
