"""The summary's arithmetic as steps: a part that multiplies or divides is shown as its operation
and the figure it leads to ("x 4 -> 304", "/ 10 -> 30"), never as points added ("+ 228").

For many seeded deals of every game, the steps made from the parts — an added part's `value`,
an `op` applied to the running figure — end at the deal's score and payout of every seat, both
in Python (the rule the client follows, against the engines' summaries) and in the client's own
code (`steps` of static/js/summary.js, run by Node over the same summaries).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from games import game_names, start_match
from games.core.records import score_record
from tests.engines.helpers import random_variant
from tests.engines.test_deal_summary import play_leaning_to_pass

ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(30)


def summaries(game: str) -> list[dict]:
    """The summaries of every finished deal of two-deal matches, one a seed, checked against
    the independent scorer."""
    found = []
    for seed in SEEDS:
        rng = random.Random(seed)
        m = start_match(game, variant=random_variant(game, rng), n_deals=2, seed=seed)
        play_leaning_to_pass(m, rng, rng.random())
        scored = score_record(m.export())["deals"]
        for k in range(len(m.results)):
            summary = m.deal_summary(k)
            assert summary["scores"] == scored[k]["scores"]
            assert summary["payouts"] == scored[k]["payouts"]
            found.append(summary)
    return found


def steps(parts: list[dict]) -> list[int]:
    """The running figure after each part, from the `op` alone where a part has one (÷ drops
    the fraction towards zero): what the client shows after "→"."""
    running, after = 0, []
    for p in parts:
        op = p.get("op")
        if op and "times" in op:
            running *= op["times"]
        elif op and "divide" in op:
            q = abs(running) // op["divide"]
            running = q if running >= 0 else -q
        else:
            running += p["value"]
        after.append(running)
    return after


def figures(summary: dict) -> list[tuple[str, list[dict], int]]:
    """Every seat's score and payout: (which, its parts, the deal's figure)."""
    return [
        (key, seat[key]["parts"], summary[f"{key}s"][seat["seat"]])
        for seat in summary["seats"]
        for key in ("score", "payout")
    ]


@pytest.fixture(scope="module")
def all_summaries() -> dict[str, list[dict]]:
    return {game: summaries(game) for game in game_names()}


@pytest.mark.parametrize("game", game_names())
def test_the_steps_reproduce_every_deals_score_and_payout(game, all_summaries):
    ops = 0
    for summary in all_summaries[game]:
        for key, parts, figure in figures(summary):
            after = steps(parts)
            assert after[-1] == figure, (summary["deal"], key, parts)
            ops += sum(1 for p in parts if p.get("op"))
    if game in ("schieberamsch", "mediatore"):  # the games whose scores multiply or divide
        assert ops, f"no {game} deal multiplied or divided: the seeds test nothing"


def test_schieberamsch_doubles_and_divides_as_steps(all_summaries):
    """The Ramsch steps: card points, x 2 a push, x 2 a Jungfrau, / 10 (the fraction dropped)."""
    seen = set()
    for summary in all_summaries["schieberamsch"]:
        for seat in summary["seats"]:
            parts = seat["score"]["parts"]
            for p, after in zip(parts, steps(parts), strict=True):
                if p["code"] in ("pushes", "jungfrau", "kontra", "re", "grand_won", "divisor"):
                    assert p.get("op"), p
                    seen.add(p["code"])
                    if "times" in p["op"]:
                        assert after == (after - p["value"]) * p["op"]["times"]
    assert {"pushes", "divisor"} <= seen


NODE_SCRIPT = r"""
const fs = require("fs");
const noop = () => {};
globalThis.window = {
  location: { search: "" },
  Mediana: {
    h: noop, fill: noop, cfg: {}, gettext: (s) => s, fmt: (s) => s, onRender: noop,
    hooks: () => ({}),
  },
};
eval(fs.readFileSync(process.argv[2], "utf8"));
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const out = input.map((parts) => window.medianaSummary.steps(parts).map((s) => s.after));
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js to run the client's code")
def test_the_clients_steps_are_the_same_for_every_deal(all_summaries, tmp_path):
    """static/js/summary.js's own `steps` over the same parts: the same figures, ending at the
    deal's score and payout."""
    cases = [
        (parts, figure)
        for game in all_summaries
        for s in all_summaries[game]
        for _, parts, figure in figures(s)
    ]
    script = tmp_path / "steps.js"
    script.write_text(NODE_SCRIPT, encoding="utf-8")
    ran = subprocess.run(
        ["node", str(script), str(ROOT / "static" / "js" / "summary.js")],
        input=json.dumps([parts for parts, _ in cases]),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    shown = json.loads(ran.stdout)
    assert len(shown) == len(cases)
    for (parts, figure), after in zip(cases, shown, strict=True):
        assert after == steps(parts)
        assert after[-1] == figure
