"""Ask a bot for its decision at a position given as a game record (`manage.py bot_move`, the
bots' exam, game analysis): the record is replayed to where it stops, and the seat to act is
shown exactly what a bot at a table is shown — its view, its legal list and the finished deals."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.bots import choose_action, get_bot  # importing games.bots registers every level
from games.core.base import Match
from games.core.bots.search import Budget
from games.core.errors import RecordError
from games.core.records import replay_record


class NotADecision(ValueError):
    """The record does not stop at a decision of the seat asked about."""


@dataclass(frozen=True)
class Position:
    """A seat's decision: what its bot would be given at a table."""

    game: str
    seat: int
    view: dict[str, Any]
    legal: list[Any]
    past: list[dict[str, Any]]


def past_deals(match: Match) -> list[dict[str, Any]]:
    """What every seat saw at each finished deal's end: its cards and actions (a searching
    bot's `past`)."""
    return [
        {"hands": d["hands"], "stock": d["stock"], "actions": d["actions"]}
        for d in match.export()["deals"][: match.deal_no]
    ]


def position(record: Any, seat: int | None = None, *, n_deals: int | None = None) -> Position:
    """The decision at which `record` stops, of `seat` (default: the one seat to act), in a
    match of `n_deals` deals (default: as many as the record has).

    `RecordError` for a record that does not replay; `NotADecision` when the match is over or
    the seat is not to act (or several are and none was named)."""
    match = replay_record(record, n_deals=n_deals)
    if match.finished:
        raise NotADecision("the record's match is over: there is no decision to make")
    to_act = list(match.to_act())
    if seat is None:
        if len(to_act) != 1:
            seats = ", ".join(str(s) for s in to_act)
            raise NotADecision(f"several seats are to act ({seats}): name one with --seat")
        seat = to_act[0]
    if seat not in to_act:
        acting = ", ".join(str(s) for s in to_act)
        raise NotADecision(f"seat {seat} is not to act at the end of the record (to act: {acting})")
    legal = match.legal(seat)
    if not legal:
        raise NotADecision(f"seat {seat} has no legal action at the end of the record")
    return Position(match.GAME, seat, match.view(seat), legal, past_deals(match))


def ask(
    pos: Position, level: str, budget: Budget | None = None, seed: int | str = 0
) -> dict[str, Any]:
    """The action the `level` bot chooses at `pos` (a searching level at `budget`, default its
    table budget's seconds; the same seed and an iteration budget give the same action)."""
    bot = get_bot(pos.game, level)  # KeyError: no such level for this game
    rng = random.Random(f"ask/{seed}")
    if bot.searches and budget is None:
        budget = Budget()
    return choose_action(pos.game, pos.view, pos.legal, rng, level, budget=budget, past=pos.past)


__all__ = ["NotADecision", "Position", "RecordError", "ask", "past_deals", "position"]


def has_choice(legal: list[dict[str, Any]]) -> bool:
    """Whether a legal list leaves something to choose (more than one action, or a template of
    several choices): a forced move is no decision to judge."""
    if len(legal) > 1:
        return True
    entry = legal[0] if legal else {}
    if entry.get("act") == "exchange":
        return True
    return "choose" in entry and len(entry.get("from", ())) > entry["choose"]
