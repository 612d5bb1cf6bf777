"""`manage.py grant_organizer NAME [--revoke]`: give an account the organizer role, or take it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.services.permissions import can_organize, organizer_role


class Command(BaseCommand):
    help = (
        "Grant an account the organizer role (the permission league.organize_events): it may "
        "then create events and enter existing players, and its events count for the ratings. "
        "--revoke takes the role away (staff and superusers keep it anyway)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--revoke", action="store_true", help="take the role away")

    def handle(self, *args: Any, username: str, revoke: bool = False, **options: Any) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"there is no account {username!r}")
        if revoke:
            user.user_permissions.remove(organizer_role())
        else:
            user.user_permissions.add(organizer_role())
        user = get_user_model().objects.get(pk=user.pk)  # has_perm caches: read it afresh
        state = "holds" if can_organize(user) else "does not hold"
        self.stdout.write(f"{username} {state} the organizer role")
