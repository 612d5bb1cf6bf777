"""`manage.py load_demo`: idempotent demo data for `make run`.

Running it twice leaves the same rows. Each run sets a fresh random password on the demo
accounts and prints it, so a newcomer can log in without a fixed password living in the repo.
The demo league has two rounds played (records of random legal play), so standings, payouts and
player pages have something to show, and the organizer can generate round 3.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from gameplay import api as gameplay
from league.models import Event, Player
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.permissions import organizer_role
from league.services.players import player_for_user
from league.services.results import record_result

ORGANIZER = "organizer"
DEMO_PLAYERS = ["ana", "ben", "cleo", "dario", "emi", "fritz", "gina", "hugo", "ines"]
DEMO_EVENT = "demo-saichugen-league"
PLAYED_ROUNDS = 2


class Command(BaseCommand):
    help = "Create (or refresh) the demo organizer, players and league, and print the login."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--password", help="use this password instead of a random one")
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="where the server will listen, for the printed links (make run passes its own)",
        )

    @transaction.atomic
    def handle(
        self,
        *args: Any,
        password: str | None = None,
        base_url: str = "http://127.0.0.1:8000",
        **options: Any,
    ) -> None:
        password = password or secrets.token_urlsafe(9)
        User = get_user_model()
        organizer, _ = User.objects.get_or_create(
            username=ORGANIZER, defaults={"first_name": "Demo", "last_name": "Organizer"}
        )
        organizer.is_staff = True
        organizer.set_password(password)
        organizer.save()
        organizer.user_permissions.add(organizer_role())  # staff has it anyway; shown explicitly
        players = []
        for name in DEMO_PLAYERS:
            user, _ = User.objects.get_or_create(username=name)
            user.set_password(password)
            user.save()
            players.append(player_for_user(user))
        event = self.demo_league(organizer, players)
        demo = gameplay.open_demo_table()
        base = base_url.rstrip("/")
        self.stdout.write(
            self.style.SUCCESS(
                "Demo ready.\n"
                f"  Organizer login: {ORGANIZER} / {password}\n"
                f"  Player logins ({', '.join(DEMO_PLAYERS)}) use the same password.\n"
                f"  Demo league: {base}{event.get_absolute_url()}\n"
                "  Table against two bots (as ana): "
                f"{base}/tables/{demo['table']}/?token={demo['token']}\n"
                f"  Open {base}/"
            )
        )

    def demo_league(self, organizer: Any, players: list[Player]) -> Event:
        event = Event.objects.filter(slug=DEMO_EVENT).first()
        if event is None:
            event = event_services.create_event(
                organizer,
                slug=DEMO_EVENT,
                name="Demo Saichugen league",
                game="saichugen",
                kind=Event.Kind.LEAGUE,
                format="league",
                rounds=4,
                deals_per_match=3,
                seed=2026,
            )
            event_services.publish_event(event, by=organizer)
            for player in players:
                event_services.add_entry(event, player, by=organizer, checked_in=True)
        while event.round_set.filter(status="published").count() < PLAYED_ROUNDS:
            self.play_round(event, organizer)
        Event.objects.filter(pk=event.pk).update(play_online=True)
        return event

    def play_round(self, event: Event, organizer: Any) -> None:
        round_ = event.round_set.filter(status="draft").first()
        round_ = round_ or round_services.generate_round(event, by=organizer)
        round_services.publish_round(round_, by=organizer)
        for fixture in round_.fixtures.prefetch_related("seats__player"):
            names = [seat.player.name for seat in fixture.seats.all()]
            record = gameplay.random_record(
                event.game,
                players=names,
                variant=event.variant,
                n_deals=event.deals_per_match,
                seed=fixture.pk,
            )
            record_result(fixture, by=organizer, record=record)
