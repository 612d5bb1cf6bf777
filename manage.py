#!/usr/bin/env python
"""Django's command-line utility for Mediana."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if sys.argv[1:2] == ["score_record"]:
        # records.md: `python manage.py score_record FILE` works as it is, wherever it runs.
        # The command is pure (no database, nothing signed), so it needs no deployment's key.
        os.environ.setdefault("SECRET_KEY", "score-record-signs-nothing")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
