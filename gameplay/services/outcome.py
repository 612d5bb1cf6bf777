"""A table's result when seats forfeited: who resigned, who ran out of time, who won.

The engine's `result()` has `score_record`'s shape (`records.md`) and knows nothing of forfeits.
A table adds to it (backward-compatible extra keys, `docs/tables.md`, "Forfeits and
resignations"):

- `forfeited`: every seat that forfeited, for whatever reason (as before; the ratings read it);
- `resigned`: those of them whose person resigned (`lobby.leave`), when any;
- `timed_out`: the seat whose clock ran out, when the clock ended the match.

A seat that forfeited never wins: it finishes below every seat that did not, as the ratings rank
it (`league.ratings.compute.finishing_ranks`). So a forfeiting seat is taken out of `winners`;
when that leaves nobody in a complete match (a bot played the resigned seat out to the top),
the seats that did not forfeit with the best total payout win (ties share), so `winners` is
never empty when `complete` is true, as `records.md` asks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def winners_without(result: dict[str, Any], forfeited: Iterable[int]) -> list[int]:
    """The match's winners with the forfeiting seats left out (see the module's docstring)."""
    out = set(forfeited)
    winners = [s for s in result.get("winners") or [] if s not in out]
    if winners or not result.get("complete"):
        return winners
    payouts = list((result.get("totals") or {}).get("payouts") or [])
    stayed = [s for s in range(len(payouts)) if s not in out]
    if not stayed:
        return []
    best = max(payouts[s] for s in stayed)
    return [s for s in stayed if payouts[s] == best]


def forfeit_result(
    result: dict[str, Any],
    forfeited: Iterable[int],
    resigned: Iterable[int] = (),
    timed_out: int | None = None,
) -> dict[str, Any]:
    """`result` (the engine's) as the table keeps it once `forfeited` seats forfeited:
    `resigned` of them by resigning, `timed_out` on the clock. A new dict; nothing forfeited:
    the result as it was."""
    forfeited = sorted(set(forfeited))
    if not forfeited:
        return result
    out = dict(result)
    out["forfeited"] = forfeited
    out["winners"] = winners_without(result, forfeited)
    gave_up = sorted(set(resigned) & set(forfeited))
    if gave_up:
        out["resigned"] = gave_up
    if timed_out is not None:
        out["timed_out"] = [timed_out]
    return out
