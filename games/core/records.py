"""Game records (``mediana.record/1``, ../shared/spec/records.md): parse, replay, score, export.

Pure functions; ``manage.py score_record`` is a thin wrapper around ``score_record_text``. Every
problem becomes a ``RecordError`` whose message is the exact one-line report of records.md:
``record: ...`` for the whole record, ``deal K: ...`` for a deal, ``deal K, action J (seat S ACT
...): reason`` for an action.
"""

from __future__ import annotations

import json
from typing import Any

from games.core.base import Match, describe_action
from games.core.errors import IllegalAction, RecordError, VariantError
from games.core.registry import game_names, get_game

FORMAT = "mediana.record/1"


def _record_error(reason: str) -> RecordError:
    return RecordError(f"record: {reason}")


def engine_of(record: dict[str, Any]) -> type[Match]:
    """The engine a record of a known game is played by: the game's, or its engine at a table
    of four where the record has four players or a deal names its ``sitter`` (records.md)."""
    spec = get_game(record["game"])
    deals = record.get("deals")
    players = record.get("players")
    if spec.four is not None and (
        (isinstance(players, list) and len(players) == spec.four.SEATS)
        or (isinstance(deals, list) and any(isinstance(d, dict) and "sitter" in d for d in deals))
    ):
        return spec.four
    return spec.engine


def replay_record(record: Any, *, n_deals: int | None = None) -> Match:
    """Replay a record (already-parsed JSON) into a match of its game and return the match.

    `n_deals`: the length of the match the record belongs to (default: as many deals as the
    record has); a record that stops before the match is over is then not complete."""
    if not isinstance(record, dict):
        raise _record_error("a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise _record_error(f"format must be {FORMAT!r}, not {record.get('format')!r}")
    game = record.get("game")
    if not isinstance(game, str) or game not in game_names():
        raise _record_error(f"unknown game {game!r}")
    engine = engine_of(record)
    four = engine is not get_game(game).engine
    deals = record.get("deals")
    players = record.get("players")
    n = engine.SEATS
    variant_input = record.get("variant")
    try:
        variant = engine.resolve_variant(variant_input)
    except VariantError as e:
        raise _record_error(str(e)) from None
    if players is not None and (
        not isinstance(players, list)
        or len(players) != n
        or not all(isinstance(p, str) for p in players)
    ):
        raise _record_error(f"players must be a list of {n} names")
    if "dealer" not in record:
        raise _record_error("dealer is required")
    dealer = record["dealer"]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise _record_error(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
    if not isinstance(deals, list) or not deals:
        raise _record_error("deals must be a non-empty list")

    for k, deal in enumerate(deals):
        if not isinstance(deal, dict):
            raise RecordError(f"deal {k}: a deal must be a JSON object")
        if four:  # tables-of-four.md: the dealer of each deal sits out
            sitter = (dealer + k) % n
            if deal.get("sitter") != sitter or isinstance(deal.get("sitter"), bool):
                raise RecordError(f"deal {k}: sitter must be seat {sitter}, the deal's dealer")
            hands = deal.get("hands")
            if isinstance(hands, list) and len(hands) == n and hands[sitter] != []:
                raise RecordError(
                    f"deal {k}: wrong deck: the sitter's hand (seat {sitter}) is not empty"
                )
        problem = engine.deck_problem(variant, deal.get("hands"), deal.get("stock"))
        if problem:
            raise RecordError(f"deal {k}: wrong deck: {problem}")
        if not isinstance(deal.get("actions", []), list):
            raise RecordError(f"deal {k}: actions must be a list")

    match = engine(
        dealer=dealer,
        variant=variant_input,
        n_deals=max(n_deals or 0, len(deals)),
        # a deal's salt is kept (so the replay exports the same commitment); scoring ignores it
        deals=[{"hands": d["hands"], "stock": d["stock"], "salt": d.get("salt")} for d in deals],
        players=players,
    )
    for k, deal in enumerate(deals):
        actions = deal.get("actions", [])
        if match.finished:
            where = f"deal {k}"
            if actions:
                where += f", action 0 ({_who(actions[0])})"
            raise RecordError(f"{where}: the match is over")
        for j, action in enumerate(actions):
            where = f"deal {k}, action {j}"
            if not isinstance(action, dict):
                raise RecordError(f"{where}: an action must be a JSON object")
            where += f" ({_who(action)})"
            if match.finished:
                raise RecordError(f"{where}: the match is over")
            if match.deal_no != k:
                raise RecordError(f"{where}: the deal is over")
            try:
                match.apply(action.get("seat"), action)
            except IllegalAction as e:
                raise RecordError(f"{where}: {e}") from None
        if not match.finished and match.deal_no == k and k < len(deals) - 1:
            raise RecordError(f"deal {k}: the deal is unfinished but another deal follows")
    return match


def _who(action: Any) -> str:
    if not isinstance(action, dict):
        return repr(action)
    return f"seat {action.get('seat', '?')} {describe_action(action)}"


def score_record(record: Any, *, n_deals: int | None = None) -> dict[str, Any]:
    """The ``score_record`` output of records.md for a parsed record."""
    return replay_record(record, n_deals=n_deals).result()


def score_record_text(text: str) -> dict[str, Any]:
    """Like ``score_record``, from JSON text (malformed JSON is a ``record:`` error)."""
    try:
        record = json.loads(text.removeprefix("\ufeff"))  # a byte-order mark some editors write
    except (ValueError, RecursionError) as e:
        raise _record_error(f"malformed JSON: {e}") from None
    return score_record(record)


def export_record(match: Match) -> dict[str, Any]:
    """The record of a match, finished or not; replaying it gives the same match."""
    return match.export()
