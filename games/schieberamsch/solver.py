"""Schieberamsch's knowledge for the perfect-information solver (``games.core.solver``): a Grand
Hand is the declarer against the two defenders; a Ramsch is each for himself (paranoid). Jacks
are one group (the trumps) above every suit; a card's value is its card points."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from games.core.kernel import Budget, Kernel, Layout
from games.core.solver import GameSolver, LevelPosition, Position
from games.schieberamsch.engine import EFF, PLAY, POINTS, STRENGTH, TRUMP, SchieberamschMatch

LAYOUT = Layout(EFF, STRENGTH, TRUMP)
NONE = [0] * 32


def _declarer_payout(match: SchieberamschMatch, pts: int, won: int) -> int:
    """The Grand Hand declarer's payout were its card points and tricks at the end ``pts``
    and ``won`` (the engine's own scoring, on the match's figures put back at once)."""
    d = match.declarer
    keep = match.pts[d], match.won[d]
    match.pts[d], match.won[d] = pts, won
    try:
        return -2 * match._scores()[d]  # payouts: total - 3 x score, the declarer alone scored
    finally:
        match.pts[d], match.won[d] = keep


class GrandHandPosition(LevelPosition):
    """A Grand Hand in the kernel: the declarer's payout grows with its card points and its
    tricks (the engine's scoring), through six levels — no trick, schneider lost (30 or less),
    lost, won, schneider (90 or more), schwarz (every trick) — so the value is the highest
    level the declarer can make sure of: card points and trick counts, searched as such (the
    points' table serves every threshold)."""

    def __init__(self, match: SchieberamschMatch, seat: int, budget: Budget) -> None:
        d = match.declarer
        self.pts, self.won = match.pts[d], match.won[d]
        self.skat = POINTS[match.skat[0]] + POINTS[match.skat[1]]
        args = (LAYOUT, match.hands, match.trick, match.leader, (d,))
        self.by_points = Kernel(*args, POINTS, 0, 0, budget)
        self.by_tricks = Kernel(*args, NONE, 1, 0, budget)
        # The payout of each level (card points without the skat, tricks) for ``seat``.
        sk = self.skat
        pays = [
            _declarer_payout(match, p, w)
            for p, w in ((0, 0), (0, 1), (31 - sk, 1), (61 - sk, 1), (90 - sk, 1), (120 - sk, 10))
        ]
        self.pays = pays if seat == d else [-x // 2 for x in pays]

    def kernels(self, card: int | None) -> tuple[Kernel, Kernel]:
        pts, tricks = self.by_points, self.by_tricks
        if card is not None:
            pts, tricks = pts.copy(), tricks.copy()
            pts.push(card)
            tricks.push(card)
        return pts, tricks

    def holds(self, kernels: tuple[Kernel, Kernel], level: int) -> bool:
        pts, tricks = kernels
        have = self.pts + self.skat
        if level == 1:
            return self.won > 0 or tricks.reach(1)
        if level == 5:
            return tricks.reach(10 - self.won)
        return pts.reach((31, 61, 90)[level - 2] - have)


class RamschPosition:
    """A Ramsch in the kernel: each for himself (paranoid), the payout read at the end from
    every seat's card points and tricks by the engine's own scoring (the skat, Jungfrau,
    Durchmarsch and all), so the table's key holds the points and who has no trick or all."""

    def __init__(self, match: SchieberamschMatch, seat: int, budget: Budget) -> None:
        scratch = match.clone()
        cache: dict[tuple[int, ...], int] = {}

        def payoff(points: list[int], tricks: list[int], last: int) -> int:
            key = (*points, *tricks, last)
            got = cache.get(key)
            if got is None:
                scratch.pts, scratch.won, scratch.last = list(points), list(tricks), last
                scores = scratch._scores()
                got = cache[key] = sum(scores) - 3 * scores[seat]
            return got

        self.kernel = Kernel(
            LAYOUT, match.hands, match.trick, match.leader, (seat,), POINTS, 0, 0, budget
        ).tally(payoff, match.pts, match.won, avoid=True)

    def value(self, card: int | None = None) -> float:
        k = self.kernel
        if card is not None:
            k = k.copy()
            k.push(card)
        return k.exact()

    def at_least(self, card: int, payout: float) -> bool:
        k = self.kernel.copy()
        k.push(card)
        return k.at_least(int(payout))


class SchieberamschSolver(GameSolver):
    EXACT_TRICKS = 6  # Ramsch best_action p95 0.26 s here, 0.94 s at 7 (Grand Hand: 0.1 s)
    GROUP = EFF
    STRENGTH = STRENGTH
    VALUE = POINTS

    def in_play(self, match: SchieberamschMatch) -> bool:  # type: ignore[override]
        return match.phase == PLAY

    def position(  # type: ignore[override]
        self, match: SchieberamschMatch, seat: int, budget: Budget
    ) -> Position | None:
        if match.declarer >= 0:
            return GrandHandPosition(match, seat, budget)
        return RamschPosition(match, seat, budget)

    def key(self, match: SchieberamschMatch, seat: int) -> Hashable:  # type: ignore[override]
        d = match.declarer
        if d >= 0:  # a Grand Hand: the declarer's points and tricks decide it
            return (*match.masks, *match.trick, match.turn, match.pts[d], match.won[d])
        # A Ramsch: every seat's card points and tricks (Jungfrau, Durchmarsch) count.
        return (*match.masks, *match.trick, match.turn, *match.pts, *match.won)

    def bounds(self, match: SchieberamschMatch, seat: int) -> tuple[float, float] | None:  # type: ignore[override]
        d = match.declarer
        if d < 0:
            return None
        # The declarer's payout grows with its points and tricks: the least is what it has
        # now, the most adds every point and trick still out (the skat is its own already).
        pts, won = match.pts, match.won
        skat = POINTS[match.skat[0]] + POINTS[match.skat[1]]
        low = _declarer_payout(match, pts[d], won[d])
        high = _declarer_payout(match, 120 - skat - sum(pts) + pts[d], 10 - sum(won) + won[d])
        if seat == d:
            return low, high
        return -high // 2, -low // 2  # each defender pays half what the declarer gets

    def allies(self, match: SchieberamschMatch, seat: int) -> frozenset[int]:  # type: ignore[override]
        d = match.declarer
        if d < 0:
            return frozenset((seat,))
        return frozenset((d,)) if seat == d else frozenset(s for s in range(3) if s != d)

    def trick(self, match: SchieberamschMatch) -> tuple[int, list[int], int]:  # type: ignore[override]
        return match.leader, match.trick, 4

    def live(self, match: SchieberamschMatch, seat: int) -> Iterable[int]:  # type: ignore[override]
        hands = match.hands
        return [c for s in range(3) if s != seat for c in hands[s]] + match.trick


SOLVER = SchieberamschSolver()
