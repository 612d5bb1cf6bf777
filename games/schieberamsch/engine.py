"""Schieberamsch: three seats avoid card points; the skat is pushed on or picked up and doubles.

Rules: ../shared/rules/schieberamsch.md (with every flag of its "Variants" table), including the
Grand Hand offer with Kontra/Re. One record deal = one deal. Cards are ints ``suit * 8 + rank`` of
the French 32 deck (suits C S H D, ranks A T K Q J 9 8 7), so the jacks are 4, 12, 20, 28 and a
lower jack id is a higher trump (JC > JS > JH > JD).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
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
    times,
    unknown_card,
)
from games.core.cards import FRENCH32, SUIT_NAMES, Deck
from games.core.errors import EngineFault, IllegalAction
from games.core.hints import gettext_noop, ngettext_lazy
from games.core.sheet_rules import FULL, SCORES, GridField, SheetError, SheetRules, ints
from games.core.variants import Flag

DECK = FRENCH32
OFFER, SKAT, DISCARD, KONTRA, RE, PLAY, OVER = range(7)
PHASES = ("offer", "skat", "discard", "kontra", "re", "play", "over")
SUITS = "CSHD"
TRUMP = 4  # the "suit" of the jacks when following and winning
JACKS = (4, 12, 20, 28)  # JC JS JH JD, high → low
NEXT = (1, 2, 0)

_RANK_POINTS = (11, 10, 4, 3, 2, 0, 0, 0)  # A T K Q J 9 8 7
POINTS = [_RANK_POINTS[c % 8] for c in range(32)]
# The suit a card belongs to when following: jacks are trumps, of no plain suit.
EFF = [TRUMP if c % 8 == 4 else c // 8 for c in range(32)]
# A card's strength in a trick it can win: plain cards A 7, T 6, K 5, Q 4, 9 3, 8 2, 7 1 within
# their suit, the jacks JC 11, JS 10, JH 9, JD 8 (above every plain card).
_RANK_STRENGTH = (7, 6, 5, 4, 0, 3, 2, 1)  # A T K Q (J) 9 8 7
STRENGTH = [11 - c // 8 if c % 8 == 4 else _RANK_STRENGTH[c % 8] for c in range(32)]
# POWER[led][card]: the card's strength in a trick led in ``led`` (0 = cannot win): a jack always
# counts, a plain card only in the suit led.
POWER = [
    [STRENGTH[c] if EFF[c] == TRUMP or EFF[c] == led else 0 for c in range(32)] for led in range(5)
]


def winning_index(cards: Sequence[int]) -> int:
    """Index (in play order) of the card that wins the trick ``cards`` (ids) so far: the highest
    jack, else the highest card of the suit led."""
    power = POWER[EFF[cards[0]]]
    best = 0
    for i in range(1, len(cards)):
        if power[cards[i]] > power[cards[best]]:
            best = i
    return best


# WIN3[a][b][c]: the winner's offset from the leader of the trick a, b, c (in play order).
WIN3 = [[[winning_index((a, b, c)) for c in range(32)] for b in range(32)] for a in range(32)]
# WIN[leader][a][b][c] for a trick a, b, c (in play order) led by ``leader``: the winner's seat in
# the low two bits and the trick's card points above them (one lookup settles a trick).
WIN = [
    [
        [
            [
                (leader + off) % 3 | (POINTS[a] + POINTS[b] + POINTS[c]) << 2
                for c, off in enumerate(o)
            ]
            for b, o in enumerate(WIN3[a])
        ]
        for a in range(32)
    ]
    for leader in range(3)
]
# Follow sets without a scan: a hand is also kept as a bit mask, and FOLLOW[led][mask & GROUP[led]]
# is the tuple of its cards that follow ``led`` (the plain suit without its jack, or the jacks).
_GROUPS = [[c for c in range(32) if EFF[c] == led] for led in range(5)]
GROUP = [sum(1 << c for c in g) for g in _GROUPS]
FOLLOW: list[dict[int, tuple[int, ...]]] = []
for _g in _GROUPS:
    _table = {}
    for _k in range(1 << len(_g)):
        _sub = tuple(c for i, c in enumerate(_g) if _k >> i & 1)
        _table[sum(1 << c for c in _sub)] = _sub
    FOLLOW.append(_table)
# For random_move: the same tuples with their lengths, all groups in one dict (they are disjoint).
FOLLOW_ANY = {k: (v, len(v)) for table in FOLLOW for k, v in table.items()}
BIT = [1 << c for c in range(32)]
GROUP_OF = [GROUP[EFF[c]] for c in range(32)]  # the group mask a card's followers come from

# (leader + offset) % 3
SEAT_AT = [[(leader + k) % 3 for k in range(3)] for leader in range(3)]
# OPPONENTS[dealer][declarer]: a Grand Hand's opponents in the order they are asked (from forehand)
OPPONENTS = [
    [
        [s for s in (SEAT_AT[dealer][1], SEAT_AT[dealer][2], dealer) if s != declarer]
        for declarer in range(3)
    ]
    for dealer in range(3)
]
_GRAND = ("grand_hand",)
_PASS = ("pass",)
_PICKUP = ("pickup",)
_PUSH = ("push",)
_KONTRA = ("kontra",)
_RE = ("re",)

_PHASE_HINT = {
    OFFER: "announce a Grand Hand or pass",
    SKAT: "pick up the skat or push it on",
    DISCARD: "discard 2 cards to the skat",
    KONTRA: "say kontra or pass",
    RE: "say re or pass",
    PLAY: "play a card",
}
_PHASE_ACTS = {
    OFFER: ("grand_hand", "pass"),
    SKAT: ("pickup", "push"),
    DISCARD: ("discard",),
    KONTRA: ("kontra", "pass"),
    RE: ("re", "pass"),
    PLAY: ("play",),
}
_SIMPLE = {"grand_hand", "pass", "pickup", "push", "kontra", "re"}


def card_points(card: str) -> int:
    """A card code's points: A 11, T 10, K 4, Q 3, J 2, the rest 0."""
    return POINTS[DECK.id_of[card]]


def card_strength(card: str) -> int:
    """A card code's strength in a trick it can win (see ``STRENGTH``: jacks above all)."""
    return STRENGTH[DECK.id_of[card]]


def is_trump(card: str) -> bool:
    """The jacks are the only trumps (in a Ramsch and in a Grand Hand)."""
    return EFF[DECK.id_of[card]] == TRUMP


def follow_suit(card: str) -> str:
    """The suit a card code belongs to when following: its suit letter, or "J" for a jack."""
    eff = EFF[DECK.id_of[card]]
    return "J" if eff == TRUMP else SUITS[eff]


def trick_winner(cards: Sequence[str]) -> int:
    """Index (in play order) of the card codes' winner so far (``winning_index``)."""
    return winning_index([DECK.id_of[c] for c in cards])


