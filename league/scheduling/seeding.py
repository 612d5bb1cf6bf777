"""Round 1's seeding, before anyone has played: by rating, then by the event's draw.

Swiss and knockout rounds are cut from an order of the players; before there are standings
that order is the rating each player entered with (the unrated after the rated) and, among
players the ratings leave level (everyone, in an event of newcomers), the event's drawing
of lots (`league.draws`): seeded by the event's schedule seed, so the same event always
draws the same order, and nobody can work it out in advance (the seed is secret).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from league.draws import lot_number
from league.scheduling.records import PlayerRecord


def gettext_noop(message: str) -> str:
    """Mark `message` for translation (as in `formats.base`); translated where shown."""
    return message


SEEDING = gettext_noop(
    "Round 1 is seeded by rating at entry (the unrated after the rated) and, among equals, by "
    "the event's draw: a lot from the event's schedule seed, which is kept secret."
)


def first_round_order(players: Sequence[PlayerRecord], seed: int) -> list[PlayerRecord]:
    """The players best seed first, their `position` set to that place (1 = top seed)."""
    ordered = sorted(
        players,
        key=lambda p: (p.rating is None, -(p.rating or 0.0), -lot_number(seed, p.id)),
    )
    return [replace(p, position=i) for i, p in enumerate(ordered, start=1)]
