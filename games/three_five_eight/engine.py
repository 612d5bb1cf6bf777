"""3-5-8 (Sergeant Major): three seats, trick targets 8/5/3, a card exchange after every hand.

Rules: ../shared/rules/three_five_eight.md (with every flag of its "Variants" table).
One record deal = one hand. Cards are ints ``suit * 13 + rank`` (suits S H D C, rank 0 = ace), so
within a suit a lower int is a higher card.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from itertools import combinations
from math import floor  # floor(x) is int(x) for x >= 0, and twice as fast
from typing import Any, ClassVar

from games.core.base import (
    COMMON_REASONS,
    Event,
    Match,
    Reason,
    event,
    not_held,
    note,
    part,
    reason,
    refuse,
    row,
    unknown_card,
)
from games.core.cards import FRENCH51, FRENCH52, SUIT_NAMES, Deck
from games.core.errors import EngineFault, IllegalAction, VariantError
from games.core.hints import gettext_noop, ngettext_lazy
from games.core.sheet_rules import GridField, SheetError, SheetRules, ints, seat
from games.core.variants import Flag

BID, EXCHANGE, TRUMP, DISCARD, PLAY, OVER = range(6)
PHASES = ("bid", "exchange", "trump", "discard", "play", "over")
SUITS = "SHDC"

# (dealer, eldest = dealer's left, other = dealer's right)
TARGETS = {"8-5-3": (8, 5, 3), "9-5-2": (9, 5, 2), "6-3-8": (8, 6, 3)}
# Woburn: bid → (bidder's left, bidder's right)
WOBURN = {
    8: (5, 3),
    9: (4, 3),
    10: (4, 2),
    11: (3, 2),
    12: (2, 2),
    13: (2, 1),
    14: (1, 1),
    15: (1, 0),
    16: (0, 0),
}
NEXT = (1, 2, 0)
SUIT_OF = [c // 13 for c in range(52)]
SEAT_AT = [[(leader + k) % 3 for k in range(3)] for leader in range(3)]  # (leader + offset) % 3
# A card's rank within its suit: the ace 13 … the two 1 (aces are high in 3-5-8).
STRENGTH = [13 - c % 13 for c in range(52)]


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` (an id) takes the trick from ``best``, the card winning it so far (of the
    suit led, or a trump): a higher card of the same suit, or the first trump."""
    if card // 13 == best // 13:
        return STRENGTH[card] > STRENGTH[best]
    return card // 13 == trump


# HIGHER[trump][best][card]: the winner so far once ``card`` is played (``beats`` as a table, so
# the engine's trick costs two lookups; ``winning_index`` and ``trick_winner`` read it too). The
# last table, ``HIGHER[NO_TRUMP]``, is for a trick without trumps.
NO_TRUMP = -1
HIGHER = [
    [[y if beats(y, x, t) else x for y in range(52)] for x in range(52)]
    for t in (*range(4), NO_TRUMP)
]


def winning_index(cards: Sequence[int], trump: int) -> int:
    """Index (in play order) of the card that wins the trick ``cards`` (ids) so far; ``trump``
    is a suit index or ``NO_TRUMP``."""
    higher = HIGHER[trump]
    best = cards[0]
    for card in cards[1:]:
        best = higher[best][card]
    return cards.index(best)


def card_strength(card: str) -> int:
    """A card code's rank within its suit: the ace 13 … the two 1."""
    return STRENGTH[FRENCH52.id_of[card]]


def trick_winner(cards: Sequence[str], trump: str | None) -> int:
    """Index (in play order) of the card codes' winner so far: the highest trump, else the
    highest card of the suit led (``trump`` is a suit letter, or None before it is named)."""
    t = NO_TRUMP if trump is None else SUITS.index(trump)
    return winning_index([FRENCH52.id_of[c] for c in cards], t)


def higher_in_suit(card: str) -> list[str]:
    """The cards of ``card``'s suit that beat it, highest first."""
    mine = FRENCH52.id_of[card]
    lo = mine - mine % 13
    return [FRENCH52.code_of[c] for c in range(lo, mine)]


TRUMP_MOVES = [("trump", s) for s in range(4)]
_PLANS: dict[tuple[Any, ...], list[list[int]]] = {}  # exchange_plan is pure: memoized per input

_PHASE_HINT = {
    BID: "bid a number of tricks or pass",
    EXCHANGE: "the exchange comes first: give cards",
    TRUMP: "the dealer names trump now",
    DISCARD: "the dealer discards 4 cards now",
    PLAY: "play a card",
}
_PHASE_ACTS = {BID: ("bid", "pass"), EXCHANGE: ("give",), TRUMP: ("trump",), DISCARD: ("discard",)}


def seat_targets(dealer: int, table: tuple[int, int, int]) -> list[int]:
    """Targets by seat for a hand dealt by ``dealer``."""
    t = [0, 0, 0]
    t[dealer] = table[0]
    t[(dealer + 1) % 3] = table[1]
    t[(dealer + 2) % 3] = table[2]
    return t


