"""Saichugen's knowledge for the perfect-information solver (``games.core.solver``): each for
himself (paranoid search), the simultaneous commits of a trick made in turn, the solved seat
first and the others seeing its card (the worst case for it: the security value of the pure
strategies). One group, ordered by strength (rank, then suit); a card's value is its rank's."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from games.core.solver import GameSolver
from games.saichugen.engine import STRENGTH, VALUE, SaichugenMatch


class SaichugenSolver(GameSolver):
    EXACT_TRICKS = 3  # solved exactly from here in well under a second (bench/solver.py)
    GROUP = [0] * 52
    STRENGTH = STRENGTH
    VALUE = VALUE

    def in_play(self, match: SaichugenMatch) -> bool:  # type: ignore[override]
        return not match.finished

    def key(self, match: SaichugenMatch, seat: int) -> Hashable:  # type: ignore[override]
        # Hands only lose cards, keeping their order: a tuple is canonical. The round's points
        # and the game scores decide the payout; the round's trick follows from the hand sizes.
        h = match.hands
        return (
            tuple(h[0]),
            tuple(h[1]),
            tuple(h[2]),
            *match.commits,
            *match.round_pts,
            *match.game_pts,
        )

    def cards_left(self, match: SaichugenMatch) -> int:  # type: ignore[override]
        return max(len(h) for h in match.hands) - 2

    def tricks_left(self, match: SaichugenMatch) -> int:  # type: ignore[override]
        if match.ncommits:
            return 99
        return len(match.hands[0]) - 2  # 17 cards, 15 tricks

    def mover(self, match: SaichugenMatch, seat: int) -> int:  # type: ignore[override]
        commits = match.commits
        if commits[seat] == -1:
            return seat
        return commits.index(-1)

    def live(self, match: SaichugenMatch, seat: int) -> Iterable[int]:  # type: ignore[override]
        hands, commits = match.hands, match.commits
        return [c for s in range(3) if s != seat for c in hands[s]] + [c for c in commits if c >= 0]


SOLVER = SaichugenSolver()
