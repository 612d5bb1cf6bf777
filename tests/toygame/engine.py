"""Toy Tricks: the smallest trick game, to prove a game is its package and one registration.

Three seats, a 12-card deck (spades, hearts, diamonds; A K Q J), four cards each. The seat after
the dealer leads; the others must follow suit when they can; the highest card of the led suit
takes the trick and its taker leads the next. A deal scores the tricks taken; its payout is
3 x tricks - 4 (zero-sum: the four tricks are shared by three seats).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from games.core.base import (
    COMMON_REASONS,
    Event,
    Match,
    Reason,
    event,
    not_held,
    part,
    refuse,
    row,
    unknown_card,
)
from games.core.cards import SUIT_NAMES, Deck
from games.core.sheet_rules import GridField, SheetError, SheetRules, ints

DECK = Deck("toy12", "AKQJ", "SHD")
TRICKS = 4


def payouts_for(tricks: list[int]) -> list[int]:
    """Each seat's payout from the tricks it took: 3 x tricks less the four tricks."""
    return [3 * t - TRICKS for t in tricks]


class ToySheet(SheetRules):
    """A sheet deal: ``{"tricks": [T0, T1, T2]}``, the tricks each seat took (four in all)."""

    EXAMPLE: ClassVar[dict[str, Any]] = {"deals": [{"tricks": [2, 1, 1]}]}

    def deal(self, deal: dict[str, Any], dealer: int) -> tuple[list[int], list[int], int]:
        tricks = ints(deal.get("tricks"), 3, "tricks")
        if any(t < 0 for t in tricks) or sum(tricks) != TRICKS:
            raise SheetError(f"the tricks taken add up to {TRICKS}, not {sum(tricks)}")
        return tricks, payouts_for(tricks), dealer

    def grid(self) -> list[GridField]:
        """The tricks each seat took."""
        return [GridField("tricks", "Tricks", "int", per_seat=True, min=0, max=TRICKS, sum=TRICKS)]

    def from_row(self, row: dict[str, Any]) -> dict[str, Any]:
        return {"tricks": list(row["tricks"])}