def higher_in_suit(card: str) -> list[str]:
    """The cards that beat ``card`` within its following suit (the jacks for a jack), highest
    first."""
    mine = DECK.id_of[card]
    group = _GROUPS[EFF[mine]]
    return [
        DECK.code_of[c]
        for c in sorted(group, key=STRENGTH.__getitem__, reverse=True)
        if STRENGTH[c] > STRENGTH[mine]
    ]


def pen(x: int, divisor: int) -> int:
    """The seed's scale: divide by ``divisor``, dropping the fraction towards zero (-96.x: -96)."""
    return x // divisor if x >= 0 else -((-x) // divisor)


def ramsch_scores(
    points: list[int], tricks: list[int], pushes: int, variant: dict[str, Any]
) -> tuple[list[int], str]:
    """Penalties of a Schieberamsch deal from final card points (skat included) and trick counts.

    Pure, so the rules file's worked examples test it directly. Returns the scores and the kind
    (``durchmarsch``, ``jungfrau``, ``normal`` or ``even``)."""
    div = variant["score_divisor"]
    mult = 1 << pushes
    scores = [0, 0, 0]
    if 10 in tricks:
        s = tricks.index(10)
        scores[s] = pen(-120 * (mult if variant["durchmarsch_pushes"] else 1), div)
        return scores, "durchmarsch"
    if tricks.count(0) == 1:
        others = [i for i in range(3) if tricks[i]]
        best = max(points[i] for i in others)
        for i in others:
            if points[i] == best:
                scores[i] = pen(points[i] * 2 * mult, div)
        return scores, "jungfrau"
    best = max(points)
    if points.count(best) == 3:
        return scores, "even"
    for i in range(3):
        if points[i] == best:
            scores[i] = pen(points[i] * mult, div)
    return scores, "normal"


def matadors(cards: list[int]) -> int:
    """Matadors "with" or "without" over the declarer's 10 dealt cards plus the original skat."""
    held = [j in cards for j in JACKS]
    want = held[0]
    m = 0
    for h in held:
        if h != want:
            break
        m += 1
    return m


def grand_value(
    m: int, decl_points: int, decl_tricks: int, kontra: bool, re: bool
) -> tuple[int, int]:
    """(levels, value) of a Grand Hand: matadors + game + hand (+ schneider, + schwarz)."""
    levels = m + 2
    if decl_points >= 90 or decl_points <= 30:
        levels += 1
    if decl_tricks in (0, 10):
        levels += 1
    value = 24 * levels
    if kontra:
        value *= 2
    if re:
        value *= 2
    return levels, value


def grand_scores(
    declarer: int, m: int, decl_points: int, decl_tricks: int, kontra: bool, re: bool, v: dict
) -> list[int]:
    """Penalties of a Grand Hand: a reduction for the declarer when he wins, a penalty if not."""
    _, value = grand_value(m, decl_points, decl_tricks, kontra, re)
    scores = [0, 0, 0]
    if decl_points >= 61:
        scores[declarer] = pen(-value, v["score_divisor"])
    else:
        scores[declarer] = pen(value * v["grand_loss_factor"], v["score_divisor"])
    return scores


def payouts_of(scores: list[int]) -> list[int]:
    """Each pair settles its difference: ``sum(scores) - 3 * own`` (zero-sum)."""
    total = sum(scores)
    return [total - 3 * s for s in scores]


MAX_PENALTY = 120 * 2 * 8  # a Jungfrau after three pushes, before the divisor
MAX_PUSHES = 3  # forehand, middlehand and rearhand each push the skat on once at most


def _subset_sums(values: Sequence[int]) -> frozenset[int]:
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums}
    return frozenset(sums)


# The card points a seat can end a deal with (some cards of the deck: not 1, not 119), and the
# points two cards can hold (the skat).
POINT_TOTALS = _subset_sums(POINTS)
SKAT_POINTS = frozenset(POINTS[a] + POINTS[b] for a, b in combinations(range(32), 2))


@lru_cache(maxsize=64)
def _penalties(div: int, durchmarsch_pushes: bool, grand: bool, doubles: int, loss: int) -> Any:
    """(positive, negative) penalties one deal can give a seat under these flags."""
    pos: set[int] = set()
    neg: set[int] = set()
    for k in range(MAX_PUSHES + 1):
        for p in POINT_TOTALS:
            pos |= {pen(p << k, div), pen(p * 2 << k, div)}  # the most points; a Jungfrau
        neg.add(pen(-120 * ((1 << k) if durchmarsch_pushes else 1), div))
    if grand:
        for levels in range(3, 9):  # 1 to 4 matadors + game + hand (+ schneider, + schwarz)
            for d in range(doubles + 1):
                value = 24 * levels << d
                neg.add(pen(-value, div))
                pos.add(pen(value * loss, div))
    pos.discard(0)
    neg.discard(0)
    return frozenset(pos), frozenset(neg)


def possible_penalties(variant: dict[str, Any]) -> tuple[frozenset[int], frozenset[int]]:
    """Every penalty above zero and below zero that one deal can give a seat (a deal's worst
    Jungfrau, its best Durchmarsch, the Grand Hands the flags allow)."""
    return _penalties(
        variant["score_divisor"],
        variant["durchmarsch_pushes"],
        variant["grand_hand"],
        2 if variant["kontra_re"] else 0,
        variant["grand_loss_factor"],
    )


def check_penalties(scores: list[int], variant: dict[str, Any]) -> None:
    """Refuse penalties no deal gives: a deal scores one seat, or two seats tied for the most
    points with the same penalty, or nobody; below zero only alone (a Durchmarsch, a won Grand
    Hand); and each value one the rules can reach."""
    pos, neg = possible_penalties(variant)
    for s, v in enumerate(scores):
        if (v > 0 and v not in pos) or (v < 0 and v not in neg):
            raise SheetError(
                f"no deal scores a penalty of {v} (seat {s}); penalties run from {min(neg)} to "
                f"{max(pos)}",
                field="scores",
                seat=s,
            )
    scoring = [v for v in scores if v]
    if len(scoring) == 3:
        raise SheetError("at most two seats score a penalty in one deal", field="scores")
    if len(scoring) == 2 and (scoring[0] != scoring[1] or scoring[0] < 0):
        raise SheetError(
            "two seats score only when they tie for the most card points, with the same "
            f"penalty: not {scoring[0]} and {scoring[1]}",
            field="scores",
        )


