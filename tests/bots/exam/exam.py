"""The bots' exam: ask a level for its decision at every position and report the share it passes.

    .venv/bin/python -m tests.bots.exam.exam --level strong [--seconds 0.3 | --iterations N]
        [--games schieberamsch,...] [--verbose] [--json]

A position (`positions/<game>.json`, a list) is the start of a deal and the actions up to a
decision: ``dealer``, optional ``variant``, ``hands`` (per seat, a list of cards or one string
of cards separated by spaces), ``stock``, ``actions`` (records.md's actions), optional ``seat``
(default: the one seat to act), optional ``before`` (the match's earlier deals, complete, each
``hands``, ``stock``, ``actions``: for a decision that depends on them, a 3-5-8 exchange; ``dealer``
is then the first deal's), and either ``good`` (the decision passes when it matches one of
these) or ``bad`` (it passes when it matches none), with the ``reason`` a player would give and
the ``source`` it rests on. A spec matches an action when every key of the spec holds:

- a plain key equals the action's (lists compared as sets: a discard's order does not matter);
- ``card_in``: the action's card is one of these;
- ``cards_with_any``: the action's cards (``cards``, or an exchange's ``discard``) include one
  of these;
- ``cards_within``: the action's cards are all among these.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.ask import ask, position
from games.core.bots.search import Budget
from games.core.records import FORMAT

HERE = Path(__file__).parent / "positions"
SPECIAL = {"card_in", "cards_with_any", "cards_within"}


@dataclass(frozen=True)
class Question:
    """One exam position of a game."""

    game: str
    id: str
    record: dict[str, Any]
    seat: int | None
    good: list[dict[str, Any]] | None
    bad: list[dict[str, Any]] | None
    reason: str
    source: str

    def passes(self, action: dict[str, Any]) -> bool:
        """Whether `action` is a right decision here."""
        if self.good is not None:
            return any(matches(spec, action) for spec in self.good)
        return not any(matches(spec, action) for spec in self.bad or [])


def _cards(value: Any) -> list[str]:
    return value.split() if isinstance(value, str) else list(value)


def _chosen_cards(action: dict[str, Any]) -> set[str]:
    cards = action.get("cards", action.get("discard")) or []
    return set(cards)


def matches(spec: dict[str, Any], action: dict[str, Any]) -> bool:
    """Whether `action` fits `spec` (the module's docstring)."""
    for key, want in spec.items():
        if key == "card_in":
            if action.get("card") not in want:
                return False
        elif key == "cards_with_any":
            if not _chosen_cards(action) & set(want):
                return False
        elif key == "cards_within":
            if not _chosen_cards(action) <= set(want):
                return False
        elif isinstance(want, list):
            got = action.get(key)
            if not isinstance(got, list) or sorted(got) != sorted(want):
                return False
        elif action.get(key) != want:
            return False
    return True


def question(game: str, raw: dict[str, Any]) -> Question:
    """A position as written in the file, made a record."""
    record = {
        "format": FORMAT,
        "game": game,
        "dealer": raw.get("dealer", 0),
        "deals": [
            {
                "hands": [_cards(h) for h in deal["hands"]],
                "stock": _cards(deal["stock"]),
                "actions": deal.get("actions", []),
            }
            for deal in [*raw.get("before", []), raw]
        ],
    }
    if "variant" in raw:
        record["variant"] = raw["variant"]
    return Question(
        game,
        raw["id"],
        record,
        raw.get("seat"),
        raw.get("good"),
        raw.get("bad"),
        raw.get("reason", ""),
        raw.get("source", ""),
    )


def questions(game: str) -> list[Question]:
    """Every exam position of `game` (none when it has no file)."""
    path = HERE / f"{game}.json"
    if not path.exists():
        return []
    return [question(game, raw) for raw in json.loads(path.read_text(encoding="utf-8"))]


def games() -> list[str]:
    """The games that have an exam."""
    return sorted(p.stem for p in HERE.glob("*.json"))


@dataclass
class Answer:
    question: Question
    action: dict[str, Any]
    passed: bool
    seconds: float


def sit(q: Question, level: str, budget: Budget | None, seed: int | str = 0) -> Answer:
    """The level's answer to one question."""
    pos = position(q.record, q.seat)
    started = time.process_time()
    action = ask(pos, level, budget, seed=f"{q.id}/{seed}")
    return Answer(q, action, q.passes(action), time.process_time() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="strong")
    parser.add_argument("--games", default=",".join(games()))
    parser.add_argument("--seed", default="0")
    think = parser.add_mutually_exclusive_group()
    think.add_argument("--seconds", type=float)
    think.add_argument("--iterations", type=int)
    parser.add_argument("--verbose", action="store_true", help="list the questions failed")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    budget = None
    if args.seconds or args.iterations:
        budget = Budget(
            seconds=None if args.iterations else args.seconds, iterations=args.iterations
        )
    report = {}
    for game in args.games.split(","):
        answers = [sit(q, args.level, budget, args.seed) for q in questions(game)]
        passed = sum(a.passed for a in answers)
        report[game] = {
            "questions": len(answers),
            "passed": passed,
            "share": round(passed / len(answers), 3) if answers else None,
            "mean_seconds": round(statistics.mean(a.seconds for a in answers), 3)
            if answers
            else None,
            "failed": [{"id": a.question.id, "action": a.action} for a in answers if not a.passed],
        }
        if not args.json:
            line = f"{game:18} {args.level:8} {passed:3}/{len(answers):3}"
            if answers:
                mean = report[game]["mean_seconds"]
                line += f"  {passed / len(answers):6.1%}  {mean:.3f} s a question"
            print(line)
            if args.verbose:
                for a in answers:
                    if not a.passed:
                        what = json.dumps(a.action)
                        print(f"    failed {a.question.id}: {what} — {a.question.reason}")
    if args.json:
        json.dump(report, sys.stdout, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
