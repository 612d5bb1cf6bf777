"""``manage.py export_record --table ID``: print a table's game record (records.md)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from gameplay.models import Table
from gameplay.services.errors import TableError
from gameplay.services.matches import table_record


class Command(BaseCommand):
    help = "Print the mediana.record/1 game record of a table (finished or not) as JSON."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--table", required=True, help="the table id")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            record = table_record(options["table"])
        except Table.DoesNotExist:
            raise CommandError(f"no table {options['table']!r}") from None
        except TableError as exc:  # a lobby table still waiting for players: nothing dealt
            raise CommandError(f"table {options['table']!r}: {exc.message}") from None
        self.stdout.write(json.dumps(record))