class SchieberamschSheet(SheetRules):
    """A sheet deal: ``{"scores": [penalties...]}`` (the rules file's Record scores): one seat's
    penalty (two tied seats' equal penalties; below zero for a Durchmarsch or a won Grand Hand),
    the others 0, each a value a deal can give. The lowest total penalty wins."""

    EXAMPLE: ClassVar[dict[str, Any]] = {"deals": [{"scores": [4, 0, 0]}, {"scores": [0, 0, -9]}]}
    # The payouts settle the penalties alone: a grid of the penalties too.
    LAYOUTS: ClassVar[tuple[str, ...]] = (FULL, SCORES)

    def deal(self, deal: dict[str, Any], dealer: int) -> tuple[list[int], list[int], int]:
        scores = ints(deal.get("scores"), 3, "scores")
        check_penalties(scores, self.variant)
        return scores, payouts_of(scores), dealer

    def winners(self, scores: list[int], payouts: list[int]) -> list[int]:
        low = min(scores)
        return [i for i, s in enumerate(scores) if s == low]

    def grid(self, layout: str = FULL) -> list[GridField]:
        """A Ramsch: card points per seat, pushes, who took no trick (a Jungfrau) or every trick
        (a Durchmarsch). A Grand Hand (if the flags allow it): declarer, matadors, his card
        points, schwarz, kontra and re. In the `scores` layout: each seat's penalty."""
        v = self.variant
        if layout == SCORES:
            positive, negative = possible_penalties(v)
            return [
                GridField(
                    "scores",
                    gettext_noop("Penalty"),
                    "int",
                    per_seat=True,
                    min=min(negative, default=0),
                    max=max(positive, default=0),
                    help=gettext_noop(
                        "the deal's penalty: one seat's (or two tied seats' equal ones), below "
                        "zero for a Durchmarsch or a won Grand Hand; 0 for the others"
                    ),
                )
            ]
        ramsch: tuple[tuple[str, Any], ...] = ()
        fields: list[GridField] = []
        if v["grand_hand"]:
            fields.append(GridField("grand", gettext_noop("Grand Hand"), "bool"))
            ramsch = (("grand", False),)
        if v["skat_to"] == "last_trick":
            fields.append(
                GridField(
                    "points",
                    gettext_noop("Card points"),
                    "int",
                    per_seat=True,
                    min=0,
                    max=120,
                    sum=120,
                    when=ramsch,
                    help=gettext_noop("the skat's points count for the last trick's winner"),
                )
            )
        else:
            fields += [
                GridField(
                    "points",
                    gettext_noop("Card points in tricks"),
                    "int",
                    per_seat=True,
                    min=0,
                    max=120,
                    when=ramsch,
                    help=gettext_noop("without the skat"),
                ),
                GridField(
                    "skat",
                    gettext_noop("Skat's points"),
                    "int",
                    min=0,
                    max=22,
                    when=ramsch,
                    help=gettext_noop("they go to every seat with the most points in tricks"),
                ),
            ]
        fields += [
            GridField("pushes", gettext_noop("Pushes"), "int", min=0, max=MAX_PUSHES, when=ramsch),
            GridField(
                "jungfrau",
                gettext_noop("Jungfrau"),
                "seat",
                optional=True,
                blank=gettext_noop("nobody"),
                when=ramsch,
                help=gettext_noop("the seat that took no trick"),
            ),
            GridField(
                "durchmarsch",
                gettext_noop("Durchmarsch"),
                "seat",
                optional=True,
                blank=gettext_noop("nobody"),
                when=ramsch,
                help=gettext_noop("the seat that took every trick"),
            ),
        ]
        if v["grand_hand"]:
            grand = (("grand", True),)
            fields += [
                GridField("declarer", gettext_noop("Declarer"), "seat", when=grand),
                GridField(
                    "matadors",
                    gettext_noop("Matadors"),
                    "int",
                    min=1,
                    max=4,
                    when=grand,
                    help=gettext_noop("with or without, 1 to 4"),
                ),
                GridField(
                    "declarer_points",
                    gettext_noop("Declarer's card points"),
                    "int",
                    min=0,
                    max=120,
                    when=grand,
                    help=gettext_noop("the skat included; 61 or more wins"),
                ),
                GridField(
                    "schwarz",
                    gettext_noop("Schwarz"),
                    "bool",
                    when=grand,
                    help=gettext_noop("the declarer took every trick or none"),
                ),
            ]
            if v["kontra_re"]:
                fields += [
                    GridField("kontra", gettext_noop("Kontra"), "bool", when=grand),
                    GridField("re", gettext_noop("Re"), "bool", when=grand),
                ]
        return fields

    def from_row(self, row: dict[str, Any], layout: str = FULL) -> dict[str, Any]:
        if layout == SCORES:
            check_penalties(row["scores"], self.variant)
            return {"scores": list(row["scores"])}
        if row.get("grand"):
            return {"scores": self._grand_row(row)}
        return {"scores": self._ramsch_row(row)}

    def _ramsch_row(self, row: dict[str, Any]) -> list[int]:
        v = self.variant
        points = list(row["points"])
        skat = row.get("skat")
        for s, p in enumerate(points):
            if p not in POINT_TOTALS:
                raise SheetError(f"no seat can take {p} card points", field="points", seat=s)
        if v["skat_to"] == "loser":
            if skat not in SKAT_POINTS:
                raise SheetError(f"two cards cannot hold {skat} points", field="skat")
            if sum(points) + skat != 120:
                raise SheetError(
                    f"with the skat's {skat} these add up to {sum(points) + skat}, not 120",
                    field="points",
                )
            best = max(points)
            points = [p + skat if p == best else p for p in points]
        jungfrau, durchmarsch = row.get("jungfrau"), row.get("durchmarsch")
        tricks = [1, 1, 1]  # only who took none and who took all matter
        if durchmarsch is not None:
            if jungfrau is not None:
                raise SheetError(
                    "after a Durchmarsch both others took no trick: it is no Jungfrau",
                    field="jungfrau",
                )
            if points[durchmarsch] != 120:
                raise SheetError(
                    "the seat that took every trick has all 120 card points",
                    field="points",
                    seat=durchmarsch,
                )
            tricks = [10 if s == durchmarsch else 0 for s in range(3)]
        elif jungfrau is not None:
            if points[jungfrau] != 0:
                raise SheetError(
                    "the seat that took no trick has no card points", field="points", seat=jungfrau
                )
            tricks[jungfrau] = 0
        scores, _ = ramsch_scores(points, tricks, row["pushes"], v)
        return scores

    def _grand_row(self, row: dict[str, Any]) -> list[int]:
        points = row["declarer_points"]
        if points not in POINT_TOTALS:
            raise SheetError(f"no seat can take {points} card points", field="declarer_points")
        if row["schwarz"] and points != 120 and points not in SKAT_POINTS:
            raise SheetError(
                "schwarz: with every trick the declarer has 120 points, with none only the skat's",
                field="schwarz",
            )
        kontra, re = bool(row.get("kontra")), bool(row.get("re"))
        if re and not kontra:
            raise SheetError("re answers a kontra", field="re")
        tricks = 10 if row["schwarz"] else 5  # schwarz either way adds the same level
        return grand_scores(
            row["declarer"], row["matadors"], points, tricks, kontra, re, self.variant
        )


