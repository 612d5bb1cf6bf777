"""Results together (docs/fair-play.md, "Collusion"), pure: how a pair's results at the tables
they shared differ from what their ratings predict.

A helped player wins more often with the helper at the table than the ratings of the table's
players say, and — once the help has raised their rating — less often without. For each
rated match a player sat in, the rating model's chance that they finish first (`predict_win`,
the ratings as they are now) is set against whether they did (a shared one counts its share); the
surprise is summed over the matches with the other player and over the rest, each as a z-score
(the sum over its standard deviation, about N(0, 1) for results the ratings predict), and the
two compared. It is evidence shown beside the decisions' score, not a listing of its own: a
pair's first places also move with the deals' luck, and a rising player beats the ratings
everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Each seat's chance of finishing first from (mu, sigma) per seat: the ratings' own model
# (`league.ratings.compute.win_chances`), handed in — the ratings sit above fair play.
Chances = Callable[[Sequence[tuple[float, float]]], Sequence[float]]


@dataclass(frozen=True)
class Match:
    """One rated match: player ids in seat order, and their places (1 best, ties share)."""

    players: tuple[Any, ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class Results:
    """A player's first places in some matches against what the ratings predicted."""

    matches: int = 0
    won: float = 0.0  # first places, a shared one counting its share
    expected: float = 0.0  # the ratings' predicted first places
    variance: float = 0.0

    @property
    def z(self) -> float:
        """(won - expected) over its standard deviation: 0 when nothing can be said."""
        return (self.won - self.expected) / math.sqrt(self.variance) if self.variance else 0.0


@dataclass(frozen=True)
class Together:
    """The helped player's results with the helper at the table and without."""

    helper: Any
    helped: Any
    with_helper: Results
    without: Results

    @property
    def difference(self) -> float:
        """How much better (in standard deviations) the helped did, against the ratings, with
        the helper than without: the difference of the mean surprises over its standard error
        (0 without matches on either side)."""
        a, b = self.with_helper, self.without
        if not (a.matches and b.matches and a.variance and b.variance):
            return 0.0
        mean = (a.won - a.expected) / a.matches - (b.won - b.expected) / b.matches
        error = math.sqrt(a.variance / a.matches**2 + b.variance / b.matches**2)
        return mean / error


def _add(r: Results, won: float, p: float) -> Results:
    return Results(r.matches + 1, r.won + won, r.expected + p, r.variance + p * (1 - p))


def together(
    matches: Iterable[Match],
    helper: Any,
    helped: Any,
    ratings: Mapping[Any, tuple[float, float]],
    chances: Chances,
    default: tuple[float, float],
) -> Together:
    """The helped player's `Results` in `matches` with and without the helper; a player with no
    rating in `ratings` is taken at `default` (a newcomer's)."""
    with_helper, without = Results(), Results()
    for match in matches:
        if helped not in match.players:
            continue
        seat = match.players.index(helped)
        chance = chances([ratings.get(p, default) for p in match.players])
        firsts = [s for s, rank in enumerate(match.ranks) if rank == 1]
        won = 1.0 / len(firsts) if seat in firsts else 0.0
        if helper in match.players:
            with_helper = _add(with_helper, won, chance[seat])
        else:
            without = _add(without, won, chance[seat])
    return Together(helper, helped, with_helper, without)
