"""Mediatore: four seats, an auction for five contracts, a secret partner in Chiamo, no trumps.

Rules: ../shared/rules/mediatore.md (with every flag of its "Variants" table). One record deal =
one deal (a thrown-in deal too). Seats are numbered in play order (anticlockwise at the table), so
the eldest is ``dealer + 1``. Cards are ints ``suit * 10 + rank`` of the Italian 40 deck (suits
d c s b, ranks 3 2 A R C F 7 6 5 4), so within a suit a lower int is a higher card.

Hidden information is the point of this game: the monte, the new monte, the card given back and —
in Chiamo — who holds the called card (or that nobody does) must not leak through a view, an event
or a message before the rules reveal them. The state holds them; ``view`` and the events filter.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from math import floor  # floor(x) is int(x) for x >= 0, and twice as fast
from typing import Any, ClassVar

from games.core.base import (
    COMMON_REASONS,
    Event,
    Match,
    Reason,
    divide,
    event,
    not_held,
    note,
    part,
    reason,
    refuse,
    row,
    unknown_card,
)
from games.core.cards import ITALIAN40, SUIT_NAMES, Deck
from games.core.errors import EngineFault, IllegalAction
from games.core.hints import gettext_noop, ngettext_lazy
from games.core.sheet_rules import GridField, SheetError, SheetRules, seat
from games.core.variants import Flag

DECK = ITALIAN40
AUCTION, CALL, DISCARD, EXCHANGE, PLAY, OVER = range(6)
PHASES = ("auction", "call", "discard", "exchange", "play", "over")
SUITS = "dcsb"
NEXT = (1, 2, 3, 0)

CHIAMO, MEDIATORE, SOLO, SOLISSIMO, ARCISOLISSIMO = range(5)
CONTRACTS = ("chiamo", "mediatore", "solo", "solissimo", "arcisolissimo")

# Card points in thirds: A = 3; 3, 2, R, C, F = 1; 7 6 5 4 = 0 (ranks in code order 3 2 A R C F …).
_RANK_THIRDS = (1, 1, 3, 1, 1, 1, 0, 0, 0, 0)
THIRDS = [_RANK_THIRDS[c % 10] for c in range(40)]
LAST_TRICK = 3  # thirds for the last trick
TOTAL_THIRDS = 35
LOW_RANK = 3  # R or lower: rank index 3 (R) … 9 (4)
THREES = (0, 10, 20, 30)

# A play move is ``card + 40 * signal`` (signal 0 = none).
SIGNALS = (None, "busso", "volo", "striscio", "busso+volo", "busso+striscio")
SIGNAL_CODE = {s: i for i, s in enumerate(SIGNALS) if s}
# Which claim a signal makes: 0 none (busso is always true), 1 volo, 2 striscio.
SIGNAL_CLAIM = (0, 0, 1, 2, 1, 2)

# Bit masks of hands (kept during play): a suit's cards, its cards ranked R or lower, and
# FOLLOW[suit][mask & SUIT_MASK[suit]] = the tuple of those cards (follow sets without a scan).
BIT = [1 << c for c in range(40)]
SUIT_MASK = [0x3FF << (10 * s) for s in range(4)]
LOW_MASK = [sum(1 << (10 * s + r) for r in range(LOW_RANK, 10)) for s in range(4)]
FOLLOW: list[dict[int, tuple[int, ...]]] = [
    {k << (10 * s): tuple(10 * s + r for r in range(10) if k >> r & 1) for k in range(1 << 10)}
    for s in range(4)
]
# For random_move: the same tuples with their lengths, all suits in one dict (keys are disjoint).
FOLLOW_ANY = {k: (v, len(v)) for table in FOLLOW for k, v in table.items()}
SUIT_OF = [c // 10 for c in range(40)]
SUIT_MASK_OF = [SUIT_MASK[c // 10] for c in range(40)]  # the suit a card's followers come from
THIRDS2 = [[THIRDS[a] + THIRDS[b] for b in range(40)] for a in range(40)]  # two cards' thirds
BID_MOVES = [("bid", c) for c in range(5)]
# A card's rank within its suit: the 3 10, the 2 9, the ace 8 … the 4 1 (no trumps).
STRENGTH = [10 - c % 10 for c in range(40)]


def beats(card: int, best: int) -> bool:
    """Whether ``card`` (an id) takes the trick from ``best``, the card winning it so far (of the
    suit led): only a higher card of the same suit does."""
    return card // 10 == best // 10 and STRENGTH[card] > STRENGTH[best]


# HIGHER[best][card]: the winner so far once ``card`` is played (``beats`` as a table, so the
# engine's trick costs three lookups; ``winning_index`` and ``trick_winner`` read it too).
HIGHER = [[y if beats(y, x) else x for y in range(40)] for x in range(40)]
SEAT_AT = [[(leader + k) % 4 for k in range(4)] for leader in range(4)]  # (leader + offset) % 4
OTHERS = [SUIT_MASK[c // 10] & ~(1 << c) for c in range(40)]  # the rest of a card's suit
LOWS = [LOW_MASK[c // 10] for c in range(40)]
_PASS = ("pass",)

_PHASE_HINT = {
    AUCTION: "bid a contract or pass",
    CALL: "the declarer calls a card now",
    DISCARD: "the declarer discards 4 cards now",
    EXCHANGE: "the declarer discards 4 cards and gives 1 back now",
    PLAY: "play a card",
}
_PHASE_ACTS = {
    AUCTION: ("bid", "pass"),
    CALL: ("call",),
    DISCARD: ("discard",),
    EXCHANGE: ("exchange",),
    PLAY: ("play",),
}
_ACTS = {"bid", "pass", "call", "discard", "exchange", "play"}

# Base payments (sigma = +1): (each defender, declarer, partner or giver).
_STAKES = {
    "chiamo2": (-4, 5, 3),
    "chiamo1": (-4, 12, None),
    "mediatore_giver": (-8, 22, -6),
    "mediatore1": (-8, 24, None),
    SOLO: (-12, 36, None),
    SOLISSIMO: (-16, 48, None),
    ARCISOLISSIMO: (-18, 54, None),
}


def _off_lead() -> IllegalAction:
    return refuse("signal_not_on_lead", "a signal goes only with the card that leads a trick")


def winning_index(cards: Sequence[int]) -> int:
    """Index (in play order) of the card that wins the trick ``cards`` (ids) so far."""
    best = cards[0]
    for card in cards[1:]:
        best = HIGHER[best][card]
    return cards.index(best)


def card_strength(card: str) -> int:
    """A card code's rank within its suit: 3 → 10, 2 → 9, A → 8, R, C, F, 7, 6, 5, 4 → 1."""
    return STRENGTH[DECK.id_of[card]]


def card_thirds(card: str) -> int:
    """A card code's points in thirds of a point: an ace 3; a 3, 2, R, C or F 1; the rest 0."""
    return THIRDS[DECK.id_of[card]]


def trick_winner(cards: Sequence[str]) -> int:
    """Index (in play order) of the card codes' winner so far: the highest of the suit led."""
    return winning_index([DECK.id_of[c] for c in cards])


def higher_in_suit(card: str) -> list[str]:
    """The cards of ``card``'s suit that beat it, highest first."""
    mine = DECK.id_of[card]
    return [DECK.code_of[c] for c in range(mine - mine % 10, mine)]


