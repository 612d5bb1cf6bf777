"""`manage.py load_demo`: idempotent demo data for `make run`.

Running it twice leaves the same rows. Each run sets a fresh random password on the demo
accounts and prints it, so a newcomer can log in without a fixed password living in the repo.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

ORGANIZER = "organizer"
DEMO_PLAYERS = ["ana", "ben", "cleo", "dario", "emi", "fritz", "gina", "hugo", "ines"]


class Command(BaseCommand):
    help = "Create (or refresh) the demo organizer and players, and print the login."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--password", help="use this password instead of a random one")

    @transaction.atomic
    def handle(self, *args: Any, password: str | None = None, **options: Any) -> None:
        password = password or secrets.token_urlsafe(9)
        User = get_user_model()
        organizer, _ = User.objects.get_or_create(
            username=ORGANIZER, defaults={"first_name": "Demo", "last_name": "Organizer"}
        )
        organizer.is_staff = True
        organizer.set_password(password)
        organizer.save()
        for name in DEMO_PLAYERS:
            player, _ = User.objects.get_or_create(username=name)
            player.set_password(password)
            player.save()
        self.stdout.write(
            self.style.SUCCESS(
                "Demo ready.\n"
                f"  Organizer login: {ORGANIZER} / {password}\n"
                f"  Player logins ({', '.join(DEMO_PLAYERS)}) use the same password.\n"
                "  Open http://127.0.0.1:8000/"
            )
        )
