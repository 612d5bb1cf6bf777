"""Saichugen at a table of four (../shared/rules/tables-of-four.md): each game of five rounds
is played by three, the sitter rotating by deal although the game has no dealer's role."""

from __future__ import annotations

from games.core.four import FourSeats, SeatFields
from games.saichugen.engine import SaichugenMatch


class SaichugenFour(FourSeats):
    INNER = SaichugenMatch
    # Per-seat lists: hand sizes, who has committed, a trick's and a reveal's cards (in seat
    # order), round and game scores; a winner is a seat.
    FIELDS = SeatFields.of(
        seats={"winner"},
        per_seat={
            "hand_sizes": 0,
            "committed": False,
            "cards": None,
            "round_scores": 0,
            "scores": 0,
            "banked": 0,
            "game_scores": 0,
        },
        beside={"cards": "winner"},  # a trick's cards; a summary line's are one seat's
    )
