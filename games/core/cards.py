"""Cards and decks.

Inside the engines a card is a small int (``suit * len(ranks) + rank``, rank 0 the highest of the
deck's code order), so hands are plain lists of ints that copy and compare fast. The two-character
codes of records.md (``TH``, ``3s``) are produced only at the edges: views, events and records.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import islice


class Deck:
    """A deck: its rank and suit letters, the ids of the cards it holds and their codes."""

    def __init__(self, name: str, ranks: str, suits: str, without: Iterable[str] = ()) -> None:
        self.name = name
        self.ranks = ranks
        self.suits = suits
        self.nranks = len(ranks)
        removed = set(without)
        self.code_of: list[str] = [r + s for s in suits for r in ranks]
        self.ids: list[int] = [i for i, c in enumerate(self.code_of) if c not in removed]
        self.id_of: dict[str, int] = {self.code_of[i]: i for i in self.ids}
        self.size = len(self.ids)

    def __repr__(self) -> str:
        return f"Deck({self.name!r})"

    def code(self, card: int) -> str:
        return self.code_of[card]

    def codes(self, cards: Iterable[int]) -> list[str]:
        code_of = self.code_of
        return [code_of[c] for c in cards]

    def parse(self, code: object) -> int:
        """The id of a card code; ``ValueError`` names the bad code (used in player messages)."""
        card = self.id_of.get(code) if isinstance(code, str) else None
        if card is None:
            raise ValueError(f"unknown card {code!r}")
        return card

    def suit(self, card: int) -> int:
        return card // self.nranks

    def rank(self, card: int) -> int:
        return card % self.nranks

    def shuffled(self, rng: random.Random) -> list[int]:
        """A uniformly random order of the deck: sorting by i.i.d. random keys is twice as fast
        as ``random.shuffle`` in CPython and just as reproducible from a seeded ``rng``."""
        keys = list(islice(iter(rng.random, 2.0), len(self.code_of)))  # random() < 1.0 < 2.0
        return sorted(self.ids, key=keys.__getitem__)


FRENCH52 = Deck("french52", "AKQJT98765432", "SHDC")
FRENCH51 = Deck("french51", "AKQJT98765432", "SHDC", without=("2C",))
FRENCH32 = Deck("french32", "ATKQJ987", "CSHD")
ITALIAN40 = Deck("italian40", "32ARCF7654", "dcsb")

SUIT_NAMES = {
    "S": "spades",
    "H": "hearts",
    "D": "diamonds",
    "C": "clubs",
    "d": "denari",
    "c": "coppe",
    "s": "spade",
    "b": "bastoni",
}


def deal_chunks(cards: Sequence[int], sizes: Sequence[int]) -> tuple[list[list[int]], list[int]]:
    """Cut a shuffled deck into hands of the given sizes; the rest is the stock."""
    hands = []
    at = 0
    for n in sizes:
        hands.append(list(cards[at : at + n]))
        at += n
    return hands, list(cards[at:])


def seeded_rng(seed: int | str, deal_index: int) -> random.Random:
    """One independent, reproducible generator per deal of a seeded match."""
    return random.Random(f"{seed}/{deal_index}")
