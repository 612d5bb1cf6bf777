"""``manage.py score_record FILE|-``: score a ``mediana.record/1`` game record (records.md)."""

from __future__ import annotations

import json
from typing import Any

from gameplay.management.record_command import RecordCommand
from games.core.errors import RecordError
from games.core.records import score_record_text


class Command(RecordCommand):
    help = "Replay a game record and print its scores as JSON (exit status 2 if it is illegal)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="the record's path, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        text = self.read_record(options["file"])
        try:
            result = score_record_text(text)
        except RecordError as e:
            self.fail(str(e))
        self.stdout.write(json.dumps(result))
