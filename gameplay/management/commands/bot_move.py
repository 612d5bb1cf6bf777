"""``manage.py bot_move --level L --record FILE [--seat S] [--seconds X | --iterations N]``:
the action a bot level chooses at the decision where a game record stops (docs/bots.md)."""

from __future__ import annotations

import json
from typing import Any

from gameplay.management.record_command import RecordCommand
from games.ask import NotADecision, ask, position
from games.bots import levels
from games.core.bots.search import Budget
from games.core.errors import RecordError


class Command(RecordCommand):
    help = (
        "Print, as JSON, the action a bot level chooses at the decision where a game record "
        "stops (exit status 2 with one line on stderr if it is not at that seat's decision)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--level", required=True, help="the bot level (random, basic, strong…)")
        parser.add_argument("--record", required=True, help="the record's path, or - for stdin")
        parser.add_argument("--seat", type=int, help="the seat to act (default: the one to act)")
        parser.add_argument("--seed", default="0", help="the bot's random seed (default 0)")
        think = parser.add_mutually_exclusive_group()
        think.add_argument("--seconds", type=float, help="CPU seconds a searching level thinks")
        think.add_argument("--iterations", type=int, help="worlds a searching level samples")

    def handle(self, *args: Any, **options: Any) -> None:
        text = self.read_record(options["record"])
        try:
            record = json.loads(text)
        except ValueError as e:
            self.fail(f"record: not JSON: {e}")
        try:
            budget = _budget(options["seconds"], options["iterations"])
            pos = position(record, options["seat"])
            if options["level"] not in levels(pos.game):
                known = ", ".join(levels(pos.game))
                raise NotADecision(
                    f"no bot level {options['level']!r} for {pos.game} (levels: {known})"
                )
            action = ask(pos, options["level"], budget, options["seed"])
        except (RecordError, NotADecision, ValueError) as e:
            self.fail(str(e))
        self.stdout.write(json.dumps({"seat": pos.seat, **action}))


def _budget(seconds: float | None, iterations: int | None) -> Budget | None:
    """The budget asked for; None (the level's own default) when neither was given."""
    if seconds is None and iterations is None:
        return None
    return Budget(seconds=None if iterations else seconds, iterations=iterations)
