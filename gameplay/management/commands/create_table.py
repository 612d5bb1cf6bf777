"""``manage.py create_table``: a friendly table outside any event (table-protocol.md).

The operator's tables are rated unless `--unrated` (lobby-api.md, "Ratings")."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from gameplay.models import Seat, Table
from gameplay.services.create import SeatSpec, create_table
from games import VariantError, bots, game_names


class Command(BaseCommand):
    help = (
        "Create a table and print its id, URL and seat tokens as JSON. Players are looked up "
        "by name and created if missing; --bots K makes the last K seats built-in bots, "
        "played at --bot-level."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", required=True, choices=game_names())
        parser.add_argument("--variant", default=None, help="variant flags as a JSON object")
        parser.add_argument("--players", required=True, help="NAME,NAME,... in seat order")
        parser.add_argument("--bots", type=int, default=0, help="the last K players are bots")
        parser.add_argument(
            "--bot-level",
            default=bots.DEFAULT_LEVEL,
            help=f"the level of the bots (default {bots.DEFAULT_LEVEL}; docs/bots.md)",
        )
        parser.add_argument("--deals", type=int, default=1, help="match length N")
        parser.add_argument(
            "--seed",
            default=None,
            help="deal seed (a secret random one when omitted); every hand of a table dealt "
            "from a given seed is predictable to whoever knows it",
        )
        parser.add_argument(
            "--seconds-per-move", type=int, default=0, help="turn clock (0 = no clock)"
        )
        parser.add_argument(
            "--on-timeout", choices=Table.OnTimeout.values, default=Table.OnTimeout.DEFAULT_ACTION
        )
        parser.add_argument("--no-spectators", action="store_true")
        parser.add_argument(
            "--chat", action="store_true", help="the players and spectators may chat (docs/chat.md)"
        )
        parser.add_argument(
            "--unrated",
            action="store_true",
            help="do not rate the match (the operator's tables are rated by default, bots too)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        names = [n.strip() for n in options["players"].split(",")]
        if any(not n for n in names):
            raise CommandError("--players: empty name")
        if len(set(names)) != len(names):
            raise CommandError("--players: a name appears twice")
        n_bots = options["bots"]
        if not 0 <= n_bots <= len(names):
            raise CommandError(f"--bots must be from 0 to {len(names)}")
        level = options["bot_level"]
        levels = bots.levels(options["game"])
        if level not in levels:
            raise CommandError(
                f"--bot-level: {options['game']} has no {level!r} bot "
                f"(bot levels: {', '.join(levels)})"
            )
        variant = None
        if options["variant"] is not None:
            try:
                variant = json.loads(options["variant"])
            except ValueError as exc:
                raise CommandError(f"--variant is not JSON: {exc}") from None
            if not isinstance(variant, dict):
                raise CommandError("--variant must be a JSON object")
        seed: int | str | None = options["seed"]
        if isinstance(seed, str) and seed.lstrip("-").isdigit():
            seed = int(seed)
        people, robots = names[: len(names) - n_bots], names[len(names) - n_bots :]
        User = get_user_model()
        taken = sorted(User.objects.filter(username__in=robots).values_list("username", flat=True))
        if taken:
            raise CommandError(f"{', '.join(taken)}: already a person's name, cannot be a bot")
        with transaction.atomic():
            specs = []
            for name in people:
                user = User.objects.filter(username=name).first()
                if user is None:
                    user = User(username=name)
                    user.set_unusable_password()
                    user.save()
                specs.append(SeatSpec(name, user_id=user.pk))
            specs += [SeatSpec(name, bot=name, bot_level=level) for name in robots]
            try:
                table = create_table(
                    options["game"],
                    specs,
                    variant=variant,
                    n_deals=options["deals"],
                    seed=seed,
                    seconds_per_move=options["seconds_per_move"],
                    on_timeout=options["on_timeout"],
                    allow_spectators=not options["no_spectators"],
                    rated=not options["unrated"],
                    chat=options["chat"],
                )
            except (VariantError, ValueError) as exc:
                raise CommandError(str(exc)) from None
            tokens = dict(Seat.objects.filter(table=table).values_list("number", "token"))
            out = {
                "table": table.id,
                "url": table.get_absolute_url(),
                "seats": [
                    {"seat": n, "player": name, "token": tokens[n]} for n, name in enumerate(names)
                ],
            }
            # Printed before the commit runs the bots inline (eager Celery), so the caller
            # gets the table at once either way.
            self.stdout.write(json.dumps(out))
