"""The seq race, runnable in a test process or on its own against any database:

    DATABASE_URL=sqlite:////tmp/x.sqlite3 [RACE_MATCH_CACHE=0] python -m tests.gameplay.race

Two threads (each with its own database connection) act for two Saichugen seats on the same
seq at the same moment, round after round; prints one JSON summary line.
"""

from __future__ import annotations

import threading
from typing import Any

from django.db import connections


def race(calls: list[Any]) -> list[object]:
    """Run the calls at the same moment in threads; return what each returned or raised."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i: int, call: Any) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def seq_race(rounds: int = 12) -> dict[str, Any]:
    """Race `rounds` times; count how the pairs ended and check the log against the seq."""
    from django.contrib.auth import get_user_model

    from gameplay.models import Action
    from gameplay.services import create, play
    from gameplay.services.create import SeatSpec
    from gameplay.services.errors import TableError
    from tests.gameplay.conftest import current, some_legal

    User = get_user_model()
    seats = []
    for name in ("race-a", "race-b", "race-c"):
        user, _ = User.objects.get_or_create(username=name)
        seats.append(SeatSpec(name, user_id=user.pk))
    table = create.create_table("saichugen", seats, seed=1)
    outcomes = []
    for _ in range(rounds):
        table, match = current(table)
        seq = table.seq
        a, b = match.to_act()[:2]
        results = race(
            [
                lambda a=a, t=table, m=match, q=seq: play.play_action(t.id, a, some_legal(m, a), q),
                lambda b=b, t=table, m=match, q=seq: play.play_action(t.id, b, some_legal(m, b), q),
            ]
        )
        outcomes.append(
            sorted(
                "applied"
                if not isinstance(r, Exception) and r.applied
                else r.code
                if isinstance(r, TableError)
                else repr(r)
                for r in results
            )
        )
        while True:  # finish the trick: the next round starts with three seats to act
            table, match = current(table)
            if len(match.to_act()) == 3:
                break
            seat = match.to_act()[0]
            play.play_action(table.id, seat, some_legal(match, seat), table.seq)
    table.refresh_from_db()
    seqs = list(Action.objects.filter(table=table).order_by("seq").values_list("seq", flat=True))
    return {"outcomes": outcomes, "seq": table.seq, "log": seqs}


if __name__ == "__main__":
    import json
    import os

    import django
    from django.conf import settings

    django.setup()
    # The parent test runs with the match cache and without it (RACE_MATCH_CACHE=0).
    settings.GAMEPLAY_MATCH_CACHE = os.environ.get("RACE_MATCH_CACHE", "1") != "0"
    print(json.dumps(seq_race()))
