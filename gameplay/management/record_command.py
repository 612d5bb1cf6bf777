"""The shape of the commands that read one game record (``score_record``, ``bot_move``).

Why one place: records.md fixes how such a command fails — nothing on stdout, exactly one line
on stderr, exit status 2 — and both read the record from a path or from standard input.
"""

from __future__ import annotations

import sys
from typing import NoReturn

from django.core.management.base import BaseCommand


class RecordCommand(BaseCommand):
    """A command that reads a record and fails as records.md says."""

    def read_record(self, path: str) -> str:
        """The record's text from ``path`` (``-``: standard input); fails on an unreadable one."""
        try:
            if path == "-":
                return sys.stdin.read()
            with open(path, encoding="utf-8") as f:
                return f.read()
        except (OSError, UnicodeDecodeError) as e:
            self.fail(f"record: cannot read {path}: {e}")

    def fail(self, line: str) -> NoReturn:
        """Nothing on stdout, exactly one line on stderr, exit status 2."""
        self.stderr.write(line.replace("\n", " "), style_func=lambda s: s)
        sys.exit(2)