class ToyMatch(Match):
    """A Toy Tricks match: one seat acts at a time; each deal is four tricks."""

    GAME = "toy"
    DISPLAY = "Toy Tricks"
    SEATS = 3
    SHEET = ToySheet
    GOAL = "Take the most tricks: the highest card of the suit led wins."
    LEGEND = {
        "unit": "tricks",
        "score": "Score: the tricks taken.",
        "payout": "Payout: 3 x the tricks taken, less 4.",
        "winner": "The highest total payout wins.",
    }
    HINTS = {"trick": "The highest card of the suit led takes the trick."}
    SUMMARY_CODES = frozenset({"tricks_taken", "per_trick", "par", "tricks"})
    REASONS = COMMON_REASONS | {"must_follow_suit"}
    STATE = ("hands", "stock", "turn", "leader", "trick", "won", "history")
    __slots__ = STATE

    hands: list[list[int]]
    stock: list[int]
    turn: int
    leader: int
    trick: list[int]  # the cards of the trick in progress, from its leader on
    won: list[int]
    history: list[list[int]]  # finished tricks: [leader, its cards in play order…, winner]

    @classmethod
    def deck_for(cls, variant: dict[str, Any]) -> Deck:
        return DECK

    @classmethod
    def sizes_for(cls, variant: dict[str, Any]) -> tuple[tuple[int, ...], int]:
        return (4, 4, 4), 0

    def _setup_deal(self, hands: list[list[int]], stock: list[int]) -> None:
        self.hands = hands
        self.stock = stock
        self.leader = self.turn = (self.dealer + 1) % 3
        self.trick = []
        self.won = [0, 0, 0]
        self.history = []

    def _partial(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "scores": self.won[:], "payouts": [0, 0, 0]}

    def _final_winners(self) -> list[int]:
        totals = [sum(r["payouts"][i] for r in self.results) for i in range(3)]
        return [i for i in range(3) if totals[i] == max(totals)]

    def _deal_table(self) -> list[dict[str, Any]]:
        return [row("tricks", "Tricks won", self.won)]

    def _summarize(self, scores: list[int], payouts: list[int]) -> dict[str, Any]:
        return {
            "kind": "tricks",
            "notes": [],
            "score_parts": [
                [part("tricks_taken", f"{t} tricks taken", t, tricks=t)] for t in self.won
            ],
            "payout_parts": [
                [
                    part("per_trick", f"3 x {t} tricks", 3 * t, tricks=t),
                    part("par", f"less the {TRICKS} tricks", -TRICKS, tricks=TRICKS),
                ]
                for t in self.won
            ],
        }

    # ------------------------------------------------------------------ fast path
    def _playable(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        if not self.trick:
            return hand[:]
        led = DECK.suit(self.trick[0])
        following = [c for c in hand if DECK.suit(c) == led]
        return following or hand[:]

    def actor(self) -> int:
        return -1 if self.finished else self.turn

    def moves(self, seat: int) -> list[int]:
        if self.finished or seat != self.turn:
            return []
        return self._playable(seat)

    def random_move(self, seat: int, rng: random.Random) -> int:
        return rng.choice(self._playable(seat))

    def play(self, seat: int, move: int, ev: list[Event] | None = None) -> None:
        self.hands[seat].remove(move)
        self.trick.append(move)
        if ev is not None:
            ev.append(event("play", seat=seat, card=DECK.code_of[move]))
        if len(self.trick) < 3:
            self.turn = (seat + 1) % 3
            return
        led = DECK.suit(self.trick[0])
        best = min((c for c in self.trick if DECK.suit(c) == led), key=DECK.rank)
        winner = (self.leader + self.trick.index(best)) % 3
        self.won[winner] += 1
        self.history.append([self.leader, *self.trick, winner])
        if ev is not None:
            ev.append(event("trick", cards=DECK.codes(self.trick), winner=winner))
        self.trick = []
        self.leader = self.turn = winner
        if len(self.history) == TRICKS:
            self._end_deal(self.dealer, self.won[:], payouts_for(self.won), ev)

    def clone(self) -> ToyMatch:
        m = ToyMatch.__new__(ToyMatch)
        self._copy_common(m)
        m.hands = [h[:] for h in self.hands]
        m.stock = self.stock
        m.turn = self.turn
        m.leader = self.leader
        m.trick = self.trick[:]
        m.won = self.won[:]
        m.history = self.history[:]
        return m

    def move_to_action(self, move: int) -> dict[str, Any]:
        return {"act": "play", "card": DECK.code_of[move]}

    # ------------------------------------------------------------------ validated path
    def to_act(self) -> list[int]:
        return [] if self.finished else [self.turn]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return [self.move_to_action(c) for c in sorted(self.moves(seat))]

    def _why_not(self, seat: int) -> dict[int, Reason]:
        playable = self._playable(seat)
        suit = DECK.suits[DECK.suit(self.trick[0])] if self.trick else ""
        return {
            c: {"code": "must_follow_suit", "params": {"suit": suit}, "message": "follow suit"}
            for c in self.hands[seat]
            if c not in playable
        }

    def check(self, seat: int, action: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        act = action["act"]
        if act != "play":
            raise refuse("unknown_act", f"'{act}' is not a move in Toy Tricks", act=act[:20])
        code = action.get("card")
        try:
            card = DECK.parse(code)
        except ValueError:
            raise unknown_card(code) from None
        if card not in self.hands[seat]:
            raise not_held(DECK.code_of[card])
        if card not in self._playable(seat):
            why = self._why_not(seat)[card]
            raise refuse(why["code"], why["message"], **why["params"])
        return card, self.move_to_action(card)

    def public_view(self) -> dict[str, Any]:
        v = self._common_view()
        v.update(
            {
                "dealer": self.dealer,
                "phase": "over" if self.finished else "play",
                "leader": self.leader,
                "trick": DECK.codes(self.trick),
                "tricks": [
                    {"leader": t[0], "cards": DECK.codes(t[1:4]), "winner": t[4]}
                    for t in self.history
                ],
                "won": self.won[:],
                "hand_sizes": [len(h) for h in self.hands],
                "suits": {s: SUIT_NAMES[s] for s in DECK.suits},
            }
        )
        return v

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {"seat": seat}
        if seat is not None:
            v["hand"] = DECK.codes(sorted(self.hands[seat]))
        return v
