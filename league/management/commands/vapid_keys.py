"""`manage.py vapid_keys`: print a new VAPID key pair for Web Push, to set as VAPID_PRIVATE_KEY
and VAPID_PUBLIC_KEY in a deployment's environment (docs/notices.md). Nothing is stored."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from config.vapid import generate_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair (environment lines) for Web Push."

    def handle(self, *args: Any, **options: Any) -> None:
        private, public = generate_pair()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
