"""Saichugen (最中限): three seats commit a card face down at once; the median card wins.

Rules: ../shared/rules/saichugen.md. One record deal = one game of 5 rounds of 3 tricks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from math import floor
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
    refuse,
    row,
    unknown_card,
)
from games.core.cards import FRENCH52, SUIT_NAMES, Deck
from games.core.hints import gettext_noop
from games.core.sheet_rules import FULL, SCORES, GridField, SheetError, SheetRules, ints
from games.core.variants import Flag

DECK = FRENCH52
# Card value: A=1 … K=13. Ranks in code order are A K Q J T 9 … 2.
_RANK_VALUE = [1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
VALUE = [_RANK_VALUE[c % 13] for c in range(52)]
# Strength: rank first, then suit S > H > D > C (suit index 0..3 in "SHDC").
STRENGTH = [VALUE[c] * 4 + (3 - c // 13) for c in range(52)]

ROUNDS = 5
TRICKS_PER_ROUND = 3


def median_seat(a: int, b: int, c: int) -> int:
    """Index (0, 1, 2) of the middle one of three distinct numbers."""
    if a < b:
        if b < c:
            return 1
        return 2 if a < c else 0
    if a < c:
        return 0
    return 2 if b < c else 1


def card_value(card: str) -> int:
    """A card code's value, what a trick won with it scores: A 1 … K 13."""
    return VALUE[DECK.id_of[card]]


def card_strength(card: str) -> int:
    """A card code's strength: its value first, then its suit (S > H > D > C); all distinct."""
    return STRENGTH[DECK.id_of[card]]


def trick_winner(cards: Sequence[str]) -> int:
    """Index (0, 1, 2: seat order) of the three card codes' winner: the median strength."""
    a, b, c = cards
    id_of = DECK.id_of
    return median_seat(STRENGTH[id_of[a]], STRENGTH[id_of[b]], STRENGTH[id_of[c]])


def round_banked(scores: list[int]) -> list[int]:
    """What each seat banks from round scores ``R``: the seats at the median keep theirs."""
    a, b, c = scores
    # the median of three without sorting (this runs 5 times per playout)
    m = (b if b <= c else c if a <= c else a) if a <= b else a if a <= c else c if b <= c else b
    return [a if a == m else 0, b if b == m else 0, c if c == m else 0]


PAYOUT = Flag(
    "payout",
    "choice",
    "zero_sum",
    choices=("zero_sum", "raw"),
    help=gettext_noop(
        "fixed: +2/-1 or +1/-2 by the number of median winners; score differences: three "
        "times your game score less the three game scores together, the pairwise settlement "
        "of game scores"
    ),
    label=gettext_noop("Payout"),
    labels={
        "zero_sum": gettext_noop("fixed, +2/-1 or +1/-2"),
        "raw": gettext_noop("score differences"),
    },
)


def payout_mode(variant: Mapping[str, Any] | None) -> str:
    """The payout mode a table's variant sets (the flag's default when it sets none)."""
    return (variant or {}).get("payout", PAYOUT.default)


def game_payouts(game_scores: list[int], mode: str = "zero_sum") -> list[int]:
    """The zero-sum payout of a finished game, in the variant's ``payout_mode``."""
    if mode == "raw":
        total = sum(game_scores)
        return [3 * g - total for g in game_scores]
    m = sorted(game_scores)[1]
    winners = [g == m for g in game_scores]
    n = sum(winners)
    if n == 3:
        return [0, 0, 0]
    win, lose = (2, -1) if n == 1 else (1, -2)
    return [win if w else lose for w in winners]


MAX_ROUND_SCORE = TRICKS_PER_ROUND * 13
# The most a seat banks in a round: it banks only at the median, with another seat scoring as
# much or more, and two seats above 13 would need two tricks each of the round's three.
MAX_BANKED = 13
MAX_GAME_SCORE = ROUNDS * MAX_BANKED
# The grid's labels, one per round (written out so that makemessages finds each).
ROUND_LABELS = (
    gettext_noop("Round 1"),
    gettext_noop("Round 2"),
    gettext_noop("Round 3"),
    gettext_noop("Round 4"),
    gettext_noop("Round 5"),
)


