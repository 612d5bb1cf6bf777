"""Print a whole event's table schedule as JSON; a thin shell over league.scheduling."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.scheduling.errors import SchedulingError
from league.scheduling.preview import preview_event, previewable_formats


class Command(BaseCommand):
    help = (
        "Print the schedule of an event with players numbered from 0 as JSON "
        '{"rounds": [[[p, p, p], ...], ...]}, each table in seat order (first entry deals '
        "first; null is a bot seat), and a quality summary on stderr. Deterministic for a "
        "seed. Every registered format with a preview can be shown; Swiss rounds depend on "
        "results, so for --format swiss the results are simulated from the seed (hidden player "
        "strengths plus noise)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="number of players")
        parser.add_argument("--table-size", type=int, required=True, help="3 or 4")
        parser.add_argument("--rounds", type=int, required=True, help="rounds to schedule")
        parser.add_argument("--format", choices=previewable_formats(), default="league")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--leftover",
            choices=["bye", "bot"],
            default="bye",
            help="players beyond full tables sit out (bye) or play with bot seats (bot)",
        )

    def handle(self, *args, **options) -> None:
        try:
            preview = preview_event(
                options["players"],
                options["table_size"],
                options["rounds"],
                options["format"],
                options["seed"],
                options["leftover"],
            )
        except SchedulingError as error:
            raise CommandError(str(error)) from error
        rounds = [[list(table) for table in plan.tables] for plan in preview.rounds]
        self.stdout.write(json.dumps({"rounds": rounds}))
        q = preview.quality
        err = self.stderr if options.get("stderr") else sys.stderr
        summary = (
            f"max pair meetings: {q.max_pair_meetings}\n"
            f"repeated pairs: {q.repeated_pairs}\n"
            f"seat imbalance: {q.seat_imbalance}\n"
            f"byes: {q.total_byes} in total, spread {q.bye_spread}"
        )
        for i, plan in enumerate(preview.rounds, start=1):
            if plan.byes:
                summary += f"\nround {i} byes: {', '.join(map(str, plan.byes))}"
        err.write(summary + "\n")
