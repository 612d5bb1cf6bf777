"""The perfect-information ("double-dummy", clairvoyant) solver of a deal's card play.

Why: to know what a deal was worth with every card known — the bound a bot could reach if it
saw through the backs of the cards, against which the search bots are measured (docs/bots.md,
"The clairvoyant bound"), and the value of each card in a position for the game analysis.

``solve(match, seat)`` is the payout of the current deal for ``seat`` (the records' ``payouts``
unit) when every seat plays perfectly from the match's position with all cards known;
``action_values(match, seat)`` is that value after each legal action of ``seat``. The match is a
real, full-information match (never a view); neither function changes it.

What "perfect play" means (docs/bots.md, "The solver"):

* **Two-sided contracts** (Schieberamsch's Grand Hand, every Mediatore contract): the declaring
  side (declarer, and in Chiamo the called partner, known in a perfect-information world)
  against the others. Their interests are exactly opposed (every payout is a function of the
  contract's outcome alone), so this is a two-player zero-sum game and alpha-beta is exact.
* **Each for himself** (Ramsch, 3-5-8, Saichugen): *paranoid* search — ``seat`` maximises its
  own payout and the other seats, as one coalition, minimise it. The value is what ``seat`` can
  guarantee whatever the others do. max^n was not chosen: it is not unique (ties between the
  others' indifferent moves change the value, and a rule to break them is arbitrary), it allows
  no deep pruning, and a bound that holds against every opponent is what an evaluation wants.
* **Saichugen's simultaneous commits** are played in a fixed order within each trick: ``seat``
  commits first and the coalition answers seeing its card (the paranoid worst case: the pure-
  strategy security value of the simultaneous game, a lower bound on its mixed value). Commits
  already made in the match stay as they are (the solver sees them: it cheats).

For the trick games (Mediatore, Schieberamsch, 3-5-8) the search runs in the fast kernel
(``games/core/kernel.py``: bit masks, make/unmake, a history-free table under a canonical key),
through each game's ``GameSolver.position``; the payout is a short chain of threshold questions
on the scores it is monotone in (``LevelPosition``), or read at the end (Ramsch). The generic
search below, on the match itself, serves Saichugen and is the tests' reference.

The generic search is alpha-beta with a transposition table (keyed by what decides the rest of the
deal: the hands, the trick, who is to play and what counts for the payout so far), the table's
best move tried first, and equivalent cards pruned: two cards of one hand, adjacent in rank
order within a suit (with no card of another hand or of the trick between them) and worth the
same points, play exactly alike, so only one is searched. Per-game knowledge lives in each
game's package, ``games/<game>/solver.py`` and its ``SOLVER`` (a ``GameSolver``), found through
the games' registry like the determinisers (``GameSpec.solver``).

Only card play is solved: in a phase before it (bidding, calls, discards, exchanges)
``solve`` and ``action_values`` raise ``NotInPlay``.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Protocol

from games.core import registry
from games.core.base import Match
from games.core.kernel import Budget, TooHard

__all__ = ["Budget", "GameSolver", "NotInPlay", "Position", "TooHard", "action_values"]
__all__ += ["best_action", "random_position", "solve"]

INF = float("inf")
Move = Any


class NotInPlay(ValueError):
    """The match is not in its card play (bidding, calling, discarding… or over)."""


class Position(Protocol):
    """A game's position in its fast kernel (``GameSolver.position``), for one seat."""

    def value(self, card: int | None = None) -> float:
        """The seat's payout under perfect play from here (after the seat to play plays
        ``card``, when given)."""
        ...

    def at_least(self, card: int, payout: float) -> bool:
        """Whether the seat's value after ``card`` is ``payout`` or more: one threshold
        question where ``value`` may need several (``best_action``)."""
        ...


class LevelPosition:
    """A position whose payout is one of a few *levels*, each level's condition implying the
    one below (``holds``: the side can make sure of level ``k`` or more), and the seat's payout
    ``pays[k]`` monotone in the level (rising for the side, falling for the others): the value
    is the highest level that holds, bisected."""

    pays: list[int]

    def kernels(self, card: int | None) -> Any:
        """The position's kernels, after ``card`` when given (copies: the tables shared)."""
        raise NotImplementedError

    def holds(self, kernels: Any, level: int) -> bool:
        raise NotImplementedError

    def value(self, card: int | None = None) -> float:
        ks = self.kernels(card)
        lo, hi = 0, len(self.pays) - 1  # the value's level is in lo..hi
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.holds(ks, mid):
                lo = mid
            else:
                hi = mid - 1
        return self.pays[lo]

    def at_least(self, card: int, payout: float) -> bool:
        pays = self.pays
        good = [k for k, p in enumerate(pays) if p >= payout]
        if not good:
            return False
        ks = self.kernels(card)
        if pays[0] <= pays[-1]:  # rising: the lowest good level must hold
            return good[0] == 0 or self.holds(ks, good[0])
        # falling: the level above the highest good one must not hold
        return good[-1] == len(pays) - 1 or not self.holds(ks, good[-1] + 1)


