"""What the fair-play judging of a finished table costs (docs/performance.md, "Fair play").

    .venv/bin/python bench/judging.py [--deals 5] [--rollouts 2] [--json FILE]

Per game: D one-deal matches played by the basic level (the reference, timed in the same run),
then judged as the site judges a finished table (`games.transfers.record_transfers`, every
seat, `--rollouts` playouts a candidate). Prints CPU seconds a deal for both and their ratio,
and the judged decisions a deal.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import games.bots  # noqa: F401  (registers the levels)
from games import registry
from games.core.records import export_record
from games.evaluate import chooser, play_table
from games.transfers import record_transfers


def measure(game: str, deals: int, rollouts: int) -> dict[str, Any]:
    basic = chooser(game, "basic")
    seats = registry.get_game(game).seats
    records, played, judged, decisions = [], 0.0, 0.0, 0
    for i in range(deals):
        start = time.process_time()
        records.append(export_record(play_table(game, f"judging/{i}", [basic] * seats)))
        played += time.process_time() - start
    for record in records:
        start = time.process_time()
        decisions += len(record_transfers(record, rollouts=rollouts))
        judged += time.process_time() - start
    return {
        "game": game,
        "play_s_per_deal": round(played / deals, 3),
        "judge_s_per_deal": round(judged / deals, 3),
        "ratio": round(judged / played, 1) if played else None,
        "decisions_per_deal": round(decisions / deals, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--rollouts", type=int, default=2)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rows = [measure(g, args.deals, args.rollouts) for g in registry.game_names()]
    text = json.dumps(rows, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")


if __name__ == "__main__":
    main()
