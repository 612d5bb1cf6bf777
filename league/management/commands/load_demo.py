"""`manage.py load_demo`: idempotent demo data for `make run`.

Running it twice leaves the same rows. Each run sets a fresh random password on the demo
accounts and prints it, so a newcomer can log in without a fixed password living in the repo.
The demo league has two rounds played (records of random legal play), so standings, payouts and
player pages have something to show, and the organizer can generate round 3. The demo duplicate
event is finished: two rounds of three tables, each round one section whose tables were dealt the
same cards (its secret seed) and played differently, so it has travellers and duplicate standings.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from gameplay import api as gameplay
from games import catalogue
from league.models import Event, Player, Section
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.permissions import organizer_role
from league.services.players import player_for_user
from league.services.results import record_result

ORGANIZER = "organizer"
DEMO_PLAYERS = ["ana", "ben", "cleo", "dario", "emi", "fritz", "gina", "hugo", "ines"]
DEMO_EVENT = "demo-saichugen-league"
PLAYED_ROUNDS = 2
DUPLICATE_EVENT = "demo-saichugen-duplicate"
DUPLICATE_ROUNDS = 2


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
        duplicate = self.demo_duplicate(organizer, players)
        demo = gameplay.open_demo_table()
        base = base_url.rstrip("/")
        self.stdout.write(
            self.style.SUCCESS(
                "Demo ready.\n"
                f"  Organizer login: {ORGANIZER} / {password}\n"
                f"  Player logins ({', '.join(DEMO_PLAYERS)}) use the same password.\n"
                f"  Demo league: {base}{event.get_absolute_url()}\n"
                f"  Demo duplicate event (finished): {base}{duplicate.get_absolute_url()}\n"
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
                # Its played rounds are entered as records: no online tables left behind. Its
                # next round, published by the organizer, opens them (below).
                play_online=False,
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
            record = catalogue.random_record(
                event.game,
                players=names,
                variant=event.variant,
                n_deals=event.deals_per_match,
                seed=fixture.pk,
            )
            record_result(fixture, by=organizer, record=record)

    def demo_duplicate(self, organizer: Any, players: list[Player]) -> Event:
        """The finished duplicate event: its rounds played over the table (no online tables
        left waiting), every table of a round dealt its section's deals, then closed."""
        event = Event.objects.filter(slug=DUPLICATE_EVENT).first()
        if event is None:
            event = event_services.create_event(
                organizer,
                slug=DUPLICATE_EVENT,
                name="Demo Saichugen duplicate",
                game="saichugen",
                kind=Event.Kind.LEAGUE,
                format="league",
                rounds=DUPLICATE_ROUNDS,
                deals_per_match=2,
                scoring=Event.Scoring.DUPLICATE,
                play_online=False,
                seed=2027,
            )
            event_services.publish_event(event, by=organizer)
            for player in players:
                event_services.add_entry(event, player, by=organizer, checked_in=True)
        while event.round_set.filter(status="published").count() < DUPLICATE_ROUNDS:
            self.play_duplicate_round(event, organizer)
        event_services.close_event(event, by=organizer)  # closing twice changes nothing
        event.refresh_from_db()
        return event

    def play_duplicate_round(self, event: Event, organizer: Any) -> None:
        """Publish the next round (its one section draws its secret seed) and enter each
        table's record: dealt from the section's seed, as its online table would be, and
        played with random legal moves of the table's own. The last record completes the
        section."""
        round_ = event.round_set.filter(status="draft").first()
        round_ = round_ or round_services.generate_round(event, by=organizer)
        round_services.publish_round(round_, by=organizer)
        seeds = dict(Section.objects.filter(round=round_).values_list("pk", "seed"))
        for fixture in round_.fixtures.order_by("number").prefetch_related("seats__player"):
            names = [seat.player.name for seat in fixture.seats.all()]
            record = catalogue.random_record(
                event.game,
                players=names,
                variant=event.variant,
                n_deals=event.deals_per_match,
                seed=fixture.pk,
                deal_seed=seeds[fixture.section_id],
            )
            record_result(fixture, by=organizer, record=record)
