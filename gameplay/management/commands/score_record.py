"""``manage.py score_record FILE|-``: score a ``mediana.record/1`` game record (records.md)."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand

from games.core.errors import RecordError
from games.core.records import score_record_text


class Command(BaseCommand):
    help = "Replay a game record and print its scores as JSON (exit status 2 if it is illegal)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="the record's path, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            self._fail(f"record: cannot read {path}: {e}")
        try:
            result = score_record_text(text)
        except RecordError as e:
            self._fail(str(e))
        self.stdout.write(json.dumps(result))

    def _fail(self, line: str) -> None:
        # records.md: nothing on stdout, exactly one line on stderr, exit status 2.
        self.stderr.write(line.replace("\n", " "), style_func=lambda s: s)
        sys.exit(2)