def signal_true(signal: int, card: int, rest: list[int]) -> bool:
    """Is the lead signal true, given the leader's other cards ``rest`` (``card`` is ignored)?

    ``volo``: no other card of the suit left; ``striscio``: a card of the suit ranked R or lower
    left; a combined signal is checked like its second part; ``busso`` is always true."""
    claim = SIGNAL_CLAIM[signal]
    if not claim:
        return True
    lo = card - card % 10
    if claim == 1:
        return not any(lo <= c < lo + 10 and c != card for c in rest)
    return any(lo + LOW_RANK <= c < lo + 10 and c != card for c in rest)


def _sample(cards: list[int], k: int, rng: random.Random) -> tuple[int, ...]:
    """``k`` distinct cards, uniformly (a partial Fisher-Yates; faster than ``rng.sample``)."""
    pool = cards[:]
    n = len(pool)
    rand = rng.random
    for i in range(k):
        j = i + floor(rand() * (n - i))
        pool[i], pool[j] = pool[j], pool[i]
    return tuple(sorted(pool[:k]))


def payments(
    contract: int,
    declarer: int,
    helper: int,
    called_out: bool,
    won: bool,
    slam: bool,
    slam_rule: str,
) -> list[int]:
    """The deal's payments per seat (stake table of the rules; sums to zero).

    ``helper`` is the Chiamo partner or the Mediatore giver (-1: none); ``called_out``: the called
    card lay in the monte (Chiamo alone / Mediatore without a giver)."""
    if contract == CHIAMO:
        key = "chiamo1" if helper < 0 else "chiamo2"
    elif contract == MEDIATORE:
        key = "mediatore1" if helper < 0 else "mediatore_giver"
    else:
        key = contract
    defender, decl, other = _STAKES[key]
    sigma = 1 if won else -1
    amounts = [defender * sigma] * 4
    if helper >= 0:
        amounts[helper] = other * sigma
    amounts[declarer] = decl * sigma
    if slam and slam_rule == "add2":
        for i in range(4):
            if i != declarer:
                amounts[i] += 2 if amounts[i] > 0 else -2
        amounts[declarer] = -sum(a for i, a in enumerate(amounts) if i != declarer)
    elif slam and slam_rule == "double":
        amounts = [2 * a for a in amounts]
    return amounts


# The contracts as the score grid names them.
CONTRACT_LABELS = (
    gettext_noop("Chiamo"),
    gettext_noop("Mediatore"),
    gettext_noop("Solo"),
    gettext_noop("Solissimo"),
    gettext_noop("Arcisolissimo"),
)


class MediatoreSheet(SheetRules):
    """A sheet deal: ``{"contract": "chiamo", "declarer": 0, "partner": 2, "giver": null,
    "called_in_monte": false, "won": true, "slam": false}`` (partner for Chiamo 2 v 2, giver
    for a Mediatore with a giver; ``"points"``, the declarer side's, may be given and is
    checked against ``won``/``slam``). A deal may be thrown in (everyone passed)."""

    EXAMPLE: ClassVar[dict[str, Any]] = {
        "deals": [
            {"contract": "chiamo", "declarer": 0, "partner": 2, "won": True, "slam": False},
            {"thrown_in": True},
            {"contract": "solo", "declarer": 3, "won": False},
        ]
    }

    def thrown_in(self) -> None:
        """Everyone passed: the deal is thrown in (no score)."""

    def deal(self, deal: dict[str, Any], dealer: int) -> tuple[list[int], list[int], int]:
        contract = deal.get("contract")
        if contract not in CONTRACTS:
            raise SheetError(f"contract must be one of {', '.join(CONTRACTS)}", field="contract")
        code = CONTRACTS.index(contract)
        declarer = seat(deal.get("declarer"), 4, "declarer", field="declarer")
        helper = -1
        helper_field = "partner" if code == CHIAMO else "giver"
        if code == CHIAMO and deal.get("partner") is not None:
            helper = seat(deal["partner"], 4, "partner", field="partner")
        if code == MEDIATORE and deal.get("giver") is not None:
            helper = seat(deal["giver"], 4, "giver", field="giver")
        if helper == declarer:
            raise SheetError("the declarer cannot be his own partner or giver", field=helper_field)
        in_monte = deal.get("called_in_monte", False)
        if code in (CHIAMO, MEDIATORE) and (helper < 0) != bool(in_monte):
            raise SheetError(
                "say either who held the called card or that it lay in the monte",
                field=helper_field,
            )
        won, slam = deal.get("won"), deal.get("slam", False)
        if not isinstance(won, bool) or not isinstance(slam, bool):
            raise SheetError("won and slam must be true or false", field="outcome")
        side = {declarer} | ({helper} if code == CHIAMO and helper >= 0 else set())
        points = deal.get("points")
        if points is None:
            points = (11 if won else 0) if slam else (6 if won else 5)
        elif isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= 11:
            raise SheetError("points (the declarer side's) are from 0 to 11", field="points")
        if (points >= 6) != won:
            raise SheetError(
                f"{points} points {'lose' if won else 'win'}: check 'won'", field="outcome"
            )
        if slam and points not in (0, 11):
            raise SheetError("a slam takes every trick: the points are 11 or 0", field="slam")
        pay = payments(code, declarer, helper, bool(in_monte), won, slam, self.variant["slam"])
        scores = [points if s in side else 11 - points for s in range(4)]
        return scores, pay, dealer

    def grid(self) -> list[GridField]:
        """Thrown in, or the contract, declarer, partner (Chiamo) or giver (Mediatore), won or
        lost, slam, and optionally the declarer side's points."""
        played = (("thrown_in", False),)
        fields = [
            GridField(
                "thrown_in",
                gettext_noop("Thrown in"),
                "bool",
                help=gettext_noop("all four passed"),
            ),
            GridField(
                "contract",
                gettext_noop("Contract"),
                "choice",
                choices=tuple(zip(CONTRACTS, CONTRACT_LABELS, strict=True)),
                when=played,
            ),
            GridField("declarer", gettext_noop("Declarer"), "seat", when=played),
            GridField(
                "partner",
                gettext_noop("Partner"),
                "seat",
                optional=True,
                blank=gettext_noop("none: the called card lay in the monte"),
                when=(*played, ("contract", "chiamo")),
                help=gettext_noop("who held the called card"),
            ),
            GridField(
                "giver",
                gettext_noop("Giver"),
                "seat",
                optional=True,
                blank=gettext_noop("none: the called card lay in the monte"),
                when=(*played, ("contract", "mediatore")),
                help=gettext_noop("who handed over the called card"),
            ),
            GridField(
                "outcome",
                gettext_noop("Declarer's side"),
                "choice",
                choices=(("won", gettext_noop("won")), ("lost", gettext_noop("lost"))),
                when=played,
            ),
            GridField(
                "slam",
                gettext_noop("Slam"),
                "bool",
                when=played,
                help=gettext_noop("one side took all 9 tricks"),
            ),
            GridField(
                "points",
                gettext_noop("Declarer side's points"),
                "int",
                min=0,
                max=11,
                optional=True,
                when=played,
                help=gettext_noop("optional: 6 or more win"),
            ),
        ]
        return fields

    def from_row(self, row: dict[str, Any]) -> dict[str, Any]:
        if row.get("thrown_in"):
            return {"thrown_in": True}
        deal: dict[str, Any] = {
            "contract": row["contract"],
            "declarer": row["declarer"],
            "won": row["outcome"] == "won",
            "slam": row["slam"],
        }
        for helper in ("partner", "giver"):
            if helper in row:
                if row[helper] is None:
                    deal["called_in_monte"] = True
                else:
                    deal[helper] = row[helper]
        if row.get("points") is not None:
            deal["points"] = row["points"]
        self.deal(dict(deal), 0)  # the rules' own checks, named by field (no state here)
        return deal


