"""The event's drawing of lots: one number per player, from the event's schedule seed.

One draw decides everything an event leaves to chance: the standings' "lot" tie-break, the
seeding of round 1 among players the ratings leave level (Swiss and knockout), and knockout
ties that payouts and match points do not break. Being one draw, the three never contradict
each other. Pure integer arithmetic: no Django, the same on every platform.

Only the *order* of the draw is ever shown to people. The seed and the raw numbers stay
private: the mixer below is a bijection, so a lot number gives the seed back, and the seed
gives every later round plan (never a deal: every table draws its own secret deal seed).
"""

from __future__ import annotations

from collections.abc import Iterable

_MASK64 = (1 << 64) - 1


def lot_number(seed: int, player_id: int) -> int:
    """A 64-bit number, distinct for distinct player ids under one seed; higher draws better.

    The splitmix64 finaliser is a bijection on 64-bit words, and so is XOR with a constant, so
    two players can never draw the same lot.
    """
    return _mix64((player_id & _MASK64) ^ _mix64(seed & _MASK64))


def draw_order(seed: int, player_ids: Iterable[int]) -> list[int]:
    """The players in the order of the draw: the best lot first."""
    return sorted(player_ids, key=lambda p: -lot_number(seed, p))


def draw_places(seed: int, player_ids: Iterable[int]) -> dict[int, int]:
    """Each player's place in the draw among `player_ids` (1 = best lot): what a page shows."""
    return {p: place for place, p in enumerate(draw_order(seed, player_ids), start=1)}


def _mix64(z: int) -> int:
    z = (z + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)