class GameSolver:
    """What the solver must know of one game. A game's ``solver.py`` subclasses it and sets the
    card tables: ``GROUP[card]`` (the suit a card follows as, trumps one group), ``STRENGTH[card]``
    (its rank within the group, higher wins) and ``VALUE[card]`` (what the card itself scores)."""

    # How many tricks from the end the clairvoyant bot solves exactly (well under a second).
    EXACT_TRICKS = 5
    GROUP: Sequence[int] = ()
    STRENGTH: Sequence[int] = ()
    VALUE: Sequence[int] = ()

    def in_play(self, match: Match) -> bool:
        """Whether the current deal is in its card play."""
        raise NotImplementedError

    def position(self, match: Match, seat: int, budget: Budget) -> Position | None:
        """The match's position in the game's fast kernel (``games.core.kernel``) for
        ``seat``'s payout; ``None`` where the game has none (the generic search then)."""
        return None

    def cards_left(self, match: Match) -> int:
        """The most cards a hand still holds for the play: the tricks left, this one included."""
        return max(len(h) for h in match.hands)  # type: ignore[attr-defined]

    def tricks_left(self, match: Match) -> int:
        """At the start of a trick, how many are still to play (else more than any deal has)."""
        if any(match.trick):  # type: ignore[attr-defined]
            return 99
        return len(match.hands[match.actor()])  # type: ignore[attr-defined]

    def key(self, match: Match, seat: int) -> Hashable:
        """Everything ``seat``'s payout from here depends on: the transposition table's key
        (one table per solve, so it may leave out what matters only to other seats)."""
        raise NotImplementedError

    def bounds(self, match: Match, seat: int) -> tuple[float, float] | None:
        """The lowest and highest payout ``seat`` can still get, whatever is played (``None``:
        not known). Cheap and sound bounds prune most of a search: a contract already won or
        lost is settled without playing it out."""
        return None

    def allies(self, match: Match, seat: int) -> frozenset[int]:
        """The seats that play for ``seat``'s payout (the others play against it): ``seat``
        alone by default (paranoid search)."""
        return frozenset((seat,))

    def mover(self, match: Match, seat: int) -> int:
        """Who moves next in the search solving for ``seat`` (the match's actor by default)."""
        return match.actor()

    def moves(self, match: Match, seat: int) -> list[Move]:
        """The moves worth searching: cards (fast-path moves that only inform, such as
        Mediatore's signals, dropped)."""
        return match.moves(seat)

    def card(self, move: Move) -> int:
        """The card a fast-path move of the play plays."""
        return move

    def live(self, match: Match, seat: int) -> Iterable[int]:
        """The cards still in play that are not ``seat``'s: the other hands and the trick."""
        raise NotImplementedError

    def distinct(self, match: Match, seat: int, cards: list[int]) -> list[int]:
        """``cards`` without the equivalent ones: of a run of ``seat``'s cards adjacent in its
        group's rank order (no live card of another seat between them) and of equal value,
        only the highest."""
        if len(cards) < 2:
            return cards
        group, strength, value = self.GROUP, self.STRENGTH, self.VALUE
        groups = {group[c] for c in cards}
        mine = set(cards)
        items = [(group[c], strength[c], c) for c in cards]
        items += [(group[c], strength[c], c) for c in self.live(match, seat) if group[c] in groups]
        items.sort(reverse=True)
        out: list[int] = []
        prev = -1
        for g, _, c in items:
            if c in mine:
                if prev >= 0 and group[prev] == g and value[prev] == value[c]:
                    continue
                out.append(c)
                prev = c
            else:
                prev = -1
        return out

    def trick(self, match: Match) -> tuple[int, list[int], int] | None:
        """The trick so far for move ordering: ``(leader, cards, trump group or -1)``; ``None``
        where tricks are not won by the highest card (Saichugen)."""
        return None

    def order(self, match: Match, seat: int, cards: list[int], allies: frozenset[int]) -> list[int]:
        """The order to try cards in (a good first move prunes most). Leading: highest first.
        Following: when an ally wins the trick so far, the most points first; else the cards
        that take the trick, then the rest, each the fewest points and lowest first."""
        strength = self.STRENGTH
        trick = self.trick(match)
        if trick is None or not trick[1]:
            return sorted(cards, key=strength.__getitem__, reverse=True)
        leader, played, trump = trick
        group = self.GROUP
        best = 0
        for i in range(1, len(played)):
            b, c = played[best], played[i]
            same = group[c] == group[b]
            if (same and strength[c] > strength[b]) or (group[c] == trump and not same):
                best = i
        value = self.VALUE
        if (leader + best) % match.SEATS in allies:  # an ally takes it: points onto it
            return sorted(cards, key=lambda c: (-value[c], strength[c]))
        low = sorted(cards, key=lambda c: (value[c], strength[c]))
        top = played[best]

        def beats(c: int) -> bool:
            same = group[c] == group[top]
            return (same and strength[c] > strength[top]) or (group[c] == trump and not same)

        return [c for c in low if beats(c)] + [c for c in low if not beats(c)]