class SchieberamschMatch(Match):
    """A Schieberamsch match; one deal is one deal, the lowest total penalty wins."""

    GAME = "schieberamsch"
    DISPLAY = "Schieberamsch"
    NAMES = {"ja": "シーベラムシュ"}
    SEATS = 3
    SHEET = SchieberamschSheet
    GOAL = gettext_noop(  # translated where shown (the table's goal line)
        "Take as few card points as you can: the lowest penalty wins, "
        "and every push of the skat doubles the stakes."
    )
    # A payout as the game analysis names it (docs/bots.md, "Game analysis"): points of the
    # zero-sum payout, where more is better — not the penalty points of a deal's score, where
    # less is ("made: 28 penalty points" read as a loss, though it was a gain).
    PAYOUT_UNIT = ngettext_lazy("%(n)s point", "%(n)s points")
    # The Match table's legend: what a deal's score and payout mean, who wins (English)
    LEGEND = {
        "unit": gettext_noop("penalty points"),
        "score": gettext_noop(
            "Score: penalty points, so lower is better (a won Grand Hand scores below zero)."
        ),
        "payout": gettext_noop(
            "Payout: each other seat's penalty less yours, added up: above zero is good."
        ),
        "winner": gettext_noop("The lowest total penalty wins."),
    }
    HINTS = {
        "contract.ramsch": gettext_noop(
            "Ramsch: everyone plays for himself and avoids card points. The seat with the most "
            "points scores them as penalty; the lowest total penalty wins."
        ),
        "contract.grand_hand": gettext_noop(
            "Grand Hand: one player plays alone against the other two, the skat unseen and "
            "counting for him. He needs 61 of the 120 card points: won, his penalty goes down; "
            "lost, it goes up."
        ),
        "act.grand_hand": gettext_noop(
            "Play alone against the other two, the skat untouched and counting for you. You "
            "need 61 of the 120 card points; jacks are the only trumps."
        ),
        "act.pickup": gettext_noop(
            "Take the two skat cards into your hand, then lay any two back face down for the "
            "next player (no jack, unless the rules allow it)."
        ),
        "act.push": gettext_noop(
            "Pass the skat to the next player unseen. Every push doubles the deal's penalty."
        ),
        "pushes": gettext_noop(
            "Every time the skat was pushed on unseen the deal counts double: one push doubles "
            "it, two pushes make it four times, three pushes eight times."
        ),
        "act.kontra": gettext_noop(
            "Kontra: you bet the Grand Hand will fail. Its value is doubled."
        ),
        "act.re": gettext_noop("Re: the declarer answers a kontra. The value is doubled again."),
        "card_points": gettext_noop(
            "Card points: ace 11, ten 10, king 4, queen 3, jack 2, 9 8 7 nothing; 120 in all. "
            "The skat's points go to the winner of the last trick."
        ),
        "outcome.normal": gettext_noop(
            "The seat with the most card points scores them as penalty; the others score 0."
        ),
        "outcome.even": gettext_noop("All three took 40 card points: nobody scores."),
        "outcome.jungfrau": gettext_noop(
            "Jungfrau: a seat took no trick, so the penalty of the seat with the most points is "
            "doubled."
        ),
        "outcome.durchmarsch": gettext_noop(
            "Durchmarsch: one seat took every trick and scores 120 points off its penalty; the "
            "others score 0."
        ),
    }
    FLAGS = (
        Flag(
            "score_divisor",
            "choice",
            10,
            choices=(1, 10),
            help=gettext_noop(
                "10: card points ÷ 10, fraction dropped; 1: unscaled (Skat Order style)"
            ),
            label=gettext_noop("Scores"),
            labels={"10": gettext_noop("card points ÷ 10"), "1": gettext_noop("card points")},
        ),
        Flag(
            "grand_hand",
            "bool",
            True,
            help=gettext_noop("allow the Grand Hand offer"),
            label=gettext_noop("Grand Hand offer"),
        ),
        Flag(
            "kontra_re",
            "bool",
            True,
            help=gettext_noop("opponents may double a Grand Hand, and he redouble"),
            label=gettext_noop("Kontra and re"),
        ),
        Flag(
            "grand_loss_factor",
            "choice",
            1,
            choices=(1, 2),
            help=gettext_noop("2: lost games count double"),
            label=gettext_noop("A lost Grand Hand"),
            labels={"1": gettext_noop("scores its value"), "2": gettext_noop("scores double")},
        ),
        Flag(
            "jacks_in_skat",
            "bool",
            False,
            help=gettext_noop("may a jack be discarded to the skat"),
            label=gettext_noop("Jacks into the skat"),
        ),
        Flag(
            "skat_to",
            "choice",
            "last_trick",
            choices=("last_trick", "loser"),
            help=gettext_noop(
                "who takes the skat's points: the last trick's winner, or every seat with the "
                "most trick points"
            ),
            label=gettext_noop("Skat's points go to"),
            labels={
                "last_trick": gettext_noop("the last trick's winner"),
                "loser": gettext_noop("the most trick points"),
            },
        ),
        Flag(
            "durchmarsch_pushes",
            "bool",
            True,
            help=gettext_noop("pushes multiply the Durchmarsch"),
            label=gettext_noop("Pushes multiply a Durchmarsch"),
        ),
    )
    STATE = (
        "hands",
        "skat",
        "masks",
        "phase",
        "turn",
        "declarer",
        "offers",
        "skat_log",
        "pushes",
        "taken",
        "kontra",
        "re",
        "doubles",
        "trick",
        "leader",
        "won",
        "pts",
        "tricks",
        "last",
    )
    __slots__ = STATE

    hands: list[list[int]]
    skat: list[int]
    masks: list[int]  # per seat, the hand as a bit mask (see FOLLOW)
    phase: int
    turn: int
    declarer: int
    offers: list[list[int]]
    skat_log: list[list[int]]
    pushes: int
    taken: list[list[Any]]
    kontra: int
    re: int
    doubles: list[list[Any]]
    trick: list[int]
    leader: int
    won: list[int]
    pts: list[int]
    tricks: list[list[int]]
    last: int

    # ------------------------------------------------------------------ setup
    @classmethod
    def deck_for(cls, variant: dict[str, Any]) -> Deck:
        return DECK

    @classmethod
    def sizes_for(cls, variant: dict[str, Any]) -> tuple[tuple[int, ...], int]:
        return (10, 10, 10), 2

    def _setup_deal(self, hands: list[list[int]], stock: list[int]) -> None:
        fh = NEXT[self.dealer]
        self.hands = hands
        self.skat = stock
        bit = BIT.__getitem__
        m0 = sum(map(bit, hands[0]))
        m1 = sum(map(bit, hands[1]))
        # hands + stock are the whole deck (checked for explicit deals): the third hand is the rest
        self.masks = [m0, m1, 0xFFFFFFFF ^ m0 ^ m1 ^ bit(stock[0]) ^ bit(stock[1])]
        self.phase = OFFER if self.variant["grand_hand"] else SKAT
        self.turn = fh
        self.declarer = -1
        self.offers = []
        self.skat_log = []
        self.pushes = 0
        self.taken = [[], [], []]
        self.kontra = -1
        self.re = 0
        self.doubles = []
        self.trick = []
        self.leader = fh
        self.won = [0, 0, 0]
        self.pts = [0, 0, 0]
        self.tricks = []
        self.last = -1

    def redeal(self, rng: random.Random) -> None:
        """``Match.redeal`` without its generic deck cutting (same shuffle, same deals): the
        benchmark and bots' rollouts deal once per playout."""
        if self.log[-1][2]:
            raise EngineFault("redeal after the deal has begun")
        cards = DECK.shuffled(rng)
        h0, h1, h2, stock = cards[0:10], cards[10:20], cards[20:30], cards[30:]
        self.log[-1] = [[h0, h1, h2], stock, []]
        self._setup_deal([h0[:], h1[:], h2[:]], stock[:])

    def _partial(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "scores": [0, 0, 0], "payouts": [0, 0, 0]}

    def _final_winners(self) -> list[int]:
        t0 = t1 = t2 = 0
        for r in self.results:
            a, b, c = r["scores"]
            t0 += a
            t1 += b
            t2 += c
        best = min(t0, t1, t2)
        return [seat for seat, total in enumerate((t0, t1, t2)) if total == best]

    # ------------------------------------------------------------------ fast path
    def actor(self) -> int:
        return self.turn  # -1 once the match is over

    def _plays(self, seat: int) -> list[int]:
        trick = self.trick
        if trick:
            led = EFF[trick[0]]
            follow = FOLLOW[led][self.masks[seat] & GROUP[led]]
            if follow:
                return list(follow)
        return self.hands[seat][:]

    def _discardable(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        if self.variant["jacks_in_skat"]:
            return hand[:]
        return [c for c in hand if c % 8 != 4]

    def moves(self, seat: int) -> list[Any]:
        """Compact moves: a card int for a play, ``("discard", (a, b))`` and one-word tuples
        (``("pass",)``, ``("push",)``…) for the rest."""
        if self.finished or seat != self.turn:
            return []
        phase = self.phase
        if phase == PLAY:
            return self._plays(seat)
        if phase == OFFER:
            return [("grand_hand",), ("pass",)]
        if phase == SKAT:
            return [("pickup",), ("push",)]
        if phase == DISCARD:
            return [("discard", c) for c in combinations(sorted(self._discardable(seat)), 2)]
        if phase == KONTRA:
            return [("kontra",), ("pass",)]
        return [("re",), ("pass",)]

    def random_move(self, seat: int, rng: random.Random) -> Any:
        if self.phase == 5:  # PLAY (a literal: this is the hot path of every playout)
            trick = self.trick
            if trick:
                f, n = FOLLOW_ANY[self.masks[seat] & GROUP_OF[trick[0]]]
                if n:
                    return f[floor(rng.random() * n)]
            hand = self.hands[seat]
            return hand[floor(rng.random() * len(hand))]
        phase = self.phase
        r = rng.random()
        if phase == DISCARD:
            pool = self._discardable(seat)
            n = len(pool)
            i = floor(r * n)
            j = floor(rng.random() * (n - 1))
            a, b = pool[i], pool[j if j < i else j + 1]
            return ("discard", (a, b) if a < b else (b, a))
        if phase == OFFER:
            return _GRAND if r < 0.5 else _PASS
        if phase == SKAT:
            return _PICKUP if r < 0.5 else _PUSH
        if phase == KONTRA:
            return _KONTRA if r < 0.5 else _PASS
        return _RE if r < 0.5 else _PASS

    def play(self, seat: int, move: Any, ev: list[Event] | None = None) -> None:
        if type(move) is not int:
            self._play_other(seat, move, ev)
            return
        self.hands[seat].remove(move)
        self.masks[seat] ^= BIT[move]
        trick = self.trick
        trick.append(move)
        if ev is not None:
            ev.append(event("play", seat=seat, card=DECK.code_of[move]))
        if len(trick) < 3:
            self.turn = NEXT[seat]
            return
        a, b, c = trick
        leader = self.leader
        x = WIN[leader][a][b][c]
        w = x & 3
        self.won[w] += 1
        self.pts[w] += x >> 2
        self.tricks.append([leader, a, b, c, w])
        self.trick = []
        self.leader = self.turn = w
        if ev is not None:
            ev.append(event("trick", leader=leader, cards=DECK.codes(trick), winner=w))
        if not self.masks[w]:
            self.last = w
            self._score(ev)

    def _play_other(self, seat: int, move: tuple, ev: list[Event] | None) -> None:
        kind = move[0]
        phase = self.phase
        if phase == OFFER:
            self.offers.append([seat, 1 if kind == "grand_hand" else 0])
            if ev is not None:
                ev.append(event(kind, seat=seat, phase="offer"))
            if kind == "grand_hand":
                self.declarer = seat
                if self.variant["kontra_re"]:
                    self.phase = KONTRA
                    self.turn = OPPONENTS[self.dealer][seat][0]
                else:
                    self._start_play()
            elif seat == self.dealer:  # rearhand passed too: Schieberamsch
                self.phase = SKAT
                self.turn = NEXT[seat]  # forehand
            else:
                self.turn = NEXT[seat]
        elif phase == SKAT:
            if kind == "pickup":
                self.skat_log.append([seat, 1])
                hand = self.hands[seat]
                self.taken[seat] = [self.skat[:], []]
                if ev is not None:
                    ev.append(event("pickup", seat=seat))
                    ev.append(event("skat", [seat], seat=seat, cards=DECK.codes(self.skat)))
                hand += self.skat
                self.masks[seat] |= BIT[self.skat[0]] | BIT[self.skat[1]]
                self.skat = []
                self.phase = DISCARD
            else:
                self.skat_log.append([seat, 0])
                self.pushes += 1
                if ev is not None:
                    ev.append(event("push", seat=seat, pushes=self.pushes))
                self._after_skat(seat)
        elif phase == DISCARD:
            cards = list(move[1])
            hand = self.hands[seat]
            for c in cards:
                hand.remove(c)
                self.masks[seat] ^= BIT[c]
            self.skat = cards
            self.taken[seat][1] = cards[:]
            if ev is not None:
                ev.append(event("discard", [seat], seat=seat, cards=DECK.codes(cards)))
                ev.append(event("discarded", seat=seat, count=2))
            self._after_skat(seat)
        elif phase == KONTRA:
            self.doubles.append([seat, kind])
            if ev is not None:
                ev.append(event(kind, seat=seat, phase="kontra"))
            if kind == "kontra":
                self.kontra = seat
                self.phase = RE
                self.turn = self.declarer
            else:
                first, second = OPPONENTS[self.dealer][self.declarer]
                if seat == first:
                    self.turn = second
                else:
                    self._start_play()
        elif phase == RE:
            self.doubles.append([seat, kind])
            if kind == "re":
                self.re = 1
            if ev is not None:
                ev.append(event(kind, seat=seat, phase="re"))
            self._start_play()
        else:  # pragma: no cover - a move the fast path never produces
            raise EngineFault(f"move {move!r} in phase {PHASES[phase]}")

    def _opponents(self) -> list[int]:
        """The Grand Hand's opponents in the order they are asked (from forehand)."""
        return OPPONENTS[self.dealer][self.declarer][:]

    def _after_skat(self, seat: int) -> None:
        if seat == self.dealer:  # rearhand was the last to decide: play
            self._start_play()
        else:
            self.phase = SKAT
            self.turn = NEXT[seat]

    def _start_play(self) -> None:
        self.phase = PLAY
        self.leader = self.turn = NEXT[self.dealer]

    PHASES = tuple(p for p in PHASES if p != "over")
    SUMMARY_CODES = frozenset(
        {
            "trick_points",
            "skat",
            "tricks",  # the table
            "card_points",
            "pushes",
            "jungfrau",
            "divisor",
            "no_penalty",
            "jungfrau_seat",
            "even",
            "durchmarsch",
            "grand_value",
            "kontra",
            "re",
            "grand_won",
            "grand_lost",
            "grand_opponent",
            "settle",
            # notes
            "grand_hand",
            "declarer_points",
            "skat_to",
            "pushed",
        }
    )

    def _skat_takers(self) -> list[int]:
        """Who the skat's points count for: the Grand Hand's declarer, else the last trick's
        taker or the seats with the most card points (``skat_to``)."""
        if self.declarer >= 0:
            return [self.declarer]
        if self.variant["skat_to"] == "last_trick":
            return [self.last]
        return [i for i in range(3) if self.pts[i] == max(self.pts)]

    def _deal_table(self) -> list[dict[str, Any]]:
        sp = POINTS[self.skat[0]] + POINTS[self.skat[1]]
        takers = self._skat_takers()
        skat = [sp if i in takers else 0 for i in range(3)]
        return [
            row("tricks", "Tricks taken", self.won),
            row("trick_points", "Card points in tricks", self.pts),
            row("skat", "The skat's card points", skat),
            row("card_points", "Card points", [p + k for p, k in zip(self.pts, skat, strict=True)]),
        ]

    def _summarize(self, scores: list[int], payouts: list[int]) -> dict[str, Any]:
        """Score: the penalty, step by step — card points (the skat included where it went),
        the pushes' and a Jungfrau's doublings, a Durchmarsch, a Grand Hand's value, then the
        divisor. Payout: what each other seat's penalty exceeds the seat's own by."""
        v = self.variant
        div = v["score_divisor"]
        skat = DECK.codes(self.skat)
        sp = POINTS[self.skat[0]] + POINTS[self.skat[1]]
        d = self.declarer

        def divided(lines: list[dict[str, Any]], running: int) -> None:
            if div != 1:
                after = pen(running, div)
                text = f"÷ {div}, the fraction dropped: {after}"
                lines.append(part("divisor", text, after - running, divisor=div, op=divide(div)))

        if d >= 0:
            kind, notes, score_parts = self._grand_summary(skat, sp, divided)
        else:
            kind, notes, score_parts = self._ramsch_summary(skat, sp, divided)
        payout_parts = [
            [
                part(
                    "settle",
                    f"Settles with seat {j}: {scores[j]} less {scores[i]}",
                    scores[j] - scores[i],
                    seat=j,
                )
                for j in range(3)
                if j != i
            ]
            for i in range(3)
        ]
        return {
            "kind": kind,
            "notes": notes,
            "score_parts": score_parts,
            "payout_parts": payout_parts,
        }

    def _grand_summary(self, skat: list[str], sp: int, divided: Any) -> tuple[str, list, list]:
        d = self.declarer
        dealt_hands, orig_skat, _ = self.log[self.deal_no]
        held = dealt_hands[d] + orig_skat
        m = matadors(held)
        p, t = self.pts[d] + sp, self.won[d]
        kontra = self.kontra >= 0
        levels, value = grand_value(m, p, t, kontra, bool(self.re))
        schneider, schwarz = p >= 90 or p <= 30, t in (0, 10)
        with_ = JACKS[0] in held
        extra = (", schneider" if schneider else "") + (", schwarz" if schwarz else "")
        running = 24 * levels
        lines = [
            part(
                "grand_value",
                f"Grand Hand: 24 x {levels} ({'with' if with_ else 'without'} {m}, game, hand"
                f"{extra})",
                running,
                levels=levels,
                matadors=m,
                with_matadors=with_,
                schneider=schneider,
                schwarz=schwarz,
            )
        ]
        if kontra:
            lines.append(
                part("kontra", f"Kontra by seat {self.kontra}: doubled", running, op=times(2))
            )
            running *= 2
        if self.re:
            lines.append(part("re", "Re: doubled again", running, op=times(2)))
            running *= 2
        if running != value:  # pragma: no cover - the summary follows grand_value
            raise EngineFault(f"grand value {running} differs from {value}")
        if p >= 61:
            text = f"Won with {p} card points: taken off the penalties"
            lines.append(part("grand_won", text, -2 * running, points=p, op=times(-1)))
            running = -running
        else:
            factor = self.variant["grand_loss_factor"]
            text = f"Lost with {p} card points: " + (
                "counts double" if factor == 2 else "a penalty"
            )
            figures = {"op": times(factor)} if factor > 1 else {}
            lost = part(
                "grand_lost", text, running * (factor - 1), points=p, factor=factor, **figures
            )
            lines.append(lost)
            running *= factor
        divided(lines, running)
        opponent = part("grand_opponent", f"Opponent of seat {d}'s Grand Hand", 0, declarer=d)
        score_parts = [lines if s == d else [dict(opponent)] for s in range(3)]
        notes = [
            note("grand_hand", f"Grand Hand by seat {d}", declarer=d),
            note(
                "declarer_points",
                f"Seat {d} took {p} card points in {t} tricks (the skat's {sp} included)",
                points=p,
                tricks=t,
                skat=skat,
            ),
        ]
        return "grand_hand", notes, score_parts

    def _ramsch_summary(self, skat: list[str], sp: int, divided: Any) -> tuple[str, list, list]:
        v = self.variant
        pts, won, pushes = self.pts, self.won, self.pushes
        if v["skat_to"] == "last_trick":
            takers = [self.last]
            where = f"seat {self.last}, who took the last trick"
        else:
            takers = [i for i in range(3) if pts[i] == max(pts)]
            where = " and ".join(f"seat {i}" for i in takers) + ", the most card points"
        final = [pts[i] + (sp if i in takers else 0) for i in range(3)]
        _, kind = ramsch_scores(final, won, pushes, v)
        mult = 1 << pushes
        how_often = f"{pushes} time{'s' if pushes != 1 else ''}"
        notes = [
            note(
                "skat_to",
                f"The skat ({' '.join(skat)}, {sp} points) goes to {where}",
                cards=skat,
                points=sp,
                seats=takers,
            ),
            note(
                "pushed",
                f"The skat was pushed {how_often}: x {mult}",
                pushes=pushes,
                multiplier=mult,
            ),
        ]

        def pushed(lines: list[dict[str, Any]], running: int) -> int:
            if pushes:
                text = f"x {mult}: the skat was pushed {how_often}"
                lines.append(
                    part("pushes", text, running * (mult - 1), multiplier=mult, op=times(mult))
                )
            return running * mult

        def spare(i: int) -> dict[str, Any]:
            if kind == "jungfrau" and not won[i]:
                return part("jungfrau_seat", "No trick taken (a Jungfrau)", 0)
            text = f"{final[i]} card points: not the most"
            return part("no_penalty", text, 0, points=final[i])

        score_parts: list[list[dict[str, Any]]] = []
        if kind == "durchmarsch":
            s = won.index(10)
            for i in range(3):
                if i != s:
                    score_parts.append([part("no_penalty", f"Seat {s} took every trick", 0)])
                    continue
                lines = [part("durchmarsch", "Durchmarsch: every trick taken", -120)]
                running = -120
                if v["durchmarsch_pushes"]:
                    running = pushed(lines, running)
                divided(lines, running)
                score_parts.append(lines)
            return kind, notes, score_parts
        if kind == "even":
            text = f"All three took {final[0]} card points"
            return kind, notes, [[part("even", text, 0, points=final[0])] for _ in range(3)]
        pool = [i for i in range(3) if won[i]] if kind == "jungfrau" else [0, 1, 2]
        most = max(final[i] for i in pool)
        for i in range(3):
            if i not in pool or final[i] != most:
                score_parts.append([spare(i)])
                continue
            lines = [
                part(
                    "trick_points",
                    f"{pts[i]} card points in {won[i]} tricks",
                    pts[i],
                    points=pts[i],
                    tricks=won[i],
                )
            ]
            if i in takers:
                lines.append(part("skat", f"the skat ({' '.join(skat)})", sp, cards=skat))
            running = pushed(lines, final[i])
            if kind == "jungfrau":
                text = "x 2: a Jungfrau (a seat took no trick)"
                lines.append(part("jungfrau", text, running, op=times(2)))
                running *= 2
            divided(lines, running)
            score_parts.append(lines)
        return kind, notes, score_parts

    def _settle(self) -> tuple[list[int], dict[str, Any]]:
        """Scores of the played-out deal and how they came about (for the event and the view)."""
        v = self.variant
        skat_points = POINTS[self.skat[0]] + POINTS[self.skat[1]]
        pts = self.pts[:]
        won = self.won[:]
        d = self.declarer
        if d >= 0:
            pts[d] += skat_points
            dealt_hands, orig_skat, _ = self.log[self.deal_no]
            m = matadors(dealt_hands[d] + orig_skat)
            kontra = self.kontra >= 0
            levels, value = grand_value(m, pts[d], won[d], kontra, bool(self.re))
            scores = grand_scores(d, m, pts[d], won[d], kontra, bool(self.re), v)
            return scores, {
                "kind": "grand_hand",
                "points": pts,
                "tricks": won,
                "matadors": m,
                "levels": levels,
                "value": value,
                "won": pts[d] >= 61,
            }
        if v["skat_to"] == "last_trick":
            pts[self.last] += skat_points
        else:
            best = max(self.pts)
            for i in range(3):
                if self.pts[i] == best:
                    pts[i] += skat_points
        scores, kind = ramsch_scores(pts, won, self.pushes, v)
        return scores, {"kind": kind, "points": pts, "tricks": won, "pushes": self.pushes}

    def _scores(self) -> list[int]:
        """The scores of ``_settle`` without its outcome record: the fast path's settlement (every
        playout ends here). The validated path checks it against ``_settle`` on every deal."""
        v = self.variant
        skat = self.skat
        sp = POINTS[skat[0]] + POINTS[skat[1]]
        pts = self.pts
        won = self.won
        d = self.declarer
        if d >= 0:
            p = pts[d] + sp
            t = won[d]
            dealt_hands, orig_skat, _ = self.log[self.deal_no]
            hand = dealt_hands[d]
            want = 4 in hand or 4 in orig_skat
            levels = 3  # one matador + game + hand
            for j in (12, 20, 28):
                if (j in hand or j in orig_skat) is not want:
                    break
                levels += 1
            if p >= 90 or p <= 30:
                levels += 1
            if t == 0 or t == 10:
                levels += 1
            value = 24 * levels
            if self.kontra >= 0:
                value *= 2
            if self.re:
                value *= 2
            if p < 61:
                value = -value * v["grand_loss_factor"]
            scores = [0, 0, 0]
            scores[d] = pen(-value, v["score_divisor"])
            return scores
        p0, p1, p2 = pts
        if v["skat_to"] == "last_trick":
            last = self.last
            if last == 0:
                p0 += sp
            elif last == 1:
                p1 += sp
            else:
                p2 += sp
        else:
            best = p0 if p0 >= p1 and p0 >= p2 else p1 if p1 >= p2 else p2
            if p0 == best:
                p0 += sp
            if p1 == best:
                p1 += sp
            if p2 == best:
                p2 += sp
        div = v["score_divisor"]
        mult = 1 << self.pushes
        t0, t1, t2 = won
        if t0 == 10 or t1 == 10 or t2 == 10:
            scores = [0, 0, 0]
            x = -120 * (mult if v["durchmarsch_pushes"] else 1)
            scores[0 if t0 == 10 else 1 if t1 == 10 else 2] = -((-x) // div)
            return scores
        if (t0 == 0) + (t1 == 0) + (t2 == 0) == 1:  # jungfrau: the losers pay double
            best = max(p0 if t0 else -1, p1 if t1 else -1, p2 if t2 else -1)
            mult *= 2
        else:
            best = p0 if p0 >= p1 and p0 >= p2 else p1 if p1 >= p2 else p2
            if p0 == p1 == p2:
                return [0, 0, 0]
        return [
            p0 * mult // div if p0 == best else 0,
            p1 * mult // div if p1 == best else 0,
            p2 * mult // div if p2 == best else 0,
        ]

    def _score(self, ev: list[Event] | None) -> None:
        """The deal is played out: score it and move on (a forced step, not an action)."""
        scores = self._scores()
        self.phase = OVER
        if ev is not None:
            checked, outcome = self._settle()
            if checked != scores:  # pragma: no cover - the two scorers must agree
                raise EngineFault(f"fast scores {scores} differ from {checked}")
            ev.append(event("score", skat=DECK.codes(self.skat), scores=scores, **outcome))
        total = scores[0] + scores[1] + scores[2]
        payouts = [total - 3 * scores[0], total - 3 * scores[1], total - 3 * scores[2]]
        self._end_deal(self.dealer, scores, payouts, ev)
        if self.finished:
            self.turn = -1

    def clone(self) -> SchieberamschMatch:
        m = SchieberamschMatch.__new__(SchieberamschMatch)
        self._copy_common(m)
        h = self.hands
        m.hands = [h[0][:], h[1][:], h[2][:]]
        m.skat = self.skat[:]
        m.masks = self.masks[:]
        m.phase = self.phase
        m.turn = self.turn
        m.declarer = self.declarer
        m.offers = self.offers[:]
        m.skat_log = self.skat_log[:]
        m.pushes = self.pushes
        t = self.taken
        m.taken = [t[0][:], t[1][:], t[2][:]]
        m.kontra = self.kontra
        m.re = self.re
        m.doubles = self.doubles[:]
        m.trick = self.trick[:]
        m.leader = self.leader
        m.won = self.won[:]
        m.pts = self.pts[:]
        m.tricks = self.tricks[:]
        m.last = self.last
        return m

    def move_to_action(self, move: Any) -> dict[str, Any]:
        if type(move) is int:
            return {"act": "play", "card": DECK.code_of[move]}
        if move[0] == "discard":
            return {"act": "discard", "cards": DECK.codes(move[1])}
        return {"act": move[0]}

    # ------------------------------------------------------------------ validated path
    def to_act(self) -> list[int]:
        return [] if self.finished else [self.turn]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        if self.finished or seat != self.turn:
            return []
        if self.phase == PLAY:
            return [{"act": "play", "card": c} for c in DECK.codes(sorted(self._plays(seat)))]
        if self.phase == DISCARD:
            return [
                {"act": "discard", "choose": 2, "from": DECK.codes(sorted(self._discardable(seat)))}
            ]
        return [self.move_to_action(m) for m in self.moves(seat)]

    def _card(self, seat: int, code: Any) -> int:
        try:
            card = DECK.parse(code)
        except ValueError:
            raise unknown_card(code) from None
        if card not in self.hands[seat]:
            raise not_held(DECK.code_of[card])
        return card

    # ------------------------------------------------------------------ reasons
    # The play: follow the suit led (a jack is a trump, of no suit) or play a jack on a jack
    # led; the discard after a pickup: no jack to the skat unless ``jacks_in_skat``.
    REASONS = COMMON_REASONS | {
        "must_follow_suit",
        "must_play_jack",
        "jack_cannot_go_to_skat",
    }

    def _play_reason(self, seat: int, card: int) -> Reason | None:
        """Why ``seat`` may not play ``card`` to the trick now (None: it may)."""
        trick = self.trick
        if not trick:
            return None
        led = EFF[trick[0]]
        if EFF[card] == led or not FOLLOW[led][self.masks[seat] & GROUP[led]]:
            return None
        if led == TRUMP:
            return reason("must_play_jack", "a jack was led: you must play a jack")
        # records.md's exact reason (`must follow suit S`), for a jack too: it is no suit's
        suit = SUITS[led]
        return reason("must_follow_suit", f"must follow suit {suit}", suit=suit)

    def _discard_reason(self, card: int) -> Reason | None:
        if card % 8 == 4 and not self.variant["jacks_in_skat"]:
            return reason(
                "jack_cannot_go_to_skat",
                "a jack may not be discarded to the skat",
                card=DECK.code_of[card],
            )
        return None

    def _why_not(self, seat: int) -> dict[int, Reason] | None:
        phase = self.phase
        if phase == PLAY:
            if not self.trick:
                return {}
            out = {}
            for c in self.hands[seat]:
                why = self._play_reason(seat, c)
                if why is not None:
                    out[c] = why
            return out
        if phase == DISCARD:
            out = {}
            for c in self.hands[seat]:
                why = self._discard_reason(c)
                if why is not None:
                    out[c] = why
            return out
        return None  # the offer, the skat, kontra and re choose no card

    def check(self, seat: int, action: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        act = action["act"]
        phase = self.phase
        if act not in _PHASE_ACTS[phase]:
            if act not in _SIMPLE and act not in ("play", "discard"):
                raise refuse("unknown_act", f"'{act}' is not a move in Schieberamsch", act=act[:20])
            raise refuse(
                "wrong_phase",
                f"wrong phase: {_PHASE_HINT[phase]}",
                phase=PHASES[phase],
                acts=list(_PHASE_ACTS[phase]),
            )
        if phase == PLAY:
            card = self._card(seat, action.get("card"))
            why = self._play_reason(seat, card)
            if why is not None:
                raise IllegalAction.because(why)
            return card, {"act": "play", "card": DECK.code_of[card]}
        if phase == DISCARD:
            codes = action.get("cards")
            if not isinstance(codes, list):
                raise refuse("cards_not_a_list", "discard: 'cards' must be a list of 2 cards")
            cards = [self._card(seat, c) for c in codes]
            if len(set(cards)) != len(cards):
                raise refuse("same_card_twice", "discard: the same card twice")
            if len(cards) != 2:
                raise refuse(
                    "wrong_card_count", "discard exactly 2 cards", expected=2, count=len(cards)
                )
            for c in cards:
                why = self._discard_reason(c)
                if why is not None:
                    raise IllegalAction.because(why)
            return ("discard", tuple(cards)), {"act": "discard", "cards": DECK.codes(cards)}
        return (act,), {"act": act}

    def public_view(self) -> dict[str, Any]:
        v = self._common_view()
        c = DECK.codes
        d = self.declarer
        v.update(
            {
                "dealer": self.dealer,
                "forehand": (self.dealer + 1) % 3,
                "phase": "over" if self.finished else PHASES[self.phase],
                "turn": None if self.finished else self.turn,
                "contract": "grand_hand" if d >= 0 else "ramsch",
                "declarer": None if d < 0 else d,
                "offers": [
                    {"seat": s, "act": "grand_hand" if a else "pass"} for s, a in self.offers
                ],
                "skat_moves": [
                    {"seat": s, "act": "pickup" if a else "push"} for s, a in self.skat_log
                ],
                "pushes": self.pushes,
                "multiplier": 1 << self.pushes,
                "doubles": [{"seat": s, "act": a} for s, a in self.doubles],
                "kontra": self.kontra >= 0,
                "re": bool(self.re),
                "hand_sizes": [len(h) for h in self.hands],
                "leader": self.leader,
                "trick": [
                    {"seat": (self.leader + i) % 3, "card": DECK.code_of[x]}
                    for i, x in enumerate(self.trick)
                ],
                "played": [
                    {"leader": t[0], "cards": c(t[1:4]), "winner": t[4]} for t in self.tricks
                ],
                "tricks_won": self.won[:],
                "trick_points": self.pts[:],
                "outcome": self._settle()[1] if self.phase == OVER else None,
                "suits": {s: SUIT_NAMES[s] for s in SUITS},
            }
        )
        if self.phase == OVER:
            v["skat"] = c(self.skat)
        return v

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {"seat": seat}
        if seat is not None:
            c = DECK.codes
            v["hand"] = c(sorted(self.hands[seat]))
            mine = self.taken[seat]
            v["skat_seen"] = (
                {"taken": c(mine[0]), "put": c(mine[1]) if mine[1] else None} if mine else None
            )
        return v