def exchange_plan(
    diff: list[int], new_targets: list[int], priority: str = "new_target", max_bleed: bool = False
) -> list[list[int]]:
    """The passes of an exchange, in their forced order: ``[giver, receiver, count]``.

    Pure so it can be tested on its own; counts capped to 0 by maximum bleed are dropped."""
    ups = [s for s in range(3) if diff[s] > 0]
    downs = [s for s in range(3) if diff[s] < 0]
    if not ups:
        return []
    if len(downs) == 1:
        down = downs[0]
        if priority == "most_up":
            ups.sort(key=lambda s: (-diff[s], -new_targets[s]))
        else:
            ups.sort(key=lambda s: -new_targets[s])
        raw = [[u, down, diff[u]] for u in ups]
    else:
        up = ups[0]
        downs.sort(key=lambda s: new_targets[s])
        raw = [[up, d, -diff[d]] for d in downs]
    if max_bleed:
        given = [0, 0, 0]
        got = [0, 0, 0]
        for p in raw:
            g, r, owed = p
            p[2] = min(owed, 3 - given[g], 3 - got[r])
            given[g] += p[2]
            got[r] += p[2]
    return [p for p in raw if p[2] > 0]


def returns_for(hand: list[int], passed: list[int]) -> list[int]:
    """The cards a down player returns: for each suit, as many of his highest cards of that suit
    (``hand`` already holds the passed cards) as were passed to him in it."""
    ordered = sorted(hand)  # within a suit, a lower id is a higher card
    if len(passed) == 1:
        c = passed[0]
        return [ordered[bisect_left(ordered, c - c % 13)]]
    out: list[int] = []
    starts = sorted([c - c % 13 for c in passed])  # each passed card's suit, in suit order
    i = 0
    n = len(starts)
    while i < n:
        lo = starts[i]
        k = starts.count(lo)
        at = bisect_left(ordered, lo)
        out += ordered[at : at + k]
        i += k
    return out


def sample(cards: list[int], k: int, rng: random.Random) -> tuple[int, ...]:
    """``k`` distinct random cards, uniformly (a partial Fisher-Yates; ``rng.sample`` is several
    times slower for tiny k)."""
    n = len(cards)
    rand = rng.random
    if k == 1:
        return (cards[floor(rand() * n)],)
    pool = cards[:]
    for i in range(k):
        j = i + floor(rand() * (n - i))
        pool[i], pool[j] = pool[j], pool[i]
    return tuple(pool[:k])


def settle_hand(
    won: list[int], targets: list[int], cum: list[int], variant: dict[str, Any]
) -> tuple[list[int], list[int], list[int] | None]:
    """Score a played hand: ``(diff, new cum, match winners or None)``."""
    w0, w1, w2 = won
    d0, d1, d2 = w0 - targets[0], w1 - targets[1], w2 - targets[2]
    diff = [d0, d1, d2]
    cum = [cum[0] + d0, cum[1] + d1, cum[2] + d2]
    winners = None
    if variant.get("fixed_length", False):
        # Exactly its number of hands (duplicate events): neither 12 tricks nor +10 ends the
        # match; the highest balance wins after the last (`_final_winners`). `get`: a state
        # dumped before the flag existed has no such key.
        return diff, cum, None
    if variant["targets"] == "6-3-8":
        best = max(cum)
        if best >= 10 and cum.count(best) == 1:
            winners = [cum.index(best)]
    else:
        need = variant["win_tricks"]
        if w2 >= need:
            winners = [2]
        elif w1 >= need:
            winners = [1]
        elif w0 >= need:
            winners = [0]
    return diff, cum, winners