class MediatoreMatch(Match):
    """A Mediatore match; one deal is one deal, the highest total payout wins."""

    GAME = "mediatore"
    DISPLAY = "Mediatore"
    NAMES = {"ja": "メディアトーレ"}
    SEATS = 4
    SIDES = True  # the declarer (with a partner in Chiamo) against the rest, deal by deal
    SHEET = MediatoreSheet
    GOAL = gettext_noop(  # translated where shown (the table's goal line)
        "Bid a contract and take at least 6 of the 11⅔ points, "
        "with your partner or alone — or stop the declarer doing it."
    )
    # A payout as the game analysis names it (docs/bots.md, "Game analysis")
    PAYOUT_UNIT = ngettext_lazy("%(n)s point", "%(n)s points")
    # The Match table's legend: what a deal's score and payout mean, who wins (English)
    LEGEND = {
        "unit": gettext_noop("points"),
        "score": gettext_noop(
            "Score: the whole card points your side took (thirds added up, the fraction dropped; "
            "the monte and the last trick go to the last trick's winner)."
        ),
        "payout": gettext_noop(
            "Payout: what your part in the contract (declarer, partner, giver or defender) won or "
            "lost; a slam adds to it. Six points make a contract."
        ),
        "winner": gettext_noop("The highest total payout wins."),
    }
    HINTS = {
        "contract.chiamo": gettext_noop(
            "Chiamo, the lowest contract: the declarer calls a card he does not hold; its holder "
            "is his secret partner until that card is played. Two against two."
        ),
        "contract.mediatore": gettext_noop(
            "Mediatore: the declarer calls a card, its holder hands it over openly and gets one "
            "card back. The monte is shown and taken. The declarer plays alone against three."
        ),
        "contract.solo": gettext_noop(
            "Solo: the monte is shown to all and taken by the declarer, who lays out 4 cards. "
            "Alone against three."
        ),
        "contract.solissimo": gettext_noop(
            "Solissimo: the declarer may look at the monte but not take it. Alone against three."
        ),
        "contract.arcisolissimo": gettext_noop(
            "Arcisolissimo, the highest contract: the declarer never sees the monte. Alone "
            "against three."
        ),
        "signal.none": gettext_noop("No signal: lead the card without a word."),
        "signal.busso": gettext_noop(
            "Busso (knock): partner, win this trick with your best card of the suit and lead the "
            "suit back to me."
        ),
        "signal.volo": gettext_noop("Volo (fly): this is my last card of this suit."),
        "signal.striscio": gettext_noop(
            "Striscio (slide): I still hold low cards of this suit (re or lower)."
        ),
        "signal.busso+volo": gettext_noop(
            "Busso and volo: win this trick and lead the suit back; it was my last card of it."
        ),
        "signal.busso+striscio": gettext_noop(
            "Busso and striscio: win this trick and lead the suit back; I still hold low cards "
            "of it."
        ),
        "act.call": gettext_noop(
            "Name a card you do not hold: in Chiamo its holder becomes your secret partner, in "
            "Mediatore he must hand it over. It may lie in the monte."
        ),
        "role.partner": gettext_noop(
            "The declarer's partner in Chiamo: the holder of the called card."
        ),
        "role.giver": gettext_noop(
            "Held the card the Mediatore declarer called and handed it over; he gets one card "
            "back and pays less if the declarer wins."
        ),
        "thirds": gettext_noop(
            "Card points in thirds: an ace 3; a 3, 2, re, cavallo or fante 1; 7 to 4 nothing. "
            "The last trick adds 3. A side needs 18 of the 35 thirds (6 points) to win."
        ),
        "monte": gettext_noop(
            "The 4 cards left after the deal. The contract says who sees or takes them; at the "
            "end they go to the side that wins the last trick."
        ),
    }
    SIGNALS = True
    FLAGS = (
        Flag(
            "slam",
            "choice",
            "add2",
            choices=("add2", "double", "none"),
            help=gettext_noop(
                "winning every trick: +2 on every payment but the declarer's balance, double, "
                "or nothing"
            ),
            label=gettext_noop("Slam (every trick)"),
            labels={
                "add2": gettext_noop("+2 on every payment"),
                "double": gettext_noop("doubled"),
                "none": gettext_noop("nothing extra"),
            },
        ),
        Flag(
            "signals",
            "choice",
            "lead_only",
            choices=("lead_only", "off"),
            help=gettext_noop("may the leader add busso / volo / striscio to the led card"),
            label=gettext_noop("Signals"),
            labels={"lead_only": gettext_noop("by the leader"), "off": gettext_noop("none")},
        ),
        Flag(
            "signal_check",
            "choice",
            "strict",
            choices=("strict", "off"),
            help=gettext_noop("strict: a false volo or striscio is illegal"),
            label=gettext_noop("Signal check"),
            labels={
                "strict": gettext_noop("strict (no false signal)"),
                "off": gettext_noop("off (bluffs allowed)"),
            },
        ),
        Flag(
            "chiamo_threes_only",
            "bool",
            False,
            help=gettext_noop("in Chiamo the called card must be a 3"),
            label=gettext_noop("Chiamo calls a 3 only"),
        ),
    )
    STATE = (
        "hands",
        "monte",
        "orig_monte",
        "phase",
        "turn",
        "bids",
        "out",
        "high",
        "high_seat",
        "declarer",
        "contract",
        "called",
        "partner",
        "giver",
        "given",
        "trick",
        "signal",
        "sigmode",
        "leader",
        "won",
        "masks",
        "thirds",
        "tricks",
    )
    __slots__ = STATE

    hands: list[list[int]]
    monte: list[int]
    orig_monte: list[int]
    phase: int
    turn: int
    bids: list[list[int]]
    out: list[bool]
    high: int
    high_seat: int
    declarer: int
    contract: int
    called: int
    partner: int  # Chiamo: the called card's holder, -1 if it lay in the monte. SECRET.
    giver: int  # Mediatore: the seat that handed the called card over (public), -1 if none
    given: int
    trick: list[int]
    signal: int
    sigmode: int  # 0: signals off, 1: unchecked, 2: strict (from the variant, for speed)
    leader: int
    won: list[int]
    masks: list[int]  # during play: each hand as a bit mask (see FOLLOW)
    thirds: list[int]
    tricks: list[list[int]]

    # ------------------------------------------------------------------ setup
    @classmethod
    def deck_for(cls, variant: dict[str, Any]) -> Deck:
        return DECK

    @classmethod
    def sizes_for(cls, variant: dict[str, Any]) -> tuple[tuple[int, ...], int]:
        return (9, 9, 9, 9), 4

    def _setup_deal(self, hands: list[list[int]], stock: list[int]) -> None:
        eldest = (self.dealer + 1) % 4
        self.hands = hands
        self.monte = stock
        self.orig_monte = stock[:]
        self.phase = AUCTION
        self.turn = eldest
        self.bids = []
        self.out = [False, False, False, False]
        self.high = -1
        self.high_seat = -1
        self.declarer = -1
        self.contract = -1
        self.called = -1
        self.partner = -1
        self.giver = -1
        self.given = -1
        self.trick = []
        self.signal = 0
        v = self.variant
        self.sigmode = 0 if v["signals"] == "off" else 1 if v["signal_check"] == "off" else 2
        self.leader = eldest
        self.won = [0, 0, 0, 0]
        self.masks = [0, 0, 0, 0]
        self.thirds = [0, 0, 0, 0]
        self.tricks = []

    def redeal(self, rng: random.Random) -> None:
        """``Match.redeal`` without its generic deck cutting (same shuffle, same deals): the
        benchmark and bots' rollouts deal once per playout."""
        if self.log[-1][2]:
            raise EngineFault("redeal after the deal has begun")
        cards = DECK.shuffled(rng)
        h0, h1, h2, h3, stock = cards[0:9], cards[9:18], cards[18:27], cards[27:36], cards[36:]
        self.log[-1] = [[h0[:], h1[:], h2[:], h3[:]], stock[:], []]
        self._setup_deal([h0, h1, h2, h3], stock)

    def _partial(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "scores": [0, 0, 0, 0], "payouts": [0, 0, 0, 0]}

    def _final_winners(self) -> list[int]:
        t0 = t1 = t2 = t3 = 0
        for r in self.results:
            a, b, c, d = r["payouts"]
            t0 += a
            t1 += b
            t2 += c
            t3 += d
        best = max(t0, t1, t2, t3)
        out = [0] if t0 == best else []
        if t1 == best:
            out.append(1)
        if t2 == best:
            out.append(2)
        if t3 == best:
            out.append(3)
        return out

    # ------------------------------------------------------------------ fast path
    def actor(self) -> int:
        return self.turn  # -1 once the match is over

    def _follows(self, seat: int) -> list[int]:
        """The cards ``seat`` may play (without signals)."""
        trick = self.trick
        if trick:
            led = SUIT_OF[trick[0]]
            follow = FOLLOW[led][self.masks[seat] & SUIT_MASK[led]]
            if follow:
                return list(follow)
        return self.hands[seat][:]

    def _lead_signals(self, seat: int, card: int) -> list[int]:
        """The signals the leader may add to ``card`` (0 = none)."""
        if self.variant["signals"] == "off":
            return [0]
        if self.variant["signal_check"] == "off":
            return [0, 1, 2, 3, 4, 5]
        rest = [c for c in self.hands[seat] if c != card]
        return [s for s in range(6) if signal_true(s, card, rest)]

    def _may_chiamo(self, seat: int) -> bool:
        if not self.variant["chiamo_threes_only"]:
            return True
        hand = self.hands[seat]
        return not all(t in hand for t in THREES)

    def _bids(self, seat: int) -> list[int]:
        lowest = self.high + 1
        if lowest == CHIAMO and not self._may_chiamo(seat):
            lowest = MEDIATORE
        return list(range(lowest, 5))

    def _callable(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        pool = (
            THREES if self.contract == CHIAMO and self.variant["chiamo_threes_only"] else DECK.ids
        )
        return [c for c in pool if c not in hand]

    def moves(self, seat: int) -> list[Any]:
        """Compact moves: an int ``card + 40 * signal`` for a play; tuples for the rest
        (``("pass",)``, ``("bid", c)``, ``("call", card)``, ``("discard", cards)``,
        ``("exchange", cards, give or -1)``). Multi-card choices are expanded (large)."""
        if self.finished or seat != self.turn:
            return []
        phase = self.phase
        if phase == PLAY:
            if self.trick:
                return self._follows(seat)
            return [c + 40 * s for c in self.hands[seat] for s in self._lead_signals(seat, c)]
        if phase == AUCTION:
            return [("pass",)] + [("bid", c) for c in self._bids(seat)]
        if phase == CALL:
            return [("call", c) for c in self._callable(seat)]
        hand = sorted(self.hands[seat])
        if phase == DISCARD:
            return [("discard", c) for c in combinations(hand, 4)]
        if self.giver < 0:
            return [("exchange", c, -1) for c in combinations(hand, 4)]
        return [("exchange", c, g) for c in combinations(hand, 4) for g in hand if g not in c]

    def random_move(self, seat: int, rng: random.Random) -> Any:
        phase = self.phase
        if phase == 4:  # PLAY (a literal: this is the hot path of every playout)
            trick = self.trick
            if trick:
                f, n = FOLLOW_ANY[self.masks[seat] & SUIT_MASK_OF[trick[0]]]
                if n:
                    return f[floor(rng.random() * n)]
                hand = self.hands[seat]
                return hand[floor(rng.random() * len(hand))]
            hand = self.hands[seat]
            mode = self.sigmode
            if mode == 2:
                # Strict: every card has none and busso, plus volo and busso+volo when it is the
                # last of its suit, or striscio and busso+striscio when a low card of the suit
                # stays (never both). Four slots per card, the last two rejected when neither
                # holds: uniform over the legal (card, signal) pairs, under 2 tries expected.
                n4 = 4 * len(hand)
                rand = rng.random
                while True:
                    k = floor(rand() * n4)
                    card = hand[k >> 2]
                    j = k & 3
                    if j < 2:
                        return card + 40 * j
                    rest = self.masks[seat] & OTHERS[card]
                    if not rest:
                        return card + (80 if j == 2 else 160)  # volo, busso+volo
                    if rest & LOWS[card]:
                        return card + (120 if j == 2 else 200)  # striscio, busso+striscio
            if mode == 0:
                return hand[floor(rng.random() * len(hand))]
            k = floor(rng.random() * 6 * len(hand))
            return hand[k // 6] + 40 * (k % 6)
        if phase == AUCTION:  # uniform over pass and every higher bid (see _bids)
            lowest = self.high + 1
            if lowest == CHIAMO and not self._may_chiamo(seat):
                lowest = MEDIATORE
            n = 5 - lowest
            k = floor(rng.random() * (n + 1))
            return _PASS if k == n else BID_MOVES[lowest + k]
        if phase == CALL:
            hand = self.hands[seat]
            if self.contract == CHIAMO and self.variant["chiamo_threes_only"]:
                return ("call", rng.choice(self._callable(seat)))
            while True:  # 31 of the 40 cards are not in the declarer's hand
                card = floor(rng.random() * 40)
                if card not in hand:
                    return ("call", card)
        hand = self.hands[seat]
        if phase == DISCARD:
            return ("discard", _sample(hand, 4, rng))
        if phase == EXCHANGE:
            if self.giver < 0:
                return ("exchange", _sample(hand, 4, rng), -1)
            five = list(_sample(hand, 5, rng))
            give = five.pop(floor(rng.random() * 5))
            return ("exchange", tuple(five), give)
        raise EngineFault(f"no move in phase {PHASES[phase]}")

    def play(self, seat: int, move: Any, ev: list[Event] | None = None) -> None:
        if type(move) is not int:
            self._play_other(seat, move, ev)
            return
        if move >= 40:
            card = move % 40
            self.signal = move // 40
        else:
            card = move
        trick = self.trick
        self.hands[seat].remove(card)
        self.masks[seat] ^= BIT[card]
        trick.append(card)
        if ev is not None:
            self._play_events(seat, card, ev)
        if len(trick) < 4:
            self.turn = NEXT[seat]
            return
        # Trick complete: ``winning_index`` unrolled (the hot path of every playout).
        a, b, c, d = trick
        leader = self.leader
        w = SEAT_AT[leader][trick.index(HIGHER[HIGHER[HIGHER[a][b]][c]][d])]
        self.won[w] += 1
        self.thirds[w] += THIRDS2[a][b] + THIRDS2[c][d]
        self.tricks.append([leader, a, b, c, d, w, self.signal])
        self.signal = 0
        self.trick = []
        self.leader = self.turn = w
        if ev is not None:
            ev.append(event("trick", leader=leader, cards=DECK.codes((a, b, c, d)), winner=w))
        if not self.masks[w]:  # every hand empties on the same trick
            self._score(w, ev)

    def _play_events(self, seat: int, card: int, ev: list[Event]) -> None:
        lead = len(self.trick) == 1
        sig = SIGNALS[self.signal] if lead else None
        data: dict[str, Any] = {"seat": seat, "card": DECK.code_of[card]}
        if sig:
            data["signal"] = sig
        ev.append(event("play", **data))
        if card == self.called and self.contract == CHIAMO:
            if seat == self.declarer:
                ev.append(event("alone", seat=seat, card=DECK.code_of[card]))
            else:
                ev.append(event("partner", seat=seat, card=DECK.code_of[card]))

    def _play_other(self, seat: int, move: tuple, ev: list[Event] | None) -> None:
        kind = move[0]
        if kind == "pass" or kind == "bid":
            self._bid(seat, move[1] if kind == "bid" else -1, ev)
        elif kind == "call":
            self._call(seat, move[1], ev)
        elif kind == "discard":
            cards = list(move[1])
            hand = self.hands[seat]
            for c in cards:
                hand.remove(c)
            self.monte = cards
            if ev is not None:
                ev.append(event("discard", [seat], seat=seat, cards=DECK.codes(cards)))
                ev.append(event("discarded", seat=seat, count=4))
            self._start_play()
        elif kind == "exchange":
            cards = list(move[1])
            give = move[2]
            hand = self.hands[seat]
            for c in cards:
                hand.remove(c)
            self.monte = cards
            if ev is not None:
                ev.append(event("discard", [seat], seat=seat, cards=DECK.codes(cards)))
                ev.append(event("discarded", seat=seat, count=4))
            if give >= 0:
                hand.remove(give)
                self.hands[self.giver].append(give)
                self.given = give
                if ev is not None:
                    parties = [seat, self.giver]
                    ev.append(
                        event("give", parties, seat=seat, to=self.giver, card=DECK.code_of[give])
                    )
                    ev.append(event("given", seat=seat, to=self.giver, count=1))
            self._start_play()
        else:  # pragma: no cover - a move the fast path never produces
            raise EngineFault(f"unknown move {move!r}")

    def _bid(self, seat: int, contract: int, ev: list[Event] | None) -> None:
        self.bids.append([seat, contract])
        if contract >= 0:
            self.high = contract
            self.high_seat = seat
        else:
            self.out[seat] = True
        if ev is not None:
            if contract >= 0:
                ev.append(event("bid", seat=seat, contract=CONTRACTS[contract]))
            else:
                ev.append(event("pass", seat=seat))
        nout = self.out.count(True)
        if nout == 4:
            # Everybody passed: the deal is thrown in; the next dealer deals.
            self.phase = OVER
            if ev is not None:
                ev.append(event("thrown_in", dealer=self.dealer))
            self._end_deal(self.dealer, [0, 0, 0, 0], [0, 0, 0, 0], ev)
            if self.finished:
                self.turn = -1
            return
        if nout == 3 and self.high_seat >= 0:
            self._start_contract(ev)
            return
        t = NEXT[seat]
        while self.out[t]:
            t = NEXT[t]
        self.turn = t

    def _start_contract(self, ev: list[Event] | None) -> None:
        d = self.declarer = self.high_seat
        c = self.contract = self.high
        if ev is not None:
            ev.append(event("declarer", seat=d, contract=CONTRACTS[c]))
        self.turn = d
        if c <= MEDIATORE:
            self.phase = CALL
        elif c == SOLO:
            if ev is not None:
                ev.append(event("monte_shown", cards=DECK.codes(self.monte)))
            self._take_monte(ev)
            self.phase = DISCARD
        else:
            if c == SOLISSIMO and ev is not None:
                # A forced move, not an action: the declarer looks at the monte privately.
                ev.append(event("monte_viewed", seat=d))
                ev.append(event("monte", [d], seat=d, cards=DECK.codes(self.monte)))
            self._start_play()

    def _take_monte(self, ev: list[Event] | None) -> None:
        # A forced move, not an action: the declarer takes the monte into his hand.
        d = self.declarer
        self.hands[d] += self.monte
        if ev is not None:
            ev.append(event("monte_taken", seat=d, count=4))
            if self.contract == CHIAMO:
                ev.append(event("monte", [d], seat=d, cards=DECK.codes(self.monte)))
        self.monte = []

    def _call(self, seat: int, card: int, ev: list[Event] | None) -> None:
        self.called = card
        holder = -1
        for s in range(4):
            if card in self.hands[s]:
                holder = s
                break
        if ev is not None:
            ev.append(event("call", seat=seat, card=DECK.code_of[card]))
        if self.contract == CHIAMO:
            self.partner = holder  # secret: known to the holder only, via his own hand
            self._take_monte(ev)
            self.phase = DISCARD
            return
        self.giver = holder
        if holder >= 0:
            # The forced, open hand-over of the called card.
            self.hands[holder].remove(card)
            self.hands[seat].append(card)
            if ev is not None:
                ev.append(event("hand_over", seat=holder, to=seat, card=DECK.code_of[card]))
        elif ev is not None:
            ev.append(event("called_in_monte", card=DECK.code_of[card]))
        if ev is not None:
            ev.append(event("monte_shown", cards=DECK.codes(self.monte)))
        self._take_monte(ev)
        self.phase = EXCHANGE

    def _start_play(self) -> None:
        bit = BIT.__getitem__
        h0, h1, h2, h3 = self.hands
        self.masks = [sum(map(bit, h0)), sum(map(bit, h1)), sum(map(bit, h2)), sum(map(bit, h3))]
        self.phase = PLAY
        self.leader = self.turn = NEXT[self.dealer]

    PHASES = tuple(p for p in PHASES if p != "over")
    SUMMARY_CODES = frozenset(
        {"cards", "monte_last_trick", "whole_points", "stake", "slam", "thrown_in"}
        | {"tricks", "thirds", "side_thirds"}  # the table
        | {"contract", "called", "outcome"}  # notes
    )

    def sides(self) -> list[list[int]] | None:
        """The declarer's side (with the Chiamo partner, the called card's secret holder) and
        the defenders, once the call is made; None in the auction and the call, and for a deal
        thrown in."""
        if self.contract < 0 or self.phase in (AUCTION, CALL):
            return None
        d = self.declarer
        partner = self.partner if self.contract == CHIAMO else -1
        side = [d] if partner < 0 else sorted((d, partner))
        return [side, [s for s in range(4) if s not in side]]

    def _deal_table(self) -> list[dict[str, Any]]:
        if self.contract < 0:  # thrown in
            return []
        last = self.tricks[-1][5]
        bonus = [0, 0, 0, 0]
        bonus[last] = sum(THIRDS[m] for m in self.monte) + LAST_TRICK
        d = self.declarer
        side = {d, self.partner} if self.contract == CHIAMO and self.partner >= 0 else {d}
        taken = [self.thirds[s] + bonus[s] for s in range(4)]
        ours = sum(taken[s] for s in side)
        side_thirds = [ours if s in side else sum(taken) - ours for s in range(4)]
        return [
            row("tricks", "Tricks taken", self.won),
            row("thirds", "Card points in tricks, in thirds", self.thirds),
            row("monte_last_trick", "The monte and the last trick, in thirds", bonus),
            row("side_thirds", "The side's thirds", side_thirds),
        ]

    def _summarize(self, scores: list[int], payouts: list[int]) -> dict[str, Any]:
        """Score: the side's card points in thirds — each member's tricks, the monte with the
        last trick when the side took it — then whole points (the fraction dropped). Payout:
        the stake of the seat's role in the contract, won or lost, then the slam's extra."""
        c = self.contract
        if c < 0:  # everybody passed
            nothing = part("thrown_in", "Everybody passed: the deal is thrown in", 0)
            return {
                "kind": "thrown_in",
                "notes": [],
                "score_parts": [[dict(nothing)] for _ in range(4)],
                "payout_parts": [[dict(nothing)] for _ in range(4)],
            }
        d = self.declarer
        partner = self.partner if c == CHIAMO else -1
        helper = partner if c == CHIAMO else self.giver if c == MEDIATORE else -1
        last = self.tricks[-1][5]
        side = [d] if partner < 0 else sorted((d, partner))
        defenders = [s for s in range(4) if s not in side]
        monte = DECK.codes(self.monte)
        monte_thirds = sum(THIRDS[m] for m in self.monte)
        side_thirds = 0
        lines_of: dict[int, list[dict[str, Any]]] = {}
        for members in (side, defenders):
            lines = [
                part(
                    "cards",
                    f"Cards taken by seat {m}: {self.thirds[m]} thirds",
                    self.thirds[m],
                    seat=m,
                    thirds=self.thirds[m],
                )
                for m in members
            ]
            if last in members:
                lines.append(
                    part(
                        "monte_last_trick",
                        f"The monte ({' '.join(monte)}) and the last trick, to seat {last}: "
                        f"{monte_thirds} + {LAST_TRICK} thirds",
                        monte_thirds + LAST_TRICK,
                        seat=last,
                        cards=monte,
                    )
                )
            thirds = sum(line["value"] for line in lines)
            if members is side:
                side_thirds = thirds
            whole = thirds // 3
            lines.append(
                part(
                    "whole_points",
                    f"{thirds} thirds = {whole} points, the fraction dropped",
                    whole - thirds,
                    thirds=thirds,
                    points=whole,
                    op=divide(3),
                )
            )
            for m in members:
                lines_of[m] = [dict(line) for line in lines]
        won = side_thirds >= 18
        slam = (self.won[d] + (self.won[partner] if partner >= 0 else 0)) in (0, 9)
        rule = self.variant["slam"]
        base = payments(c, d, helper, helper < 0, won, False, rule)
        real = payments(c, d, helper, helper < 0, won, slam, rule)
        name = CONTRACTS[c].capitalize()
        outcome = "won" if won else "lost"
        payout_parts = []
        for s in range(4):
            role = (
                "declarer"
                if s == d
                else "partner"
                if c == CHIAMO and s == helper
                else "giver"
                if s == helper
                else "defender"
            )
            lines = [
                part(
                    "stake",
                    f"{name} {outcome}, the {role}: {base[s]:+d}",
                    base[s],
                    role=role,
                    contract=CONTRACTS[c],
                    won=won,
                )
            ]
            if real[s] != base[s]:
                how = "doubles every payment" if rule == "double" else "2 more on every payment"
                text = f"Slam (every trick to one side) {how}: {real[s] - base[s]:+d}"
                lines.append(part("slam", text, real[s] - base[s], rule=rule))
            payout_parts.append(lines)
        called = [] if self.called < 0 else [DECK.code_of[self.called]]
        notes = [note("contract", f"{name} by seat {d}", contract=CONTRACTS[c], declarer=d)]
        if called:
            holder = "it lay in the monte" if helper < 0 else f"seat {helper} held it"
            notes.append(
                note("called", f"Called {called[0]}: {holder}", card=called[0], holder=helper)
            )
        side_pts = side_thirds // 3
        notes.append(
            note(
                "outcome",
                f"The declarer's side took {side_pts} points ({side_thirds} thirds): "
                f"{outcome}{', a slam' if slam else ''}",
                side=side,
                thirds=side_thirds,
                points=side_pts,
                won=won,
                slam=slam,
            )
        )
        return {
            "kind": CONTRACTS[c],
            "notes": notes,
            "score_parts": [lines_of[s] for s in range(4)],
            "payout_parts": payout_parts,
        }

    def _settle(self, last: int) -> tuple[list[int], list[int], dict[str, Any]]:
        """Scores, payouts and how they came about, once the ninth trick is played."""
        d = self.declarer
        c = self.contract
        helper = -1
        partner = -1
        if c == CHIAMO:
            helper = partner = self.partner
        elif c == MEDIATORE:
            helper = self.giver
        thirds = self.thirds
        won_tricks = self.won
        side_thirds = thirds[d]
        side_tricks = won_tricks[d]
        if partner >= 0:
            side_thirds += thirds[partner]
            side_tricks += won_tricks[partner]
        if last in (d, partner):
            m = self.monte
            side_thirds += THIRDS[m[0]] + THIRDS[m[1]] + THIRDS[m[2]] + THIRDS[m[3]] + LAST_TRICK
        def_thirds = TOTAL_THIRDS - side_thirds
        won = side_thirds >= 18
        slam = side_tricks == 9 or side_tricks == 0
        pay = payments(c, d, helper, helper < 0, won, slam, self.variant["slam"])
        side_pts = side_thirds // 3
        def_pts = def_thirds // 3
        scores = [def_pts, def_pts, def_pts, def_pts]
        scores[d] = side_pts
        if partner >= 0:
            scores[partner] = side_pts
        outcome = {
            "contract": CONTRACTS[c],
            "declarer": d,
            "side": [d] if partner < 0 else [d, partner],
            "partner": self.partner if c == CHIAMO else None,
            "giver": self.giver if c == MEDIATORE else None,
            "thirds": [side_thirds, def_thirds],
            "points": [side_pts, def_pts],
            "won": won,
            "slam": slam,
            "last_trick": last,
            "monte": DECK.codes(self.monte),
        }
        return scores, pay, outcome

    def _scores(self, last: int) -> tuple[list[int], list[int]]:
        """The scores and payouts of ``_settle`` without its outcome record: the fast path's
        settlement (every playout ends here). The validated path checks it against ``_settle``."""
        d = self.declarer
        c = self.contract
        thirds = self.thirds
        won_tricks = self.won
        side_thirds = thirds[d]
        side_tricks = won_tricks[d]
        partner = -1
        if c == CHIAMO:
            helper = partner = self.partner
            if partner >= 0:
                side_thirds += thirds[partner]
                side_tricks += won_tricks[partner]
        elif c == MEDIATORE:
            helper = self.giver
        else:
            helper = -1
        if last in (d, partner):
            m = self.monte
            side_thirds += THIRDS2[m[0]][m[1]] + THIRDS2[m[2]][m[3]] + LAST_TRICK
        pay = payments(
            c,
            d,
            helper,
            helper < 0,
            side_thirds >= 18,
            side_tricks == 9 or side_tricks == 0,
            self.variant["slam"],
        )
        side_pts = side_thirds // 3
        def_pts = (TOTAL_THIRDS - side_thirds) // 3
        scores = [def_pts, def_pts, def_pts, def_pts]
        scores[d] = side_pts
        if partner >= 0:
            scores[partner] = side_pts
        return scores, pay

    def _score(self, last: int, ev: list[Event] | None) -> None:
        """The ninth trick is played: settle the deal (a forced step, not an action)."""
        scores, pay = self._scores(last)
        self.phase = OVER
        if ev is not None:
            checked, checked_pay, outcome = self._settle(last)
            if (checked, checked_pay) != (scores, pay):  # pragma: no cover - must agree
                raise EngineFault(f"fast settlement {scores, pay} differs from {checked, pay}")
            ev.append(event("score", scores=scores, payouts=pay, **outcome))
        self._end_deal(self.dealer, scores, pay, ev)
        if self.finished:
            self.turn = -1

    def clone(self) -> MediatoreMatch:
        m = MediatoreMatch.__new__(MediatoreMatch)
        self._copy_common(m)
        h = self.hands
        m.hands = [h[0][:], h[1][:], h[2][:], h[3][:]]
        m.monte = self.monte[:]
        m.orig_monte = self.orig_monte
        m.phase = self.phase
        m.turn = self.turn
        m.bids = self.bids[:]
        m.out = self.out[:]
        m.high = self.high
        m.high_seat = self.high_seat
        m.declarer = self.declarer
        m.contract = self.contract
        m.called = self.called
        m.partner = self.partner
        m.giver = self.giver
        m.given = self.given
        m.trick = self.trick[:]
        m.signal = self.signal
        m.sigmode = self.sigmode
        m.leader = self.leader
        m.won = self.won[:]
        m.masks = self.masks[:]
        m.thirds = self.thirds[:]
        m.tricks = self.tricks[:]
        return m

    def move_to_action(self, move: Any) -> dict[str, Any]:
        code = DECK.code_of
        if type(move) is int:
            out: dict[str, Any] = {"act": "play", "card": code[move % 40]}
            if move >= 40:
                out["signal"] = SIGNALS[move // 40]
            return out
        kind = move[0]
        if kind == "bid":
            return {"act": "bid", "contract": CONTRACTS[move[1]]}
        if kind == "call":
            return {"act": "call", "card": code[move[1]]}
        if kind == "discard":
            return {"act": "discard", "cards": DECK.codes(move[1])}
        if kind == "exchange":
            give = None if move[2] < 0 else code[move[2]]
            return {"act": "exchange", "discard": DECK.codes(move[1]), "give": give}
        return {"act": "pass"}

    # ------------------------------------------------------------------ validated path
    def to_act(self) -> list[int]:
        return [] if self.finished else [self.turn]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        if self.finished or seat != self.turn:
            return []
        phase = self.phase
        codes = DECK.codes
        if phase == PLAY:
            if self.trick:
                return [{"act": "play", "card": c} for c in codes(sorted(self._follows(seat)))]
            return [
                self.move_to_action(c + 40 * s)
                for c in sorted(self.hands[seat])
                for s in self._lead_signals(seat, c)
            ]
        if phase == AUCTION:
            return [{"act": "pass"}] + [
                {"act": "bid", "contract": CONTRACTS[c]} for c in self._bids(seat)
            ]
        if phase == CALL:
            return [{"act": "call", "card": DECK.code_of[c]} for c in sorted(self._callable(seat))]
        hand = codes(sorted(self.hands[seat]))
        if phase == DISCARD:
            return [{"act": "discard", "choose": 4, "from": hand}]
        return [
            {
                "act": "exchange",
                "discard": {"choose": 4, "from": hand},
                "give": None if self.giver < 0 else {"choose": 1, "from": hand},
            }
        ]

    def _card(self, seat: int, code: Any, what: str = "") -> int:
        try:
            card = DECK.parse(code)
        except ValueError:
            raise unknown_card(code, what) from None
        if card not in self.hands[seat]:
            raise not_held(DECK.code_of[card], what)
        return card

    def _four(self, seat: int, codes: Any, what: str) -> list[int]:
        if not isinstance(codes, list):
            raise refuse("cards_not_a_list", f"{what}: give a list of 4 cards")
        cards = [self._card(seat, c, f"{what}: ") for c in codes]
        if len(set(cards)) != len(cards):
            raise refuse("same_card_twice", f"{what}: the same card twice")
        if len(cards) != 4:
            raise refuse(
                "wrong_card_count",
                f"{what} exactly 4 cards, not {len(cards)}",
                expected=4,
                count=len(cards),
            )
        return cards

    # ------------------------------------------------------------------ reasons
    # The play: follow the suit led (a lead takes any card; its signal is checked apart). The
    # call: a card the declarer does not hold, so no card of his hand. Discards and the card
    # given back: any card he holds, the called card included (why_not is empty there).
    REASONS = COMMON_REASONS | {
        "must_follow_suit",
        "signal_not_on_lead",
        "unknown_signal",
        "signals_off",
        "false_volo",
        "false_striscio",
        "unknown_contract",
        "bid_too_low",
        "chiamo_with_all_threes",
        "called_card_held",
        "call_must_be_three",
        "give_must_be_null",
        "give_missing",
        "give_also_discarded",
    }

    def _follow_reason(self, led: int) -> Reason:
        return reason("must_follow_suit", f"must follow suit {SUITS[led]}", suit=SUITS[led])

    def _held_reason(self, card: int) -> Reason:
        code = DECK.code_of[card]
        return reason("called_card_held", f"you cannot call {code}: you hold it", card=code)

    def _why_not(self, seat: int) -> dict[int, Reason] | None:
        phase = self.phase
        hand = self.hands[seat]
        if phase == PLAY:
            trick = self.trick
            if not trick:
                return {}
            led = SUIT_OF[trick[0]]
            if not self.masks[seat] & SUIT_MASK[led]:
                return {}  # void in the suit led: any card
            why = self._follow_reason(led)
            return {c: why for c in hand if c // 10 != led}
        if phase == CALL:
            return {c: self._held_reason(c) for c in hand}
        if phase in (DISCARD, EXCHANGE):
            return {}
        return None  # the auction chooses no card

    def check(self, seat: int, action: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        act = action["act"]
        phase = self.phase
        if act not in _ACTS:
            raise refuse("unknown_act", f"'{act}' is not a move in Mediatore", act=act[:20])
        if act not in _PHASE_ACTS[phase]:
            raise refuse(
                "wrong_phase",
                f"wrong phase: {_PHASE_HINT[phase]}",
                phase=PHASES[phase],
                acts=list(_PHASE_ACTS[phase]),
            )
        # records.md: `signal` is checked wherever it appears (``"signal": null`` included).
        has_signal = "signal" in action
        signal = action.get("signal")
        if has_signal and act != "play":
            raise _off_lead()
        if phase == PLAY:
            return self._check_play(seat, action.get("card"), signal, has_signal)
        if phase == AUCTION:
            if act == "pass":
                return ("pass",), {"act": "pass"}
            name = action.get("contract")
            if not isinstance(name, str) or name not in CONTRACTS:
                raise refuse(
                    "unknown_contract",
                    "bid a contract: chiamo, mediatore, solo, solissimo or arcisolissimo",
                    contracts=list(CONTRACTS),
                )
            c = CONTRACTS.index(name)
            if c <= self.high:
                raise refuse(
                    "bid_too_low",
                    f"bid higher than {CONTRACTS[self.high]}",
                    high=CONTRACTS[self.high],
                )
            if c == CHIAMO and not self._may_chiamo(seat):
                raise refuse(
                    "chiamo_with_all_threes",
                    "you hold all four 3s: with chiamo_threes_only you may not bid chiamo",
                )
            return ("bid", c), {"act": "bid", "contract": name}
        if phase == CALL:
            code = action.get("card")
            try:
                card = DECK.parse(code)
            except ValueError:
                raise unknown_card(code, "call: ") from None
            if card in self.hands[seat]:
                raise IllegalAction.because(self._held_reason(card))
            if (
                self.contract == CHIAMO
                and self.variant["chiamo_threes_only"]
                and card not in THREES
            ):
                raise refuse(
                    "call_must_be_three",
                    "with chiamo_threes_only the called card must be a 3",
                    card=DECK.code_of[card],
                )
            return ("call", card), {"act": "call", "card": DECK.code_of[card]}
        if phase == DISCARD:
            cards = self._four(seat, action.get("cards"), "discard")
            return ("discard", tuple(cards)), {"act": "discard", "cards": DECK.codes(cards)}
        cards = self._four(seat, action.get("discard"), "discard")
        give_code = action.get("give")
        if self.giver < 0:
            if give_code is not None:
                raise refuse(
                    "give_must_be_null",
                    "nobody handed you a card (it lay in the monte): 'give' must be null",
                )
            give = -1
        else:
            if give_code is None:
                raise refuse(
                    "give_missing", f"give one card back to seat {self.giver}", to=self.giver
                )
            give = self._card(seat, give_code, "give: ")
            if give in cards:
                raise refuse(
                    "give_also_discarded",
                    f"give: {DECK.code_of[give]} is also discarded; give a different card",
                    card=DECK.code_of[give],
                )
        logged = {
            "act": "exchange",
            "discard": DECK.codes(cards),
            "give": None if give < 0 else DECK.code_of[give],
        }
        return ("exchange", tuple(cards), give), logged

    def _check_play(
        self, seat: int, code: Any, signal: Any, has_signal: bool
    ) -> tuple[int, dict[str, Any]]:
        card = self._card(seat, code)
        trick = self.trick
        out: dict[str, Any] = {"act": "play", "card": DECK.code_of[card]}
        if trick:
            led = trick[0] // 10
            if card // 10 != led and self.masks[seat] & SUIT_MASK[led]:
                raise IllegalAction.because(self._follow_reason(led))  # records.md's reason
            if has_signal:
                raise _off_lead()
            return card, out
        if not has_signal:
            return card, out
        if not isinstance(signal, str) or signal not in SIGNAL_CODE:
            raise refuse(
                "unknown_signal",
                f"unknown signal {signal!r}: busso, volo, striscio, busso+volo or busso+striscio",
                signals=[s for s in SIGNALS if s],
            )
        if self.variant["signals"] == "off":
            raise refuse("signals_off", "signals are off at this table")
        s = SIGNAL_CODE[signal]
        if self.variant["signal_check"] == "strict":
            rest = [c for c in self.hands[seat] if c != card]
            if not signal_true(s, card, rest):
                letter = SUITS[card // 10]
                suit = SUIT_NAMES[letter]
                if SIGNAL_CLAIM[s] == 1:
                    raise refuse(
                        "false_volo",
                        f"false volo: you still hold another card of {suit}",
                        suit=letter,
                        signal=signal,
                    )
                raise refuse(
                    "false_striscio",
                    f"false striscio: you hold no card of {suit} ranked R or lower",
                    suit=letter,
                    signal=signal,
                )
        out["signal"] = signal
        return card + 40 * s, out

    def _called_played(self) -> bool:
        """Chiamo's secret is out once the called card is on the table (derived, not a flag:
        the unchecked play path keeps no events and must not need to keep this either)."""
        called = self.called
        return called in self.trick or any(called in t[1:5] for t in self.tricks)

    def public_view(self) -> dict[str, Any]:
        v = self._common_view()
        codes = DECK.codes
        code = DECK.code_of
        c = self.contract
        over = self.phase == OVER
        v.update(
            {
                "dealer": self.dealer,
                "eldest": (self.dealer + 1) % 4,
                "phase": "over" if self.finished else PHASES[self.phase],
                "turn": None if self.finished else self.turn,
                "bids": [
                    {"seat": s, "act": "pass"}
                    if b < 0
                    else {"seat": s, "act": "bid", "contract": CONTRACTS[b]}
                    for s, b in self.bids
                ],
                "passed": self.out[:],
                "high_bid": None if self.high < 0 else CONTRACTS[self.high],
                "declarer": None if self.declarer < 0 else self.declarer,
                "contract": None if c < 0 else CONTRACTS[c],
                "called": None if self.called < 0 else code[self.called],
                "giver": self.giver if c == MEDIATORE and self.giver >= 0 else None,
                "hand_sizes": [len(h) for h in self.hands],
                "leader": self.leader,
                "trick": [
                    {"seat": (self.leader + i) % 4, "card": code[x]}
                    for i, x in enumerate(self.trick)
                ],
                "signal": SIGNALS[self.signal] if self.trick else None,
                "played": [
                    {
                        "leader": t[0],
                        "cards": codes(t[1:5]),
                        "winner": t[5],
                        "signal": SIGNALS[t[6]],
                    }
                    for t in self.tricks
                ],
                "tricks_won": self.won[:],
                "thirds_taken": self.thirds[:],
                "outcome": self._settle(self.tricks[-1][5])[2] if over and self.tricks else None,
                "suits": {s: SUIT_NAMES[s] for s in SUITS},
            }
        )
        return v

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        """What depends on who looks (``None``: a spectator). The secret of Chiamo stays secret:
        ``partner`` and ``alone`` are ``None`` for everyone who cannot know them yet."""
        codes = DECK.codes
        d = self.declarer
        c = self.contract
        is_decl = seat is not None and seat == d
        over = self.phase == OVER
        partner: int | None = None
        alone: bool | None = None
        if c == CHIAMO and self.called >= 0:
            if over or self._called_played():
                partner = None if self.partner < 0 else self.partner
                alone = self.partner < 0
            elif seat is not None and seat == self.partner:
                partner = seat  # he holds the called card: his own knowledge
                alone = False
            elif is_decl and self.partner < 0:
                alone = True  # he took the monte with the called card in it
        elif c > CHIAMO:
            alone = True
        # The original monte: public when shown (Mediatore, Solo), else only to the declarer who
        # took (Chiamo) or viewed (Solissimo) it.
        shown = c in (MEDIATORE, SOLO) and (c == SOLO or self.called >= 0)
        seen = shown or (is_decl and (c == SOLISSIMO or (c == CHIAMO and self.called >= 0)))
        discarded = (c in (CHIAMO, MEDIATORE, SOLO) and self.phase == PLAY) or (over and c >= 0)
        v: dict[str, Any] = {
            "seat": seat,
            "partner": partner,
            "alone": alone,
            "monte": {
                "shown": codes(self.orig_monte) if shown or over else None,
                "seen": codes(self.orig_monte) if seen or over else None,
                "new": (codes(self.monte) if discarded and (is_decl or over) else None),
            },
            "given": (
                DECK.code_of[self.given]
                if self.given >= 0 and (over or seat in (d, self.giver))
                else None
            ),
        }
        if seat is not None:
            v["hand"] = codes(sorted(self.hands[seat]))
        return v
