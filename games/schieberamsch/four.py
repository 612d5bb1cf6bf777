"""Schieberamsch at a table of four (../shared/rules/tables-of-four.md): the dealer sits out;
the third player after him is rearhand and takes the dealer's part in the skat's passing."""

from __future__ import annotations

from games.core.four import FOUR, FourSeats, SeatFields
from games.schieberamsch.engine import SchieberamschMatch


class SchieberamschFour(FourSeats):
    INNER = SchieberamschMatch
    # A trick's ``cards`` are in the order played (from its leader), not per seat; an
    # outcome's ``points`` and ``tricks`` are per seat (a summary line's are single figures).
    FIELDS = SeatFields.of(
        seats={"winner", "leader", "forehand", "turn", "declarer"},
        per_seat={
            "hand_sizes": 0,
            "tricks_won": 0,
            "trick_points": 0,
            "points": 0,
            "tricks": 0,
            "scores": 0,
        },
    )

    def _final_winners(self) -> list[int]:
        """Penalty points: the fewest win, as at a table of three."""
        totals = [sum(r["scores"][i] for r in self.results) for i in range(FOUR)]
        best = min(totals)
        return [i for i in range(FOUR) if totals[i] == best]