def round_problem(scores: Sequence[int]) -> str | None:
    """Why three round scores cannot come from one round (None: they can). Each of the round's
    three tricks scores its winning card's value (1 to 13) for one seat: a seat that scored
    took at least one trick, and at least ⌈score / 13⌉ of them."""
    total = sum(scores)
    if not TRICKS_PER_ROUND <= total <= MAX_ROUND_SCORE:
        return (
            f"a round's {TRICKS_PER_ROUND} tricks score {TRICKS_PER_ROUND} to "
            f"{MAX_ROUND_SCORE} together, not {total}"
        )
    fewest = sum(max(1, -(-r // 13)) for r in scores if r)
    most = sum(min(r, TRICKS_PER_ROUND) for r in scores if r)
    if not fewest <= TRICKS_PER_ROUND <= most:
        return f"these scores need {fewest} tricks, and a round has {TRICKS_PER_ROUND}"
    return None


def game_score(rounds: Sequence[Sequence[int]]) -> list[int]:
    """The game scores from the five rounds' scores: each round banks at its median."""
    totals = [0, 0, 0]
    for scores in rounds:
        totals = [t + b for t, b in zip(totals, round_banked(list(scores)), strict=True)]
    return totals


def check_game_scores(scores: Sequence[int]) -> None:
    """Refuse game scores no game gives a seat: each from 0 to `MAX_GAME_SCORE` (five rounds of
    at most `MAX_BANKED` banked)."""
    for s, score in enumerate(scores):
        if not 0 <= score <= MAX_GAME_SCORE:
            raise SheetError(
                f"a game score is from 0 to {MAX_GAME_SCORE} (seat {s} has {score})",
                field="scores",
                seat=s,
            )


class SaichugenSheet(SheetRules):
    """A sheet deal: ``{"scores": [G0, G1, G2]}``, the game scores banked over five rounds."""

    EXAMPLE: ClassVar[dict[str, Any]] = {"deals": [{"scores": [20, 20, 35]}]}
    # The payouts follow from the game scores alone: a grid of the game scores too.
    LAYOUTS: ClassVar[tuple[str, ...]] = (FULL, SCORES)

    def deal(self, deal: dict[str, Any], dealer: int) -> tuple[list[int], list[int], int]:
        scores = ints(deal.get("scores"), 3, "scores")
        check_game_scores(scores)
        return scores, game_payouts(scores, payout_mode(self.variant)), dealer

    def grid(self, layout: str = FULL) -> list[GridField]:
        """Each round's scores, per seat: the values of the tricks the seat won in it; or, in
        the `scores` layout, each seat's game score."""
        if layout == SCORES:
            return [
                GridField(
                    "scores",
                    gettext_noop("Game score"),
                    "int",
                    per_seat=True,
                    min=0,
                    max=MAX_GAME_SCORE,
                    help=gettext_noop("the points each seat banked over the five rounds"),
                )
            ]
        return [
            GridField(
                f"round{n}",
                ROUND_LABELS[n - 1],
                "int",
                per_seat=True,
                min=0,
                max=MAX_ROUND_SCORE,
                help=gettext_noop("the values of the tricks each seat won in the round"),
            )
            for n in range(1, ROUNDS + 1)
        ]

    def from_row(self, row: dict[str, Any], layout: str = FULL) -> dict[str, Any]:
        if layout == SCORES:
            check_game_scores(row["scores"])
            return {"scores": list(row["scores"])}
        rounds = [row[f"round{n}"] for n in range(1, ROUNDS + 1)]
        for n, scores in enumerate(rounds, start=1):
            problem = round_problem(scores)
            if problem:
                raise SheetError(problem, field=f"round{n}")
        return {"scores": game_score(rounds)}


class SaichugenMatch(Match):
    """A Saichugen match: each deal is one 5-round game; several seats may act at once."""

    GAME = "saichugen"
    DISPLAY = "Saichugen"
    NAMES = {"ja": "最中限"}  # the game's own name: "the limit of the middle"
    SEATS = 3
    SHEET = SaichugenSheet
    GOAL = gettext_noop(  # translated where shown (the table's goal line)
        "Be the most mediocre: the median card takes the trick, "
        "the median round score is banked, the median game score wins."
    )
    # The Match table's legend: what a deal's score and payout mean, who wins (English)
    LEGEND = {
        "unit": gettext_noop("game score"),
        "score": gettext_noop(
            "Score: the game score, the round scores banked (a round banks only at its median)."
        ),
        "payout": gettext_noop(
            "Payout: +2 alone on the median game score, +1 each when two share it, -1 or -2 for "
            "the others, 0 when all three are equal (raw payout: 3 x your game score less all "
            "three)."
        ),
        "winner": gettext_noop("The highest total payout wins."),
    }
    HINTS = {
        "act.commit": gettext_noop(
            "Pick a card face down. When all three have picked, the cards are shown together "
            "and the middle one takes the trick."
        ),
        "trick": gettext_noop(
            "The median card (the middle of the three: rank first, then ♠ > ♥ > ♦ > ♣) takes the "
            "trick and scores its value, A = 1 up to K = 13."
        ),
        "round": gettext_noop(
            "A round is 3 tricks. The seats whose round score is the median of the three bank "
            "it; the others bank nothing. Taking all three tricks always loses the round."
        ),
        "game_score": gettext_noop(
            "The round scores this seat banked, added up. After 5 rounds the seats on the "
            "median game score win the deal."
        ),
    }
    FLAGS = (PAYOUT,)
    STATE = (
        "hands",
        "stock",
        "commits",
        "ncommits",
        "round",
        "trick",
        "round_pts",
        "game_pts",
        "tricks",
        "rounds",
    )
    __slots__ = STATE

    hands: list[list[int]]
    stock: list[int]
    commits: list[int]
    ncommits: int
    round: int
    trick: int
    round_pts: list[int]
    game_pts: list[int]
    tricks: list[list[int]]
    rounds: list[list[int]]

    @classmethod
    def deck_for(cls, variant: dict[str, Any]) -> Deck:
        return DECK

    @classmethod
    def sizes_for(cls, variant: dict[str, Any]) -> tuple[tuple[int, ...], int]:
        return (17, 17, 17), 1

    def _setup_deal(self, hands: list[list[int]], stock: list[int]) -> None:
        self.hands = hands
        self.stock = stock
        self.commits = [-1, -1, -1]
        self.ncommits = 0
        self.round = 0
        self.trick = 0
        self.round_pts = [0, 0, 0]
        self.game_pts = [0, 0, 0]
        self.tricks = []
        self.rounds = []

    def _partial(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "scores": self.game_pts[:], "payouts": [0, 0, 0]}

    def _final_winners(self) -> list[int]:
        totals = [sum(r["payouts"][i] for r in self.results) for i in range(3)]
        best = max(totals)
        return [i for i in range(3) if totals[i] == best]

    PHASES = ("commit",)
    SUMMARY_CODES = frozenset(
        {
            "round_banked",
            "round_not_banked",
            "median_alone",
            "median_shared",
            "off_median",
            "all_equal",
            "raw_own",
            "raw_field",
            # the table
            "tricks",
            "trick_values",
            # notes
            "payout_mode",
            "game_scores",
        }
    )

    def _deal_table(self) -> list[dict[str, Any]]:
        won, values = [0, 0, 0], [0, 0, 0]
        for trick in self.tricks:
            w = trick[3]
            won[w] += 1
            values[w] += VALUE[trick[w]]
        return [
            row("tricks", "Tricks won", won),
            row("trick_values", "Values of the median cards won", values),
        ]

    def _summarize(self, scores: list[int], payouts: list[int]) -> dict[str, Any]:
        """Score: each round's points (the median cards the seat won with), banked when they
        are the round's median. Payout: the game score against the median game score
        (zero_sum), or 3 x the game score less all three (raw)."""
        code = DECK.code_of
        score_parts: list[list[dict[str, Any]]] = [[], [], []]
        for r, pts in enumerate(self.rounds):
            banked = round_banked(pts)
            median = sorted(pts)[1]
            tricks = self.tricks[r * TRICKS_PER_ROUND : (r + 1) * TRICKS_PER_ROUND]
            for s in range(3):
                won = [code[t[s]] for t in tricks if t[3] == s]
                cards = ", ".join(f"{c} ({card_value(c)})" for c in won) or "no trick"
                head = f"Round {r + 1}: {pts[s]} points ({cards})"
                figures = {"round": r, "points": pts[s], "median": median, "cards": won}
                if pts[s] == median:
                    line = part("round_banked", f"{head}, the median: banked", banked[s], **figures)
                else:
                    line = part(
                        "round_not_banked", f"{head}, not the median {median}", 0, **figures
                    )
                score_parts[s].append(line)
        g = self.game_pts
        mode = payout_mode(self.variant)
        median = sorted(g)[1]
        payout_parts: list[list[dict[str, Any]]] = []
        for s in range(3):
            if mode == "raw":
                total = sum(g)
                lines = [
                    part("raw_own", f"3 x game score {g[s]}", 3 * g[s], score=g[s]),
                    part("raw_field", f"less the three game scores ({total})", -total, total=total),
                ]
            else:
                at = g.count(median)
                figures = {"score": g[s], "median": median}
                if at == 3:
                    lines = [part("all_equal", "All three game scores are equal", 0, **figures)]
                elif g[s] == median and at == 1:
                    text = f"Game score {g[s]} is the median, alone: +2"
                    lines = [part("median_alone", text, 2, **figures)]
                elif g[s] == median:
                    text = f"Game score {g[s]} is the median, shared: +1"
                    lines = [part("median_shared", text, 1, **figures)]
                else:
                    lose = -1 if at == 1 else -2
                    text = f"Game score {g[s]} is not the median {median}: {lose}"
                    lines = [part("off_median", text, lose, **figures)]
            payout_parts.append(lines)
        modes = {"zero_sum": "+2/-1 or +1/-2 by the median", "raw": "3 x G less the three G"}
        return {
            "kind": "game",
            "notes": [
                note("payout_mode", f"Payout: {modes[mode]}", mode=mode),
                note(
                    "game_scores",
                    f"Game scores {g[0]}, {g[1]}, {g[2]}: the median is {median}",
                    scores=g[:],
                    median=median,
                ),
            ],
            "score_parts": score_parts,
            "payout_parts": payout_parts,
        }

    # ------------------------------------------------------------------ fast path
    def actor(self) -> int:
        if self.finished:
            return -1
        return self.commits.index(-1)

    def moves(self, seat: int) -> list[int]:
        if self.finished or self.commits[seat] != -1:
            return []
        return self.hands[seat][:]

    def random_move(self, seat: int, rng: random.Random) -> int:
        hand = self.hands[seat]
        return hand[floor(rng.random() * len(hand))]

    def play(self, seat: int, move: int, ev: list[Event] | None = None) -> None:
        self.hands[seat].remove(move)
        commits = self.commits
        commits[seat] = move
        if ev is not None:
            ev.append(event("commit", seat=seat))
            ev.append(event("my_commit", [seat], seat=seat, card=DECK.code_of[move]))
        if self.ncommits < 2:
            self.ncommits += 1
            return
        # All three are down: reveal (a forced engine move, not a player action).
        c0, c1, c2 = commits
        w = median_seat(STRENGTH[c0], STRENGTH[c1], STRENGTH[c2])
        card = commits[w]
        value = VALUE[card]
        self.round_pts[w] += value
        self.tricks.append([c0, c1, c2, w])
        self.commits = [-1, -1, -1]
        self.ncommits = 0
        if ev is not None:
            ev.append(
                event(
                    "reveal",
                    cards=DECK.codes((c0, c1, c2)),
                    winner=w,
                    card=DECK.code_of[card],
                    value=value,
                )
            )
        if self.trick < 2:
            self.trick += 1
            return
        self._end_round(ev)

    def _end_round(self, ev: list[Event] | None) -> None:
        r = self.round_pts
        banked = round_banked(r)
        g = self.game_pts
        g[0] += banked[0]
        g[1] += banked[1]
        g[2] += banked[2]
        self.rounds.append(r)
        self.round_pts = [0, 0, 0]
        self.trick = 0
        if ev is not None:
            ev.append(event("round_end", round=self.round, scores=r[:], banked=banked))
        if self.round < ROUNDS - 1:
            self.round += 1
            return
        payouts = game_payouts(g, payout_mode(self.variant))
        self._end_deal(self.dealer, g[:], payouts, ev)

    def clone(self) -> SaichugenMatch:
        m = SaichugenMatch.__new__(SaichugenMatch)
        self._copy_common(m)
        h = self.hands
        m.hands = [h[0][:], h[1][:], h[2][:]]
        m.stock = self.stock
        m.commits = self.commits[:]
        m.ncommits = self.ncommits
        m.round = self.round
        m.trick = self.trick
        m.round_pts = self.round_pts[:]
        m.game_pts = self.game_pts[:]
        m.tricks = self.tricks[:]
        m.rounds = self.rounds[:]
        return m

    def move_to_action(self, move: int) -> dict[str, Any]:
        return {"act": "commit", "card": DECK.code_of[move]}

    # ------------------------------------------------------------------ validated path
    def to_act(self) -> list[int]:
        if self.finished:
            return []
        return [s for s in range(3) if self.commits[s] == -1]

    def _waiting(self) -> str:
        return " and ".join(str(s) for s in self.to_act())

    def legal(self, seat: int) -> list[dict[str, Any]]:
        if self.finished or self.commits[seat] != -1:
            return []
        return [{"act": "commit", "card": DECK.code_of[c]} for c in sorted(self.hands[seat])]

    # Commits have no rule on the card: any card of the hand may be committed, so ``why_not``
    # is always empty (a seat that has committed is not to act: it has none).
    REASONS = COMMON_REASONS | {"already_committed"}

    def _why_not(self, seat: int) -> dict[int, Reason]:
        return {}

    def apply(self, seat: int, action: dict[str, Any]) -> list[Event]:
        if (
            not self.finished
            and isinstance(seat, int)
            and 0 <= seat < 3
            and self.commits[seat] != -1
            and isinstance(action, dict)
        ):
            raise refuse("already_committed", "you have already committed a card to this trick")
        return super().apply(seat, action)

    def check(self, seat: int, action: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        act = action["act"]
        if act != "commit":
            raise refuse(
                "unknown_act",
                f"'{act}' is not a move in Saichugen: commit a card face down",
                act=act[:20],
            )
        code = action.get("card")
        try:
            card = DECK.parse(code)
        except ValueError:
            raise unknown_card(code) from None
        if card not in self.hands[seat]:
            raise not_held(DECK.code_of[card])
        return card, {"act": "commit", "card": DECK.code_of[card]}

    def public_view(self) -> dict[str, Any]:
        v = self._common_view()
        codes = DECK.codes
        v.update(
            {
                "dealer": self.dealer,
                "phase": "over" if self.finished else "commit",
                "round": self.round,
                "trick": self.trick,
                "hand_sizes": [len(h) for h in self.hands],
                "committed": [c != -1 for c in self.commits],
                "tricks": [
                    {
                        "round": i // TRICKS_PER_ROUND,
                        "cards": codes(t[:3]),
                        "winner": t[3],
                        "value": VALUE[t[t[3]]],
                    }
                    for i, t in enumerate(self.tricks)
                ],
                "round_scores": self.round_pts[:],
                "rounds": [{"scores": r[:], "banked": round_banked(r)} for r in self.rounds],
                "game_scores": self.game_pts[:],
                "suits": {s: SUIT_NAMES[s] for s in DECK.suits},
            }
        )
        return v

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {"seat": seat}
        if seat is not None:
            v["hand"] = DECK.codes(sorted(self.hands[seat]))
            mine = self.commits[seat]
            v["my_commit"] = None if mine == -1 else DECK.code_of[mine]
        return v