class ThreeFiveEightSheet(SheetRules):
    """A sheet deal: ``{"scores": [tricks...]}``; with Woburn bidding the first hand played
    also says ``"bid": N, "dealer": SEAT`` (the high bidder). The running balance across hands
    decides the match (won at 12 tricks in a hand, or at +10 in 6-3-8)."""

    EXAMPLE: ClassVar[dict[str, Any]] = {"deals": [{"scores": [10, 2, 4]}, {"scores": [12, 3, 1]}]}

    def __init__(self, variant: dict[str, Any], display_name: str) -> None:
        super().__init__(variant, display_name)
        self.cum = [0, 0, 0]
        self.played = False  # Woburn bidding decides the first hand actually played
        self.rows_played = False  # the same, for the grid rows converted so far

    def tricks_per_hand(self) -> int:
        return 17 if self.variant["targets"] == "6-3-8" else 16

    def thrown_in(self) -> None:
        if not self.variant["woburn_bidding"] or self.played:
            raise SheetError(
                "only a Woburn auction where everyone passed throws a hand in", field="thrown_in"
            )

    def deal(self, deal: dict[str, Any], dealer: int) -> tuple[list[int], list[int], int]:
        v = self.variant
        tricks = ints(deal.get("scores"), 3, "scores (tricks taken)")
        six = v["targets"] == "6-3-8"
        total = self.tricks_per_hand()
        for s, t in enumerate(tricks):
            if not 0 <= t <= total:
                raise SheetError(
                    f"tricks taken are from 0 to {total} (seat {s} has {t})", field="tricks", seat=s
                )
        if sum(tricks) != total:
            raise SheetError(
                f"tricks taken must add up to {total} (these add up to {sum(tricks)})",
                field="tricks",
            )
        table = TARGETS[v["targets"]]
        if v["woburn_bidding"] and not self.played:
            bid = deal.get("bid")
            if isinstance(bid, bool) or not isinstance(bid, int) or not 8 <= bid <= 16:
                raise SheetError("the Woburn hand needs the winning bid (8 to 16)", field="bid")
            dealer = seat(deal.get("dealer"), 3, "dealer (the high bidder)", field="high_bidder")
            table = (bid, *WOBURN[bid])
        self.played = True
        targets = seat_targets(dealer, table)
        diff = [t - g for t, g in zip(tricks, targets, strict=True)]
        self.cum = [c + d for c, d in zip(self.cum, diff, strict=True)]
        if v["fixed_length"]:
            return tricks, diff, dealer  # exactly its number of hands: the highest balance wins
        if six:
            best = max(self.cum)
            leaders = [i for i in range(3) if self.cum[i] == best]
            if best >= 10 and len(leaders) == 1:
                self.winner = leaders[0]
        elif max(tricks) >= v["win_tricks"]:
            self.winner = tricks.index(max(tricks))
        return tricks, diff, dealer

    def winners(self, scores: list[int], payouts: list[int]) -> list[int]:
        if self.winner is not None:
            return [self.winner]
        best = max(self.cum)
        return [i for i, c in enumerate(self.cum) if c == best]

    def grid(self) -> list[GridField]:
        """Tricks taken per seat; with Woburn bidding a hand may be thrown in, and the first hand
        played records the winning bid and the high bidder (who deals it)."""
        total = self.tricks_per_hand()
        played: tuple[tuple[str, Any], ...] = ()
        fields = []
        if self.variant["woburn_bidding"]:
            fields.append(
                GridField(
                    "thrown_in",
                    gettext_noop("Thrown in"),
                    "bool",
                    help=gettext_noop("everyone passed in the Woburn auction"),
                )
            )
            played = (("thrown_in", False),)
        fields.append(
            GridField(
                "tricks",
                gettext_noop("Tricks taken"),
                "int",
                per_seat=True,
                min=0,
                max=total,
                sum=total,
                when=played,
            )
        )
        if self.variant["woburn_bidding"]:
            fields += [
                GridField(
                    "bid",
                    gettext_noop("Winning bid"),
                    "int",
                    min=8,
                    max=16,
                    optional=True,
                    when=played,
                    help=gettext_noop("the first hand played only"),
                ),
                GridField(
                    "high_bidder",
                    gettext_noop("High bidder"),
                    "seat",
                    optional=True,
                    when=played,
                    help=gettext_noop("the first hand played only: the high bidder deals it"),
                ),
            ]
        return fields

    def from_row(self, row: dict[str, Any]) -> dict[str, Any]:
        if row.get("thrown_in"):
            if self.rows_played:
                raise SheetError(
                    "only a Woburn auction where everyone passed throws a hand in, before the "
                    "first hand played",
                    field="thrown_in",
                )
            return {"thrown_in": True}
        deal: dict[str, Any] = {"scores": row["tricks"]}
        if self.variant["woburn_bidding"]:
            if not self.rows_played:
                for name in ("bid", "high_bidder"):
                    if row.get(name) is None:
                        raise SheetError("the first hand played needs it", field=name)
                deal.update(bid=row["bid"], dealer=row["high_bidder"])
            else:
                for name in ("bid", "high_bidder"):
                    if row.get(name) is not None:
                        raise SheetError(
                            "only the first hand played has a Woburn auction: leave it blank",
                            field=name,
                        )
        self.rows_played = True
        return deal


