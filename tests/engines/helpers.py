"""Shared helpers for the engine tests: random legal play through the validated path."""

from __future__ import annotations

import random
from typing import Any

from games import get_game
from games.core.base import Match


def concrete(template: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Turn a legal action (possibly a ``choose``/``from`` template) into one sendable action."""
    action = dict(template)
    if "choose" in action:
        action["cards"] = rng.sample(action.pop("from"), action.pop("choose"))
    elif action.get("act") == "exchange":  # Mediatore: discard 4 and give 1, all distinct
        d, g = template["discard"], template.get("give")
        action["discard"] = rng.sample(d["from"], d["choose"])
        if g:
            rest = [c for c in g["from"] if c not in action["discard"]]
            action["give"] = rng.choice(rest)
    return action


def random_action(m: Match, rng: random.Random) -> tuple[int, dict[str, Any]]:
    seat = rng.choice(m.to_act())
    return seat, concrete(rng.choice(m.legal(seat)), rng)


def play_out(m: Match, rng: random.Random, limit: int = 10_000) -> Match:
    """Play random legal actions through ``apply`` until the match is over."""
    for _ in range(limit):
        if m.finished:
            return m
        seat, action = random_action(m, rng)
        m.apply(seat, action)
    raise AssertionError("the match did not end")


def random_variant(game: str, rng: random.Random, seats: int | None = None) -> dict[str, Any]:
    """A random valid variant of the game at a table of ``seats`` (retried until the cross-flag
    checks accept it)."""
    spec = get_game(game)
    engine = spec.engine_for(seats)
    for _ in range(100):
        variant = {}
        for f in spec.flags:
            if f.kind == "bool":
                variant[f.name] = rng.random() < 0.5
            elif f.kind == "int":
                variant[f.name] = rng.randint(f.min, f.max)
            else:
                variant[f.name] = rng.choice(f.choices)
        try:
            engine.resolve_variant(variant)
        except Exception:
            continue
        return variant
    raise AssertionError("no valid variant found")


def card_codes(value: Any, codes: set[str], skip: tuple[str, ...] = ("last_deal",)) -> set[str]:
    """Every string in a JSON value (dict values, list items) that is a card code of the deck."""
    found: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if v in codes:
                found.add(v)
        elif isinstance(v, dict):
            stack.extend(x for k, x in v.items() if k not in skip)
        elif isinstance(v, list | tuple):
            stack.extend(v)
    return found