def game_solver(match: Match) -> GameSolver:
    """The ``GameSolver`` of the match's game; ``KeyError`` for a game without one."""
    return registry.get_game(match.GAME).solver


class _Search:
    """One solve: the seat it is for, its allies and the transposition table."""

    def __init__(self, match: Match, seat: int, max_nodes: int | None = None) -> None:
        if match.finished:
            raise NotInPlay("the match is over")
        self.hook = game_solver(match)
        if not self.hook.in_play(match):
            raise NotInPlay(f"{match.GAME}: the deal is not in its card play")
        self.seat = seat
        self.deal = match.deal_no
        self.allies = self.hook.allies(match, seat)
        self.tt: dict[Hashable, tuple[float, float, int]] = {}
        self.history: dict[tuple[int, int], int] = {}  # (seat, card) -> cut-offs it caused
        self.nodes = 0
        self.max_nodes = max_nodes or INF

    def children(self, match: Match, mover: int) -> list[int]:
        hook = self.hook
        cards = sorted({hook.card(m) for m in hook.moves(match, mover)})
        cards = hook.order(match, mover, hook.distinct(match, mover, cards), self.allies)
        if len(cards) > 2:  # the history heuristic: cards that cut off elsewhere first
            history = self.history
            cards.sort(key=lambda c: -history.get((mover, c), 0))
        return cards

    def exact(self, match: Match, mover: int = -1, card: int = -1) -> float:
        """The exact value of ``match`` (after ``mover`` plays ``card``, when given) by MTD(f):
        null-window searches that close in on it. Payouts are integers, and a null window
        prunes far more than a wide one (most payouts hinge on a few thresholds)."""
        lower, upper, g = -INF, INF, 0.0
        while lower < upper:
            beta = g + 1 if g == lower else g
            if card >= 0:
                g = self.after(match, mover, card, beta - 1, beta)
            else:
                g = self.value(match, beta - 1, beta)
            if g < beta:
                upper = g
            else:
                lower = g
        return g

    def after(self, match: Match, mover: int, card: int, alpha: float, beta: float) -> float:
        """The value once ``mover`` plays ``card``."""
        child = match.clone()
        child.play(mover, card)
        if child.finished or child.deal_no != self.deal:
            return child.results[self.deal]["payouts"][self.seat]
        return self.value(child, alpha, beta)

    def cut(self, mover: int, card: int) -> None:
        key = (mover, card)
        self.history[key] = self.history.get(key, 0) + 1

    def value(self, match: Match, alpha: float, beta: float) -> float:
        """Alpha-beta (fail-soft) with the transposition table's bounds."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise TooHard(f"more than {self.max_nodes} nodes")
        hook = self.hook
        key = hook.key(match, self.seat)
        entry = self.tt.get(key)
        if entry is None:
            known = hook.bounds(match, self.seat)
            lo, hi, first = (-INF, INF, -1) if known is None else (*known, -1)
        else:
            lo, hi, first = entry
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        mover = hook.mover(match, self.seat)
        cards = self.children(match, mover)
        if first in cards and cards[0] != first:
            cards.remove(first)
            cards.insert(0, first)
        a0, b0 = alpha, beta
        best_card = cards[0]
        if mover in self.allies:
            best = -INF
            for card in cards:
                v = self.after(match, mover, card, alpha, beta)
                if v > best:
                    best, best_card = v, card
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            self.cut(mover, card)
                            break
        else:
            best = INF
            for card in cards:
                v = self.after(match, mover, card, alpha, beta)
                if v < best:
                    best, best_card = v, card
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            self.cut(mover, card)
                            break
        if best <= a0:
            hi = best
        elif best >= b0:
            lo = best
        else:
            lo = hi = best
        self.tt[key] = (lo, hi, best_card)
        return best


def solve(match: Match, seat: int, *, max_nodes: int | None = None) -> float:
    """The payout of the current deal for ``seat`` under perfect play by every seat from the
    match's position, all cards known (see the module docstring for what "perfect" means in
    each game). ``NotInPlay`` before the card play or once the match is over; ``TooHard``
    when it would search more than ``max_nodes`` positions."""
    return _solve(match, seat, max_nodes)[0]


def _solve(match: Match, seat: int, max_nodes: int | None = None) -> tuple[float, int]:
    """``solve`` and the positions it searched (``bench/solver.py``)."""
    search = _Search(match, seat, max_nodes)
    budget = Budget(max_nodes)
    fast = search.hook.position(match, seat, budget)
    if fast is not None:
        return fast.value(), budget.used
    return search.exact(match), search.nodes


def action_values(
    match: Match, seat: int, *, max_nodes: int | None = None
) -> list[tuple[dict[str, Any], float]]:
    """Each legal action of ``seat`` (who must be to act) in the card play with its solved value
    for ``seat``: every fast-path move as its record action (equivalent cards share their value,
    a Mediatore lead's signals the value of its card). ``NotInPlay`` outside the card play;
    ``TooHard`` beyond ``max_nodes`` positions searched (all candidates together)."""
    search = _Search(match, seat, max_nodes)
    if seat not in match.to_act():
        raise ValueError(f"seat {seat} is not to act")
    hook = search.hook
    moves = match.moves(seat)
    cards = sorted({hook.card(m) for m in moves})
    fast = hook.position(match, seat, Budget(max_nodes))
    if fast is not None:
        found = {card: fast.value(card) for card in cards}
        return [(match.move_to_action(m), found[hook.card(m)]) for m in moves]
    kept = hook.order(match, seat, hook.distinct(match, seat, cards), search.allies)
    values = {card: search.exact(match, seat, card) for card in kept}
    # An equivalent card takes the value of the kept card next above it in its group.
    group, strength = hook.GROUP, hook.STRENGTH
    for card in cards:
        if card not in values:
            above = [k for k in kept if group[k] == group[card] and strength[k] > strength[card]]
            values[card] = values[min(above, key=strength.__getitem__)]
    return [(match.move_to_action(m), values[hook.card(m)]) for m in moves]


def best_action(match: Match, seat: int, *, max_nodes: int | None = None) -> dict[str, Any]:
    """The solver's choice for ``seat``: its first action of the highest value (the clairvoyant
    bot plays it)."""
    fast = _fast(match, seat, max_nodes)
    if fast is not None:
        # The value, then the first action that reaches it: a threshold question a card.
        top = fast.value()
        hook = game_solver(match)
        for move in match.moves(seat):
            if fast.at_least(hook.card(move), top):
                return match.move_to_action(move)
        raise AssertionError("no action reaches the position's value")  # pragma: no cover
    found = action_values(match, seat, max_nodes=max_nodes)
    top = max(v for _, v in found)
    return next(a for a, v in found if v == top)


def _fast(match: Match, seat: int, max_nodes: int | None) -> Position | None:
    """The kernel's position for a seat to act, or ``None`` (the generic search then)."""
    search = _Search(match, seat, max_nodes)  # checks the match is in its card play
    if seat not in match.to_act():
        raise ValueError(f"seat {seat} is not to act")
    return search.hook.position(match, seat, Budget(max_nodes))


def random_position(
    game: str, tricks_left: int, rng: random.Random, variant: dict[str, Any] | None = None
) -> Match:
    """A one-deal match in its card play at the start of a trick with at most ``tricks_left``
    tricks to go, reached by uniformly random moves (for the tests and ``bench/solver.py``)."""
    while True:
        match = registry.start_match(game, seed=rng.getrandbits(64), variant=variant)
        hook = game_solver(match)
        while not match.finished and not hook.in_play(match):
            seat = match.actor()
            match.play(seat, match.random_move(seat, rng))
        while not match.finished:
            if hook.tricks_left(match) <= tricks_left:
                return match
            seat = match.actor()
            match.play(seat, match.random_move(seat, rng))