class ThreeFiveEightMatch(Match):
    """A 3-5-8 match; one deal is one hand, the match ends on 12+ tricks (or +10 in 6-3-8)."""

    GAME = "three_five_eight"
    DISPLAY = "3-5-8 (Sergeant Major)"
    NAMES = {"ja": "3-5-8（サージェント・メジャー）"}  # noqa: RUF001 (Japanese brackets)
    SEATS = 3
    SHEET = ThreeFiveEightSheet
    GOAL = gettext_noop(  # translated where shown (the table's goal line)
        "Take your target of tricks (dealer 8, left 5, right 3): "
        "each trick over it wins a point, each trick short loses one."
    )
    # A payout as the game analysis names it (docs/bots.md, "Game analysis")
    PAYOUT_UNIT = ngettext_lazy("%(n)s trick", "%(n)s tricks")
    # The Match table's legend: what a deal's score and payout mean, who wins (English)
    LEGEND = {
        "unit": gettext_noop("tricks"),
        "score": gettext_noop("Score: the tricks taken in the hand."),
        "payout": gettext_noop(
            "Payout: the tricks taken less the target (dealer 8, left 5, right 3); the total is "
            "the running balance."
        ),
        "winner": gettext_noop(
            "A hand of 12 tricks (or as many as the table's variant sets) wins at once; "
            "otherwise the highest balance wins (6-3-8: the first alone at +10)."
        ),
    }
    HINTS = {
        "target": gettext_noop(
            "The tricks this seat must take this hand: the dealer the most, the dealer's right "
            "the fewest. Each trick over the target wins a stake, each trick short pays one."
        ),
        "balance": gettext_noop(
            "Tricks over (+) or under (-) target, added up hand after hand. A hand of 12 tricks "
            "wins the game at once; otherwise the highest balance wins."
        ),
        "act.trump": gettext_noop(
            "The dealer chooses trumps for this hand: a trump beats every card of the other "
            "suits. There is no no-trump."
        ),
        "act.bid": gettext_noop(
            "Woburn bidding (first hand only): bid the tricks you will take. The highest bidder "
            "plays the dealer's part with the bid as his target."
        ),
        "act.give": gettext_noop(
            "The exchange: a player who was up last hand passes one card for each trick he was "
            "up, and gets back the receiver's highest card of that suit for each."
        ),
        "act.discard": gettext_noop(
            "The kitty: the dealer lays 4 cards face down out of play and takes the 4 kitty "
            "cards (or takes them first, then lays out 4)."
        ),
    }
    FLAGS = (
        Flag(
            "targets",
            "choice",
            "8-5-3",
            choices=("8-5-3", "9-5-2", "6-3-8"),
            help=gettext_noop(
                "dealer-eldest-other targets; 6-3-8 drops the 2 of clubs and is won at +10"
            ),
            label=gettext_noop("Targets"),
        ),
        Flag(
            "kitty_mode",
            "choice",
            "discard_then_take",
            choices=("discard_then_take", "take_then_discard"),
            help=gettext_noop(
                "discard 4 of 16 then take the kitty, or take it and discard 4 of 20"
            ),
            label=gettext_noop("Kitty"),
            labels={
                "discard_then_take": gettext_noop("discard 4, then take it"),
                "take_then_discard": gettext_noop("take it, then discard 4"),
            },
        ),
        Flag(
            "win_tricks",
            "int",
            12,
            min=10,
            max=16,
            help=gettext_noop("tricks in one hand that win the game"),
            label=gettext_noop("Tricks in one hand that win"),
        ),
        Flag(
            "exchange_priority",
            "choice",
            "new_target",
            choices=("new_target", "most_up"),
            help=gettext_noop("who gives first when two players are up"),
            label=gettext_noop("First to give when two are up"),
            labels={
                "new_target": gettext_noop("the higher new target"),
                "most_up": gettext_noop("the one more up"),
            },
        ),
        Flag(
            "woburn_bidding",
            "bool",
            False,
            help=gettext_noop("first hand: bidding for the dealer's seat"),
            label=gettext_noop("Woburn bidding"),
        ),
        Flag(
            "max_bleed",
            "bool",
            False,
            help=gettext_noop("nobody passes or receives more than 3 cards"),
            label=gettext_noop("At most 3 cards exchanged"),
        ),
        Flag(
            "fixed_length",
            "bool",
            False,
            help=gettext_noop(
                "the match is exactly its number of hands: neither 12 tricks nor +10 ends it"
            ),
            label=gettext_noop("Fixed number of hands"),
        ),
    )
    STATE = (
        "cum",
        "prev_diff",
        "played_any",
        "hands",
        "kitty",
        "kitty_taken",
        "discards",
        "hdealer",
        "targets",
        "phase",
        "turn",
        "trump",
        "bids",
        "passed",
        "high",
        "high_seat",
        "plan",
        "passes",
        "trick",
        "leader",
        "won",
        "tricks",
    )
    __slots__ = STATE

    cum: list[int]
    prev_diff: list[int] | None
    played_any: bool
    hands: list[list[int]]
    kitty: list[int]
    kitty_taken: bool
    discards: list[int]
    hdealer: int
    targets: list[int]
    phase: int
    turn: int
    trump: int
    bids: list[list[int]]
    passed: list[bool]
    high: int
    high_seat: int
    plan: list[list[int]]
    passes: list[list[Any]]
    trick: list[int]
    leader: int
    won: list[int]
    tricks: list[list[int]]

    # ------------------------------------------------------------------ setup
    @classmethod
    def check_variant(cls, variant: dict[str, Any]) -> None:
        if variant["woburn_bidding"] and variant["targets"] == "6-3-8":
            raise VariantError("woburn_bidding cannot be combined with targets 6-3-8")

    @classmethod
    def duplicate_problem(cls, variant: dict[str, Any]) -> str | None:
        """Woburn bidding makes the high bidder deal (play decides the dealer); without
        ``fixed_length`` a hand of 12 tricks (6-3-8: +10) ends a match early."""
        if variant["woburn_bidding"]:
            return gettext_noop(
                "Woburn bidding lets the auction decide who deals, so the tables of a section "
                "would not deal alike: duplicate needs it off."
            )
        if not variant["fixed_length"]:
            return gettext_noop(
                "A hand of 12 tricks (or +10 in 6-3-8) ends a match early, so the tables of a "
                "section would not play the same number of hands: duplicate needs a fixed "
                "number of hands."
            )
        return None

    @classmethod
    def deck_for(cls, variant: dict[str, Any]) -> Deck:
        return FRENCH51 if variant["targets"] == "6-3-8" else FRENCH52

    @classmethod
    def sizes_for(cls, variant: dict[str, Any]) -> tuple[tuple[int, ...], int]:
        if variant["targets"] == "6-3-8":
            return (17, 17, 17), 0
        return (16, 16, 16), 4

    def _init_state(self) -> None:
        self.cum = [0, 0, 0]
        self.prev_diff = None
        self.played_any = False

    def _setup_deal(self, hands: list[list[int]], stock: list[int]) -> None:
        for h in hands:
            h.sort()  # hands stay sorted: a suit is a contiguous slice (see _plays)
        self._setup_sorted(hands, stock)

    def redeal(self, rng: random.Random) -> None:
        """``Match.redeal`` without its generic deck cutting (same shuffle, same deals, the
        record keeps the dealt order): the benchmark and bots' rollouts deal once per playout."""
        if self.log[-1][2]:
            raise EngineFault("redeal after the deal has begun")
        if self.variant["targets"] == "6-3-8":
            cards = FRENCH51.shuffled(rng)
            n = 17  # no stock
        else:
            cards = FRENCH52.shuffled(rng)
            n = 16  # and a stock of 4
        h0, h1, h2, stock = cards[0:n], cards[n : 2 * n], cards[2 * n : 3 * n], cards[3 * n :]
        self.log[-1] = [[h0, h1, h2], stock, []]
        self._setup_sorted([sorted(h0), sorted(h1), sorted(h2)], stock[:])

    def _setup_sorted(self, hands: list[list[int]], stock: list[int]) -> None:
        v = self.variant
        d = self.dealer
        self.hands = hands
        self.kitty = stock
        self.kitty_taken = False
        self.discards = []
        self.hdealer = d
        self.targets = seat_targets(d, TARGETS[v["targets"]])
        self.trump = -1
        self.bids = []
        self.passed = [False, False, False]
        self.high = 0
        self.high_seat = -1
        self.plan = []
        self.passes = []
        self.trick = []
        self.leader = (d + 1) % 3
        self.won = [0, 0, 0]
        self.tricks = []
        if v["woburn_bidding"] and not self.played_any:
            self.phase = BID
            self.turn = d
            return
        if self.prev_diff is not None:
            key = (*self.prev_diff, d, v["targets"], v["exchange_priority"], v["max_bleed"])
            plan = _PLANS.get(key)
            if plan is None:
                # Shared, never changed (``plan[1:]`` when a pass is made, like clone's sharing).
                plan = _PLANS[key] = exchange_plan(
                    self.prev_diff, self.targets, v["exchange_priority"], v["max_bleed"]
                )
            self.plan = plan
        if self.plan:
            self.phase = EXCHANGE
            self.turn = self.plan[0][0]
        else:
            self.phase = TRUMP
            self.turn = d

    @property
    def total_tricks(self) -> int:
        return 17 if self.variant["targets"] == "6-3-8" else 16

    def _partial(self) -> dict[str, Any]:
        return {"dealer": self.hdealer, "scores": self.won[:], "payouts": [0, 0, 0]}

    def _final_winners(self) -> list[int]:
        best = max(self.cum)
        return [seat for seat, total in enumerate(self.cum) if total == best]

    PHASES = tuple(p for p in PHASES if p != "over")
    SUMMARY_CODES = frozenset(
        {"tricks", "target", "thrown_in"} | {"woburn", "trump", "targets", "balance"}  # + notes
    )

    def _deal_table(self) -> list[dict[str, Any]]:
        if not self.tricks:  # a Woburn auction everybody passed
            return []
        return [row("target", "Target", self.targets), row("tricks", "Tricks taken", self.won)]

    def _summarize(self, scores: list[int], payouts: list[int]) -> dict[str, Any]:
        """Score: the tricks taken. Payout: the tricks taken less the seat's target."""
        if not self.tricks:  # a Woburn auction everybody passed
            nothing = part("thrown_in", "Everybody passed: the hand is thrown in", 0)
            return {
                "kind": "thrown_in",
                "notes": [],
                "score_parts": [[dict(nothing)] for _ in range(3)],
                "payout_parts": [[dict(nothing)] for _ in range(3)],
            }
        d = self.hdealer
        roles = {d: "dealer", (d + 1) % 3: "left", (d + 2) % 3: "right"}
        where = {
            "dealer": "the dealer",
            "left": "left of the dealer",
            "right": "right of the dealer",
        }
        notes = []
        if self.high_seat >= 0:
            notes.append(
                note(
                    "woburn",
                    f"Seat {self.high_seat} won the auction: a target of {self.high} tricks",
                    seat=self.high_seat,
                    tricks=self.high,
                )
            )
        suit = SUITS[self.trump]
        targets = self.targets
        notes += [
            note("trump", f"Trump: {SUIT_NAMES[suit]}", suit=suit),
            note(
                "targets",
                "Targets: " + ", ".join(f"seat {i} {t}" for i, t in enumerate(targets)),
                targets=targets[:],
                dealer=d,
            ),
            note(
                "balance",
                "Balance after this hand: "
                + ", ".join(f"seat {i} {c:+d}" for i, c in enumerate(self.cum)),
                balance=self.cum[:],
            ),
        ]
        score_parts, payout_parts = [], []
        for s in range(3):
            won, target, role = self.won[s], targets[s], roles[s]
            taken = part("tricks", f"{won} tricks taken", won, tricks=won)
            score_parts.append([taken])
            short = part(
                "target",
                f"less the target of {target} ({where[role]})",
                -target,
                target=target,
                role=role,
            )
            payout_parts.append([dict(taken), short])
        return {
            "kind": "hand",
            "notes": notes,
            "score_parts": score_parts,
            "payout_parts": payout_parts,
        }

    # ------------------------------------------------------------------ fast path
    def actor(self) -> int:
        return self.turn  # -1 once the match is over

    def _plays(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        trick = self.trick
        if not trick:
            return hand[:]
        led = trick[0] // 13 * 13
        return hand[bisect_left(hand, led) : bisect_left(hand, led + 13)] or hand[:]

    def moves(self, seat: int) -> list[Any]:
        """Compact moves: a card int for a play; tuples for the rest. Multi-card choices are
        expanded into every combination (large: prefer ``random_move`` in playouts)."""
        if self.finished or seat != self.turn:
            return []
        phase = self.phase
        if phase == PLAY:
            return self._plays(seat)
        if phase == TRUMP:
            return [("trump", s) for s in range(4)]
        hand = sorted(self.hands[seat])
        if phase == DISCARD:
            return [("discard", c) for c in combinations(hand, 4)]
        if phase == EXCHANGE:
            _, to, k = self.plan[0]
            return [("give", to, c) for c in combinations(hand, k)]
        return [("pass",)] + [("bid", n) for n in range(max(8, self.high + 1), 17)]

    def random_move(self, seat: int, rng: random.Random, _bisect: Any = bisect_left) -> Any:
        # Hot path (bots' playouts): literals instead of globals, bisect bound as a default.
        if self.phase == 4:  # PLAY
            hand = self.hands[seat]
            trick = self.trick
            if trick:
                led = trick[0] // 13 * 13
                lo = _bisect(hand, led)
                n = _bisect(hand, led + 13, lo) - lo
                if n:
                    return hand[lo + floor(rng.random() * n)]
            return hand[floor(rng.random() * len(hand))]
        phase = self.phase
        if phase == TRUMP:
            return TRUMP_MOVES[floor(rng.random() * 4)]
        if phase == DISCARD:
            return ("discard", sample(self.hands[seat], 4, rng))
        if phase == EXCHANGE:
            _, to, k = self.plan[0]
            return ("give", to, sample(self.hands[seat], k, rng))
        return rng.choice(self.moves(seat))

    def play(self, seat: int, move: Any, ev: list[Event] | None = None) -> None:
        if type(move) is not int:
            self._play_other(seat, move, ev)
            return
        self.hands[seat].remove(move)
        trick = self.trick
        trick.append(move)
        if ev is not None:
            ev.append(event("play", seat=seat, card=FRENCH52.code_of[move]))
        if len(trick) < 3:
            self.turn = NEXT[seat]
            return
        # Trick complete: ``winning_index`` unrolled (the hot path of every playout).
        a, b, c = trick
        higher = HIGHER[self.trump]
        leader = self.leader
        w = SEAT_AT[leader][trick.index(higher[higher[a][b]][c])]
        self.won[w] += 1
        self.tricks.append([leader, a, b, c, w])
        self.trick = []
        self.leader = self.turn = w
        if ev is not None:
            ev.append(event("trick", leader=leader, cards=FRENCH52.codes(trick), winner=w))
        if not self.hands[w]:  # every hand empties on the same trick
            self._end_hand(ev)

    def _play_other(self, seat: int, move: tuple, ev: list[Event] | None) -> None:
        kind = move[0]
        code = FRENCH52.code_of
        if kind == "trump":
            self.trump = move[1]
            if ev is not None:
                ev.append(event("trump", seat=seat, suit=SUITS[move[1]]))
            if self.variant["targets"] == "6-3-8":
                self._start_play()
            else:
                if self.variant["kitty_mode"] == "take_then_discard":
                    self._take_kitty(ev)
                self.phase = DISCARD
        elif kind == "discard":
            hand = self.hands[seat]
            for c in move[1]:
                hand.remove(c)
            self.discards = list(move[1])
            if ev is not None:
                ev.append(event("discard", [seat], seat=seat, cards=[code[c] for c in move[1]]))
                ev.append(event("discarded", seat=seat, count=len(move[1])))
            if not self.kitty_taken:
                self._take_kitty(ev)
            self._start_play()
        elif kind == "give":
            self._give(seat, move[1], list(move[2]), ev)
        elif kind == "bid" or kind == "pass":
            self._bid(seat, move[1] if kind == "bid" else 0, ev)
        else:
            raise EngineFault(f"unknown move {move!r}")

    def _take_kitty(self, ev: list[Event] | None) -> None:
        # A forced move, not an action: the dealer picks up the kitty.
        hand = self.hands[self.hdealer]
        hand += self.kitty
        hand.sort()
        self.kitty_taken = True
        if ev is not None:
            ev.append(event("kitty", [self.hdealer], seat=self.hdealer, cards=self._c(self.kitty)))
            ev.append(event("kitty_taken", seat=self.hdealer, count=len(self.kitty)))

    def _start_play(self) -> None:
        self.phase = PLAY
        self.leader = self.turn = (self.hdealer + 1) % 3

    def _give(self, giver: int, to: int, cards: list[int], ev: list[Event] | None) -> None:
        hg = self.hands[giver]
        hr = self.hands[to]
        for c in cards:
            hg.remove(c)
        hr += cards
        back = returns_for(hr, cards)  # forced: made by the engine
        for c in back:
            hr.remove(c)
        hg += back
        hg.sort()
        hr.sort()
        self.passes.append([giver, to, cards, back])
        self.plan = self.plan[1:]
        if ev is not None:
            parties = [giver, to]
            ev.append(event("give", parties, seat=giver, to=to, cards=self._c(cards)))
            ev.append(event("return", parties, seat=to, to=giver, cards=self._c(back)))
            ev.append(event("passed", seat=giver, to=to, count=len(cards)))
        if self.plan:
            self.turn = self.plan[0][0]
        else:
            self.phase = TRUMP
            self.turn = self.hdealer

    def _bid(self, seat: int, tricks: int, ev: list[Event] | None) -> None:
        self.bids.append([seat, tricks])
        if tricks:
            self.high = tricks
            self.high_seat = seat
        else:
            self.passed[seat] = True
        if ev is not None:
            if tricks:
                ev.append(event("bid", seat=seat, tricks=tricks))
            else:
                ev.append(event("pass", seat=seat))
        npassed = sum(self.passed)
        if npassed == 3:
            # Everybody passed: the hand is thrown in; the next dealer deals, bidding again.
            self.phase = OVER
            self.prev_diff = None
            if ev is not None:
                ev.append(event("thrown_in", dealer=self.dealer))
            self._end_deal(self.dealer, [0, 0, 0], [0, 0, 0], ev)
            if self.finished:
                self.turn = -1
        elif self.high_seat >= 0 and npassed == 2:
            hs = self.high_seat
            left, right = WOBURN[self.high]
            self.hdealer = hs
            self.targets = seat_targets(hs, (self.high, left, right))
            self.phase = TRUMP
            self.turn = hs
            self.leader = (hs + 1) % 3
            if ev is not None:
                ev.append(event("declarer", seat=hs, tricks=self.high, targets=self.targets[:]))
        else:
            t = NEXT[seat]
            while self.passed[t]:
                t = NEXT[t]
            self.turn = t

    def _end_hand(self, ev: list[Event] | None) -> None:
        diff, self.cum, winners = settle_hand(self.won, self.targets, self.cum, self.variant)
        self.prev_diff = diff
        self.played_any = True
        self.phase = OVER
        self._end_deal(self.hdealer, self.won[:], diff, ev, winners)
        if self.finished:
            self.turn = -1

    def clone(self) -> ThreeFiveEightMatch:
        m = ThreeFiveEightMatch.__new__(ThreeFiveEightMatch)
        self._copy_common(m)
        m.cum = self.cum[:]
        m.prev_diff = self.prev_diff
        m.played_any = self.played_any
        h = self.hands
        m.hands = [h[0][:], h[1][:], h[2][:]]
        m.kitty = self.kitty
        m.kitty_taken = self.kitty_taken
        m.discards = self.discards
        m.hdealer = self.hdealer
        m.targets = self.targets[:]
        m.phase = self.phase
        m.turn = self.turn
        m.trump = self.trump
        m.bids = self.bids[:]
        m.passed = self.passed[:]
        m.high = self.high
        m.high_seat = self.high_seat
        m.plan = self.plan
        m.passes = self.passes[:]
        m.trick = self.trick[:]
        m.leader = self.leader
        m.won = self.won[:]
        m.tricks = self.tricks[:]
        return m

    def move_to_action(self, move: Any) -> dict[str, Any]:
        code = FRENCH52.code_of
        if type(move) is int:
            return {"act": "play", "card": code[move]}
        kind = move[0]
        if kind == "trump":
            return {"act": "trump", "suit": SUITS[move[1]]}
        if kind == "discard":
            return {"act": "discard", "cards": [code[c] for c in move[1]]}
        if kind == "give":
            return {"act": "give", "to": move[1], "cards": [code[c] for c in move[2]]}
        if kind == "bid":
            return {"act": "bid", "tricks": move[1]}
        return {"act": "pass"}

    # ------------------------------------------------------------------ validated path
    def _c(self, cards: list[int]) -> list[str]:
        return FRENCH52.codes(cards)

    def to_act(self) -> list[int]:
        return [] if self.finished else [self.turn]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        if self.finished or seat != self.turn:
            return []
        phase = self.phase
        if phase == PLAY:
            return [{"act": "play", "card": c} for c in self._c(sorted(self._plays(seat)))]
        if phase == TRUMP:
            return [{"act": "trump", "suit": s} for s in SUITS]
        hand = self._c(sorted(self.hands[seat]))
        if phase == DISCARD:
            return [{"act": "discard", "choose": 4, "from": hand}]
        if phase == EXCHANGE:
            _, to, k = self.plan[0]
            return [{"act": "give", "to": to, "choose": k, "from": hand}]
        return [{"act": "pass"}] + [
            {"act": "bid", "tricks": n} for n in range(max(8, self.high + 1), 17)
        ]

    def _card(self, seat: int, code: Any) -> int:
        deck = self.deck_for(self.variant)
        try:
            card = deck.parse(code)
        except ValueError:
            raise unknown_card(code) from None
        if card not in self.hands[seat]:
            raise not_held(deck.code_of[card])
        return card

    def _cards(self, seat: int, codes: Any, n: int, what: str) -> list[int]:
        if not isinstance(codes, list):
            raise refuse("cards_not_a_list", f"{what}: 'cards' must be a list of cards")
        cards = [self._card(seat, c) for c in codes]
        if len(set(cards)) != len(cards):
            raise refuse("same_card_twice", f"{what}: the same card twice")
        if len(cards) != n:
            raise refuse(
                "wrong_card_count",
                f"{what} exactly {n} card{'s' if n != 1 else ''}",
                expected=n,
                count=len(cards),
            )
        return cards

    # ------------------------------------------------------------------ reasons
    # Only the play has a rule on which card: follow suit. The kitty discard and the exchange
    # take any cards of the hand (the returns are the engine's), so their why_not is empty.
    REASONS = COMMON_REASONS | {
        "must_follow_suit",
        "wrong_recipient",
        "no_such_suit",
        "bid_out_of_range",
        "bid_too_low",
    }

    def _follow_reason(self, led: int) -> Reason:
        return reason("must_follow_suit", f"must follow suit {SUITS[led]}", suit=SUITS[led])

    def _why_not(self, seat: int) -> dict[int, Reason] | None:
        phase = self.phase
        if phase in (BID, TRUMP):
            return None  # no card is chosen
        trick = self.trick
        if phase != PLAY or not trick:
            return {}
        hand = self.hands[seat]  # sorted: the suit led is one slice
        led = trick[0] // 13
        lo = bisect_left(hand, led * 13)
        hi = bisect_left(hand, led * 13 + 13, lo)
        if lo == hi:
            return {}  # void in the suit led: any card
        why = self._follow_reason(led)
        return dict.fromkeys(hand[:lo] + hand[hi:], why)

    def check(self, seat: int, action: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        act = action["act"]
        phase = self.phase
        if act not in _PHASE_ACTS.get(phase, ("play",)):
            raise refuse(
                "wrong_phase",
                f"wrong phase: {_PHASE_HINT[phase]}",
                phase=PHASES[phase],
                acts=list(_PHASE_ACTS.get(phase, ("play",))),
            )
        if phase == PLAY:
            card = self._card(seat, action.get("card"))
            trick = self.trick
            if trick:
                led = trick[0] // 13
                if card // 13 != led and any(c // 13 == led for c in self.hands[seat]):
                    raise IllegalAction.because(self._follow_reason(led))
            return card, {"act": "play", "card": FRENCH52.code_of[card]}
        if phase == TRUMP:
            suit = action.get("suit")
            if not isinstance(suit, str) or suit not in SUITS or len(suit) != 1:
                raise refuse(
                    "no_such_suit",
                    "name a suit: S, H, D or C (no-trump is not allowed)",
                    suits=list(SUITS),
                )
            return ("trump", SUITS.index(suit)), {"act": "trump", "suit": suit}
        if phase == DISCARD:
            cards = self._cards(seat, action.get("cards"), 4, "discard")
            return ("discard", tuple(cards)), {"act": "discard", "cards": self._c(cards)}
        if phase == EXCHANGE:
            _, to, k = self.plan[0]
            if action.get("to") != to or isinstance(action.get("to"), bool):
                raise refuse("wrong_recipient", f"you must give to seat {to} now", to=to)
            cards = self._cards(seat, action.get("cards"), k, "give")
            return ("give", to, tuple(cards)), {"act": "give", "to": to, "cards": self._c(cards)}
        # BID
        if act == "pass":
            return ("pass",), {"act": "pass"}
        tricks = action.get("tricks")
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not 8 <= tricks <= 16:
            raise refuse(
                "bid_out_of_range", "a bid is a number of tricks from 8 to 16", min=8, max=16
            )
        if tricks <= self.high:
            raise refuse("bid_too_low", f"bid more than {self.high}", high=self.high)
        return ("bid", tricks), {"act": "bid", "tricks": tricks}

    def public_view(self) -> dict[str, Any]:
        v = self._common_view()
        c = self._c
        v.update(
            {
                "dealer": self.hdealer,
                "dealt_by": self.dealer,
                "phase": "over" if self.finished else PHASES[self.phase],
                "targets": self.targets[:],
                "tricks_won": self.won[:],
                "cum": self.cum[:],
                "trump": None if self.trump < 0 else SUITS[self.trump],
                "hand_sizes": [len(h) for h in self.hands],
                "bids": [
                    {"seat": s, "act": "bid", "tricks": n} if n else {"seat": s, "act": "pass"}
                    for s, n in self.bids
                ],
                "leader": self.leader,
                "trick": [
                    {"seat": (self.leader + i) % 3, "card": FRENCH52.code_of[x]}
                    for i, x in enumerate(self.trick)
                ],
                "played": [
                    {"leader": t[0], "cards": c(t[1:4]), "winner": t[4]} for t in self.tricks
                ],
                "suits": {s: SUIT_NAMES[s] for s in SUITS},
            }
        )
        return v

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        # The kitty, the discards and the exchange show their cards to some seats only.
        c = self._c
        dealer_sees = seat is not None and seat == self.hdealer
        v: dict[str, Any] = {
            "seat": seat,
            "kitty": {
                "size": len(self.kitty),
                "taken": self.kitty_taken,
                "cards": c(self.kitty) if dealer_sees and self.kitty_taken else None,
            },
            "discards": {
                "count": len(self.discards),
                "cards": c(self.discards) if dealer_sees else None,
            },
            "exchange": {
                "pending": [{"from": g, "to": r, "count": k} for g, r, k in self.plan],
                "passes": [
                    {
                        "from": g,
                        "to": r,
                        "count": len(given),
                        "cards": c(given) if seat in (g, r) else None,
                        "returned": c(back) if seat in (g, r) else None,
                    }
                    for g, r, given, back in self.passes
                ],
            },
        }
        if seat is not None:
            v["hand"] = c(sorted(self.hands[seat]))
        return v
