"""Personas and a scene for the organizer tests.

olga owns the event and holds the organizer role; cora is her co-organizer (no role of her
own); pat plays in it with an account; otto organizes another event (and holds the role);
anonymous has no account. The event is a published 3-5-8 league with round 1 published and
round 2 a draft, an entry that never played (ivy) and one that withdrew before playing (jo).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import transaction
from rest_framework.test import APIClient

from league.models import Entry, Event, Player, Round
from league.services import events as event_services
from league.services import organizers as organizer_services
from league.services import rounds as round_services
from league.services.players import player_for_user
from tests.league.conftest import make_organizer

GAME = "three_five_eight"


def account(name: str, *, role: bool = False) -> Any:
    user = get_user_model().objects.create_user(name, password=f"{name}-password")
    player_for_user(user)
    return make_organizer(user) if role else user


@pytest.fixture
def olga(db) -> Any:
    return account("olga", role=True)


@pytest.fixture
def cora(db) -> Any:
    return account("cora")


@pytest.fixture
def pat(db) -> Any:
    return account("pat")


@pytest.fixture
def otto(db) -> Any:
    return account("otto", role=True)


def api(user: Any | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def make_event(owner: Any, name: str, *, publish: bool = True, **fields: Any) -> Event:
    fields = {"game": GAME, "format": "league", "rounds": 4, "deals_per_match": 1,
              "play_online": False, **fields}  # fmt: skip
    event = event_services.create_event(owner, name=name, **fields)
    if publish:
        event_services.publish_event(event, by=owner)
    event.refresh_from_db()
    return event


def enter(event: Event, names: list[str], by: Any) -> list[Player]:
    return [event_services.enter_player(event, by=by, name=n).player for n in names]


def seat(event: Event, tables: list[list[Player]], by: Any, *, publish: bool = True) -> Round:
    """The next round with exactly these tables (players in seat order)."""
    number = event.round_set.count() + 1
    with transaction.atomic():
        round_ = Round.objects.create(event=event, number=number)
        plan = SimpleNamespace(tables=[[p.pk for p in t] for t in tables], byes=[])
        round_services.store_plan(round_, plan, event)
    if publish:
        round_ = round_services.publish_round(round_, by=by)
    return round_


@pytest.fixture
def scene(olga, cora, pat, otto) -> SimpleNamespace:
    event = make_event(olga, "Spring cup")
    organizer_services.add_co_organizer(event, "cora", by=olga)
    pat_player = pat.player
    event_services.add_entry(event, pat_player, by=olga)
    dora, emil, fritz, gus, hal = enter(event, ["dora", "emil", "fritz", "gus", "hal"], olga)
    first = seat(event, [[pat_player, dora, emil], [fritz, gus, hal]], olga)
    draft = seat(event, [[hal, gus, fritz], [emil, dora, pat_player]], olga, publish=False)
    ivy, jo = enter(event, ["ivy", "jo"], olga)
    jo_entry = Entry.objects.get(event=event, player=jo)
    event_services.withdraw(jo_entry, by=olga)
    others = make_event(otto, "Otto's open")
    enter(others, ["quinn", "rosa", "sam"], otto)
    return SimpleNamespace(
        event=event,
        slug=event.slug,
        first=first,
        draft=draft,
        fixture=first.fixtures.order_by("number").first(),
        pat_entry=Entry.objects.get(event=event, player=pat_player),
        dora_entry=Entry.objects.get(event=event, player=dora),
        ivy_entry=Entry.objects.get(event=event, player=ivy),
        jo_entry=jo_entry,
        fritz=fritz,
        gus=gus,
        others=others,
        olga=olga,
        cora=cora,
        otto=otto,
    )


def database() -> dict[str, list]:
    """Every row of every league table (and who organizes what): a refused request must leave
    all of it as it was."""
    dump: dict[str, list] = {}
    for model in apps.get_app_config("league").get_models():
        dump[model.__name__] = list(model.objects.order_by("pk").values())
    through = Event.organizers.through
    dump["organizers"] = list(through.objects.order_by("pk").values())
    dump["users"] = list(get_user_model().objects.order_by("pk").values("pk", "username"))
    return dump


# The browser test's real server and Chromium (tests/browser/conftest.py).
from tests.browser.conftest import browser, screenshots, server  # noqa: E402, F401
