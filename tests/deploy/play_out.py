"""Play every table of an upgraded database to its end and check it; test_upgrade.py's child.

    DATABASE_URL=postgres://.../upgraded DJANGO_SETTINGS_MODULE=config.settings \\
        .venv/bin/python -m tests.deploy.play_out REPORT.json

Runs the current code against the database: every table still `playing` is played to its end
through gameplay's services (random legal actions of the people's seats with `play_action`, the
bots' moves with `bot_moves.play_bot`; without REDIS_URL Celery is eager, so the bots due after
a person's move also move inline), then every table is checked (bench/chaos.py `check_tables`:
the log replays to the stored state, result and record; seqs without a hole), its record exports
(`manage.py export_record`, in this process) and replays to its result, and a league fixture's
finished table became the fixture's result. Writes what it found as JSON to REPORT.json.
"""

from __future__ import annotations

import io
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

MAX_ACTIONS = 5000  # a table's moves to its end; far more than any match here


def setup() -> None:
    import django

    django.setup()
    from django.conf import settings

    # The end of a match, its analysis and its fair-play judging inline, as the test settings
    # have them, so that all is done when the last move returns and nothing outlives the process.
    settings.LEAGUE_EMBEDDED_BESIDE = False
    settings.GAMEPLAY_ANALYSIS_BESIDE = False
    settings.GAMEPLAY_ANALYSIS_ITERATIONS = 4
    settings.FAIR_PLAY_JUDGE_BESIDE = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def play_to_the_end(table_id: str, rng: random.Random) -> dict[str, int]:
    """Move whoever is to act until the match is over; the actions logged meanwhile, by kind
    (`player`, `bot`: the bots due after a person's move move inline, eager Celery)."""
    from gameplay.models import Action, Seat, Table
    from gameplay.services.bot_moves import play_bot
    from gameplay.services.matches import load_match
    from gameplay.services.play import play_action
    from games.core.bots.common import random_action

    bots = {s.number: bool(s.bot) for s in Seat.objects.filter(table_id=table_id)}
    start = Table.objects.get(pk=table_id).seq
    for _ in range(MAX_ACTIONS):
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            kinds = Action.objects.filter(table_id=table_id, seq__gt=start)
            return dict(Counter(kinds.values_list("kind", flat=True)))
        match = load_match(table)
        seat = match.to_act()[0]
        if bots[seat]:
            if not play_bot(table_id, table.seq):
                raise AssertionError(f"table {table_id}: the bot of seat {seat} did not move")
        else:
            play_action(table_id, seat, random_action(match.legal(seat), rng), table.seq)
    raise AssertionError(f"table {table_id} did not end in {MAX_ACTIONS} actions")


def exported(table: Any) -> bool:
    """`manage.py export_record` prints the table's record, and it replays to its result."""
    from django.core.management import call_command

    from gameplay.services.matches import table_record
    from games.core import records

    out = io.StringIO()
    call_command("export_record", table=table.id, stdout=out)
    record = json.loads(out.getvalue())
    replayed = records.replay_record(record, n_deals=table.n_deals)
    return record == table_record(table.id) and replayed.result() == table.result


def fixture_results() -> dict[str, str | None]:
    """Each league fixture's online table: the source of the fixture's current result."""
    from league.models import Fixture

    out = {}
    for fixture in Fixture.objects.exclude(table_ref=""):
        result = fixture.results.filter(current=True).first()
        out[fixture.table_ref] = result.source if result else None
    return out


def main(report_path: str) -> int:
    setup()
    from bench.chaos import check_tables
    from gameplay.models import Table

    rng = random.Random(2)
    tables = []
    for table in Table.objects.order_by("created_at", "id"):
        row = {
            "id": table.id,
            "game": table.game,
            "seats": table.seats.count(),
            "clock": table.seconds_per_move,
            "status_before": table.status,
            "seq_before": table.seq,
        }
        if table.status == Table.Status.PLAYING:
            row["moves"] = play_to_the_end(table.id, rng)
        table.refresh_from_db()
        row |= {"status": table.status, "seq": table.seq, "exported": exported(table)}
        tables.append(row)
    checked = check_tables([{"id": t["id"]} for t in tables])
    report = {
        "tables": tables,
        "finished": checked["finished"],
        "replay_mismatch": checked["replay_mismatch"],
        "log_holes": checked["log_holes"],
        "fixture_results": fixture_results(),
    }
    Path(report_path).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
