"""Pure rating arithmetic: finishing order, which matches count, one openskill update, the weight
of a repeated meeting.

No ORM and no Django import: the service loads matches as `MatchInput`s and current ratings as
`RatingState`s, calls `rate_match` in match-finish order and writes what it returns. A full
recomputation (`replay`) is the same function applied to the same inputs in the same order, so
it gives the same floats as the incremental path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from openskill.models import PlackettLuce

# The openskill model class, with its default parameters (mu 25, sigma 25/3, beta 25/6,
# tau 25/300). Anyone can recompute a rating from the stored history with `MODEL()`.
MODEL = PlackettLuce
MODEL_NAME = MODEL.__name__


@cache
def model() -> Any:
    return MODEL()


@dataclass(frozen=True)
class RatingState:
    """A player's rating in one game after `games` rated matches."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The displayed rating: mu - 3*sigma (openskill's `ordinal()`), 0 for a newcomer."""
        return self.mu - 3 * self.sigma


def win_chances(ratings: Sequence[tuple[float, float]]) -> list[float]:
    """Each seat's chance of finishing first from (mu, sigma) per seat (openskill's
    `predict_win`): what the ratings predict of a table (fair play's results together)."""
    m = model()
    return [
        float(p) for p in m.predict_win([[m.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings])
    ]


def initial_state() -> RatingState:
    m = model()
    return RatingState(mu=m.mu, sigma=m.sigma, games=0)


@dataclass(frozen=True)
class MatchInput:
    """One finished match that counts: players and total payouts in seat order."""

    players: tuple[int, ...]
    payouts: tuple[int, ...]
    forfeited_seats: frozenset[int] = frozenset()
    weight: float = 1.0  # `repeat_weight`: how much of openskill's change the players take


def deals_completed(scored: Mapping[str, Any]) -> int:
    """Deals played to their end: an unfinished match's last deal was cut short."""
    return len(scored.get("deals") or []) - (0 if scored.get("complete") else 1)


def counts_for_ratings(scored: Mapping[str, Any], players: Sequence[int]) -> bool:
    """A match rates if at least one deal was completed (a forfeit after the first deal counts)
    and every seat is a different player (the same bot in two seats says nothing about skill)."""
    return deals_completed(scored) >= 1 and len(players) >= 2 and len(set(players)) == len(players)


def finishing_ranks(payouts: Sequence[int], forfeited_seats: Iterable[int] = ()) -> list[int]:
    """Place per seat, 1 = best: by total payout, ties share a place ("1, 1, 3").

    A forfeiting seat finishes below every seat that did not forfeit, as in the standings.
    """
    forfeited = set(forfeited_seats)
    keys = [(seat not in forfeited, payout) for seat, payout in enumerate(payouts)]
    return [1 + sum(other > key for other in keys) for key in keys]


def rate_match(
    states: Sequence[RatingState], ranks: Sequence[int], weight: float = 1.0
) -> list[RatingState]:
    """The ratings after one match, seat by seat: openskill with each player a one-person team,
    each player's change (of mu and of sigma) scaled by `weight` (`repeat_weight`).

    Mediatore's 2 v 2 sides are not teams here: the partner is secret and changes from deal to
    deal, so a match has no fixed sides (see docs/ratings.md).
    """
    m = model()
    teams = [[m.rating(mu=s.mu, sigma=s.sigma)] for s in states]
    rated = m.rate(teams, ranks=list(ranks))
    return [
        RatingState(
            mu=moved(state.mu, team[0].mu, weight),
            sigma=moved(state.sigma, team[0].sigma, weight),
            games=state.games + 1,
        )
        for team, state in zip(rated, states)
    ]


def moved(old: float, new: float, weight: float) -> float:
    """`old` moved `weight` of the way to `new`; exactly openskill's own float at weight 1."""
    return new if weight == 1 else old + weight * (new - old)


def repeat_weight(k: int) -> float:
    """The weight of the k-th (k >= 1) rated table of the same accounts within the window: it
    halves each time (1, 1/2, 1/4, ...), so however often the same people meet, they move each
    other's ratings by less than two tables' worth per window."""
    return 0.5 ** (k - 1)


def repeat_weights(
    meetings: Iterable[tuple[datetime, frozenset[int]]], window: timedelta
) -> list[float]:
    """The weight of each meeting, given in finish order as (finish time, the accounts at it):
    `repeat_weight(k)`, k counting this one and the earlier meetings of exactly the same
    accounts that finished less than `window` before it. A meeting of fewer than two accounts
    (a person against bots, an event match passed as empty) is never a repeat: weight 1."""
    weights: list[float] = []
    seen: dict[frozenset[int], list[datetime]] = {}
    for at, people in meetings:
        if len(people) < 2:
            weights.append(1.0)
            continue
        recent = [t for t in seen.get(people, []) if at - t < window]
        weights.append(repeat_weight(len(recent) + 1))
        seen[people] = [*recent, at]
    return weights


@dataclass(frozen=True)
class Change:
    """One player's rating after one match of a replay."""

    match_index: int
    player: int
    seat: int
    rank: int
    before: RatingState
    after: RatingState


def replay(
    matches: Iterable[MatchInput], start: Mapping[int, RatingState] | None = None
) -> tuple[dict[int, RatingState], list[Change]]:
    """Rate matches in the given (finish) order from `start` (default: everyone new)."""
    states = dict(start or {})
    changes: list[Change] = []
    for index, match in enumerate(matches):
        before = [states.get(p) or initial_state() for p in match.players]
        ranks = finishing_ranks(match.payouts, match.forfeited_seats)
        after = rate_match(before, ranks, match.weight)
        for seat, player in enumerate(match.players):
            states[player] = after[seat]
            changes.append(Change(index, player, seat, ranks[seat], before[seat], after[seat]))
    return states, changes
