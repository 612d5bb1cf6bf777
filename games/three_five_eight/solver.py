"""3-5-8's knowledge for the perfect-information solver (``games.core.solver``): each for
himself (paranoid search); only tricks count, so every card is worth 0 and the groups are the
suits (the trump suit is one of them: a card's rank within its suit is all that orders it)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from games.core.kernel import Budget, Kernel, Layout
from games.core.solver import GameSolver
from games.three_five_eight.engine import PLAY, STRENGTH, SUIT_OF, ThreeFiveEightMatch

LAYOUTS = [Layout(SUIT_OF, STRENGTH, trump) for trump in range(4)]
NONE = [0] * 52


class ThreeFiveEightPosition:
    """A 3-5-8 position in the kernel: a seat's payout is its tricks less its target, so its
    value is the most tricks it can make sure of against the other two (paranoid)."""

    def __init__(self, match: ThreeFiveEightMatch, seat: int, budget: Budget) -> None:
        self.now = match.won[seat] - match.targets[seat]
        layout = LAYOUTS[match.trump]
        self.tricks = Kernel(
            layout, match.hands, match.trick, match.leader, (seat,), NONE, 1, 0, budget
        )

    def value(self, card: int | None = None) -> float:
        k = self.tricks
        if card is not None:
            k = k.copy()
            k.push(card)
        return self.now + k.exact()

    def at_least(self, card: int, payout: float) -> bool:
        k = self.tricks.copy()
        k.push(card)
        return k.reach(int(payout) - self.now)


class ThreeFiveEightSolver(GameSolver):
    EXACT_TRICKS = 9  # best_action p95 0.37 s here (bench/solver.py; docs/performance.md)
    GROUP = SUIT_OF
    STRENGTH = STRENGTH
    VALUE = [0] * 52

    def in_play(self, match: ThreeFiveEightMatch) -> bool:  # type: ignore[override]
        return match.phase == PLAY

    def position(  # type: ignore[override]
        self, match: ThreeFiveEightMatch, seat: int, budget: Budget
    ) -> ThreeFiveEightPosition:
        return ThreeFiveEightPosition(match, seat, budget)

    def key(self, match: ThreeFiveEightMatch, seat: int) -> Hashable:  # type: ignore[override]
        # A seat's payout is its tricks less its target: only its own tricks matter to it.
        # Hands only lose cards during play, keeping their order: a tuple is canonical.
        h = match.hands
        return (tuple(h[0]), tuple(h[1]), tuple(h[2]), *match.trick, match.turn, match.won[seat])

    def bounds(self, match: ThreeFiveEightMatch, seat: int) -> tuple[float, float]:  # type: ignore[override]
        # The payout is the hand's difference, tricks less target (settle_hand); the tricks not
        # yet won are the cards of the hand with the most (the trick's leader may have played).
        now = match.won[seat] - match.targets[seat]
        return now, now + max(len(h) for h in match.hands)

    def trick(self, match: ThreeFiveEightMatch) -> tuple[int, list[int], int]:  # type: ignore[override]
        return match.leader, match.trick, match.trump

    def live(self, match: ThreeFiveEightMatch, seat: int) -> Iterable[int]:  # type: ignore[override]
        hands = match.hands
        return [c for s in range(3) if s != seat for c in hands[s]] + match.trick


SOLVER = ThreeFiveEightSolver()
