"""3-5-8 at a table of four (../shared/rules/tables-of-four.md): the dealer sits out; the third
player after him takes the dealer's target of 8, takes the kitty and names trumps. A hand's
exchange settles the last hand's over- and under-tricks only between seats that play both;
what was owed to or by the new sitter lapses. The balance (``cum``) is the table's."""

from __future__ import annotations

from typing import Any

from games.core.base import Match
from games.core.four import FOUR, FourSeats, SeatFields, Seating
from games.core.four_sheet import FourSheet, playing
from games.core.hints import gettext_noop
from games.core.sheet_rules import SheetRules
from games.three_five_eight.engine import (
    EXCHANGE,
    ThreeFiveEightMatch,
    ThreeFiveEightSheet,
    exchange_plan,
)


def ending_seat(
    variant: dict[str, Any], balances: list[int], scores: list[int], seats: list[int]
) -> int | None:
    """settle_hand's rule at a table of four, for the `seats` that played the hand (in the
    game's order): 12 tricks in a hand (the dealer's role first, as at a table of three), or
    in 6-3-8 a balance (the table's, after the hand) of +10 alone; None: the match goes on."""
    if variant["fixed_length"]:
        return None
    if variant["targets"] == "6-3-8":
        best = max(balances)
        return balances.index(best) if best >= 10 and balances.count(best) == 1 else None
    for seat in reversed(seats):
        if scores[seat] >= variant["win_tricks"]:
            return seat
    return None


class ThreeFiveEightFourSheet(FourSheet.over(ThreeFiveEightSheet)):  # type: ignore[misc]
    """3-5-8's sheet at a table of four: the balance is the table's, and a hand ends the
    match as at the table (`ending_seat`)."""

    def _ended(self, rules: SheetRules, sitter: int, scores: list[int]) -> None:
        self.winner = ending_seat(self.variant, self.balances, scores, playing(sitter))

    def winners(self, scores: list[int], payouts: list[int]) -> list[int]:
        if self.winner is not None:
            return [self.winner]
        best = max(self.balances)
        return [i for i, b in enumerate(self.balances) if b == best]


class ThreeFiveEightFour(FourSeats):
    INNER = ThreeFiveEightMatch
    SHEET = ThreeFiveEightFourSheet
    # ``dealer`` in a view is the seat with the dealer's target (who names trumps); the sitter
    # is who dealt (``dealt_by``).
    FIELDS = SeatFields.of(
        seats={"winner", "leader", "turn", "to", "from", "dealer"},
        per_seat={"targets": 0, "tricks_won": 0, "cum": 0, "hand_sizes": 0},
        dealer={"dealt_by"},
    )

    @classmethod
    def four_problem(cls, variant: dict[str, Any]) -> str | None:
        if variant["woburn_bidding"]:
            return gettext_noop(
                "Woburn bidding lets the auction decide who deals, so nobody would know who "
                "sits out: a table of four needs it off."
            )
        return None

    def _balances(self) -> list[int]:
        """Each seat's balance over the finished hands (its payouts are its over- and
        under-tricks)."""
        return [sum(r["payouts"][s] for r in self.results) for s in range(FOUR)]

    def _carry(self, previous: Match, before: Seating) -> None:
        new = self.inner
        now = self.seating
        balances = self._balances()
        new.cum = [balances[now.outer(i)] for i in range(3)]  # type: ignore[attr-defined]
        diff = previous.prev_diff  # type: ignore[attr-defined]
        if diff is None:
            return
        # The whole exchange of a table of three, then only the passes between the two seats
        # that play both hands, as the new hand numbers them.
        there = [now.inner(before.outer(i)) for i in range(3)]
        targets = [0 if j is None else new.targets[j] for j in there]  # type: ignore[attr-defined]
        v = self.variant
        plan = [
            [there[g], there[r], k]
            for g, r, k in exchange_plan(diff, targets, v["exchange_priority"], v["max_bleed"])
            if there[g] is not None and there[r] is not None
        ]
        if plan:
            new.plan = plan  # type: ignore[attr-defined]
            new.phase = EXCHANGE  # type: ignore[attr-defined]
            new.turn = plan[0][0]  # type: ignore[attr-defined]

    def _early_winners(self, scores: list[int], payouts: list[int]) -> list[int] | None:
        """settle_hand's rule for the seats that played (`ending_seat`)."""
        after = [b + p for b, p in zip(self._balances(), payouts, strict=True)]
        seat = ending_seat(self.variant, after, scores, self.seating.playing)
        return None if seat is None else [seat]

    def _explain(self, dealer: int, scores: list[int], payouts: list[int]) -> dict[str, Any] | None:
        """The deal's summary with the table's balance after it, the sitter's included (the
        inner deal knows only its three)."""
        made = super()._explain(dealer, scores, payouts)
        if made is not None:
            after = [b + p for b, p in zip(self._balances(), payouts, strict=True)]
            for n in made["notes"]:
                if n["code"] == "balance":
                    n["balance"] = after
                    n["text"] = "Balance after this hand: " + ", ".join(
                        f"seat {i} {c:+d}" for i, c in enumerate(after)
                    )
        return made

    def public_view(self) -> dict[str, Any]:
        v = super().public_view()
        v["cum"] = self._balances()  # the sitter's balance too
        return v
