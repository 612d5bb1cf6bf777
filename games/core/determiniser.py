"""What every determiniser shares: the exact constrained deal and the replay that checks a world.

A determiniser turns what one seat knows into complete worlds a search bot can play on. Its
input is what a third-party client at that seat holds (docs/bots.md, "Determinisers"): the
seat's current ``view`` (which carries the deal's public history — bids, tricks, the skat's
moves, the exchange, revealed commits — and the seat's own secrets) and, after the first deal,
``past``: every finished deal of the match as it was shown at its end (the ``last_deal`` /
``deal_end`` entries: ``hands``, ``stock``, ``actions``).

A world is where every unseen card lies *now* (each other seat's hand, the stock / skat / monte,
a committed card). Sampling is exact, in two steps:

1. **Proposal**: a uniform draw over every assignment of the unseen cards to the holders with
   the right counts, each card only to the holders a public fact allows (a void shown, a card
   that must be in the skat or the declarer's hand…). ``deal_exact`` counts the assignments by
   classes of cards with the same allowed holders (a small dynamic programme over the holders'
   remaining room, big integers, no floating point) and draws one with exactly its share.
2. **Acceptance**: the game builds a history that leads to the proposed world (the dealt cards
   and the hidden choices: a discard, a give) and replays it through the engine's validated
   path; the world is kept only when the replay is legal and gives the seat exactly its view.

Rejection from a uniform proposal over a superset is uniform over the accepted set, so every
consistent world has the same chance. The engine is the judge: no rule is written twice, and a
world that contradicts any public fact (a false signal, a call the declarer could not make) is
refused by the same code that refuses a player.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import factorial
from typing import Any

from games.core.base import Match
from games.core.errors import EngineError, EngineFault

Holder = Hashable  # a seat (its hand now), "stock", or a game's own key ("commit", seat)
Holding = dict[Holder, list[int]]


# Actions whose content a history rebuilds as a stand-in when the seat did not see it.
HIDDEN_ACTS = frozenset({"discard", "exchange", "give"})


class NoWorld(EngineFault):
    """No consistent world was found in the budget: the view is not one the engine can reach."""


@dataclass
class Slots:
    """The unseen cards of a position and where they may be: ``counts[holder]`` cards each;
    ``allowed[card]`` the holders a card may be with (missing: any)."""

    pool: list[int]
    counts: dict[Holder, int]
    allowed: dict[int, frozenset[Holder]] = field(default_factory=dict)


@dataclass
class History:
    """A candidate history of the current deal: the dealt hands and stock (card ids) and the
    deal's actions in order, ``(seat, record-format action)``."""

    hands: list[list[int]]
    stock: list[int]
    actions: list[tuple[int, dict[str, Any]]]


@dataclass
class Replayed:
    """A world found by replay: its ``holding``, the ``world`` (the match now), the
    ``history`` of the deal that led there and, when asked for, the match at the deal's
    ``start`` (before the deal's first action)."""

    holding: Holding
    world: Match
    history: History
    start: Match | None = None


def _classes(slots: Slots, holders: list[Holder]) -> list[tuple[tuple[int, ...], list[int]]]:
    """The pool grouped by allowed holders (as indices into ``holders``)."""
    every = frozenset(holders)
    groups: dict[tuple[int, ...], list[int]] = {}
    for card in slots.pool:
        ok = slots.allowed.get(card, every) & every
        key = tuple(i for i, h in enumerate(holders) if h in ok)
        groups.setdefault(key, []).append(card)
    return sorted(groups.items())


def _splits(n: int, where: tuple[int, ...], room: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to put ``n`` cards into the holders ``where`` within their ``room``: the
    count per holder (a tuple as long as ``room``)."""
    if not where:
        if n == 0:
            yield tuple(0 for _ in room)
        return
    first, rest = where[0], where[1:]
    for k in range(min(n, room[first]), -1, -1):
        for tail in _splits(n - k, rest, room):
            if k:
                tail = tuple(t + k if i == first else t for i, t in enumerate(tail))
            yield tail


def _multinomial(n: int, ks: Iterable[int]) -> int:
    out = factorial(n)
    for k in ks:
        out //= factorial(k)
    return out


class _Counter:
    """Number of assignments of classes ``i..`` into the remaining room (memoised)."""

    def __init__(self, classes: list[tuple[tuple[int, ...], list[int]]]) -> None:
        self.classes = classes
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def ways(self, i: int, room: tuple[int, ...]) -> int:
        if i == len(self.classes):
            return 1 if not any(room) else 0
        key = (i, room)
        got = self.memo.get(key)
        if got is None:
            where, cards = self.classes[i]
            got = 0
            for ks in _splits(len(cards), where, room):
                rest = tuple(r - k for r, k in zip(room, ks, strict=True))
                sub = self.ways(i + 1, rest)
                if sub:
                    got += _multinomial(len(cards), ks) * sub
            self.memo[key] = got
        return got


def count_holdings(slots: Slots) -> int:
    """How many assignments of the pool respect the counts and the allowed holders."""
    holders = list(slots.counts)
    room = tuple(slots.counts[h] for h in holders)
    if sum(room) != len(slots.pool):
        return 0
    return _Counter(_classes(slots, holders)).ways(0, room)


def deal_exact(slots: Slots, rng: random.Random) -> Holding:
    """One assignment of the pool to the holders, uniformly among all that respect the counts
    and the allowed holders. Raises ``NoWorld`` when there is none."""
    holders = list(slots.counts)
    room = tuple(slots.counts[h] for h in holders)
    if sum(room) != len(slots.pool):
        raise NoWorld(f"{len(slots.pool)} unseen cards for {sum(room)} places")
    classes = _classes(slots, holders)
    counter = _Counter(classes)
    total = counter.ways(0, room)
    if not total:
        raise NoWorld("no deal of the unseen cards fits the public facts")
    out: Holding = {h: [] for h in holders}
    for i, (where, cards) in enumerate(classes):
        pick = rng.randrange(counter.ways(i, room))
        for ks in _splits(len(cards), where, room):
            rest = tuple(r - k for r, k in zip(room, ks, strict=True))
            weight = _multinomial(len(cards), ks) * counter.ways(i + 1, rest)
            if pick < weight:
                break
            pick -= weight
        else:  # pragma: no cover - the weights add up to the count by construction
            raise EngineFault("deal_exact: weights do not add up")
        shuffled = cards[:]
        rng.shuffle(shuffled)
        at = 0
        for h, k in zip(holders, ks, strict=True):
            out[h] += shuffled[at : at + k]
            at += k
        room = rest
    for h in out:
        out[h].sort()
    return out


def all_holdings(slots: Slots, *, ignore_allowed: bool = False) -> Iterator[Holding]:
    """Every assignment of the pool (for tests on small positions: exhaustive enumeration)."""
    holders = list(slots.counts)

    def place(i: int, left: list[int]) -> Iterator[Holding]:
        if i == len(holders):
            yield {}
            return
        h = holders[i]
        fits = [c for c in left if ignore_allowed or h in slots.allowed.get(c, frozenset([h]))]
        for chosen in combinations(fits, slots.counts[h]):
            taken = set(chosen)
            rest = [c for c in left if c not in taken]
            for tail in place(i + 1, rest):
                yield {h: list(chosen), **tail}

    if sum(slots.counts.values()) != len(slots.pool):
        return
    yield from place(0, sorted(slots.pool))


def holding_key(holding: Holding) -> tuple[tuple[Any, tuple[int, ...]], ...]:
    """A hashable form of a world (for counting worlds in tests)."""
    return tuple(sorted(((repr(h), tuple(sorted(c))) for h, c in holding.items())))


class Determiniser:
    """One game's determiniser. A game subclasses it with ``slots`` (the unseen cards and
    where each may be) and ``histories`` (candidate histories leading to a world, tried in
    order); the base class samples, replays and checks."""

    GAME: str = ""
    ENGINE: type[Match] = Match  # the game's engine (not looked up: the registry imports us)

    # ------------------------------------------------------------------ the game's part
    def slots(self, view: dict[str, Any]) -> Slots:
        raise NotImplementedError

    def histories(self, view: dict[str, Any], holding: Holding) -> Iterator[History]:
        """Histories of the current deal that may lead to ``holding`` (each is replayed; the
        first that gives the seat's view is the world's). Must include one whenever any
        history leads there, or the sampling is not uniform."""
        raise NotImplementedError

    def first_dealer(self, view: dict[str, Any], past: Sequence[dict[str, Any]]) -> int:
        """The match's first dealer, from what the seat saw."""
        if view["results"]:
            return view["results"][0]["dealer"]
        return view["dealer"]

    # ------------------------------------------------------------------ shared
    def _check(self, view: dict[str, Any], past: Sequence[dict[str, Any]]) -> None:
        if view.get("game") != self.GAME:
            raise ValueError(f"a {view.get('game')!r} view given to the {self.GAME} determiniser")
        if view.get("seat") is None:
            raise ValueError("a determiniser needs a seat's view, not a spectator's")
        if len(past) != view["deal"]:
            raise ValueError(f"deal {view['deal']} needs the {view['deal']} finished deals")

    def world(
        self,
        view: dict[str, Any],
        holding: Holding,
        *,
        past: Sequence[dict[str, Any]] = (),
        first_dealer: int | None = None,
        seed: int = 0,
        found: list[Replayed] | None = None,
    ) -> Match | None:
        """The match in which the unseen cards lie as ``holding`` says and the seat's view is
        ``view``; ``None`` when no history leads there. ``found``: a list that receives the
        world with its history and the match at the deal's start (``replay``)."""
        if first_dealer is None:
            first_dealer = self.first_dealer(view, past)
        engine = self.ENGINE
        deck = engine.deck_for(view["variant"])
        seat = view["seat"]
        for hist in self.histories(view, holding):
            deals = [{"hands": p["hands"], "stock": p["stock"]} for p in past]
            deals.append(
                {"hands": [deck.codes(h) for h in hist.hands], "stock": deck.codes(hist.stock)}
            )
            try:
                m = engine(
                    dealer=first_dealer,
                    variant=view["variant"],
                    n_deals=view["n_deals"],
                    seed=seed,
                    deals=deals,
                )
                for p in past:
                    for a in p["actions"]:
                        m.apply(a["seat"], {k: v for k, v in a.items() if k != "seat"})
                start = m.clone() if found is not None else None
                for s, action in hist.actions:
                    m.apply(s, action)
            except EngineError:
                continue
            except (KeyError, ValueError):  # a history the game built from an odd holding
                continue
            if m.view(seat) == view:
                if found is not None:
                    found.append(Replayed(holding, m, hist, start))
                return m
        return None

    def replay(
        self,
        view: dict[str, Any],
        holding: Holding,
        *,
        past: Sequence[dict[str, Any]] = (),
        first_dealer: int | None = None,
        seed: int = 0,
    ) -> Replayed | None:
        """``world``, with the history that led there and the match at the deal's start, from
        which inference replays the deal to weigh the others' actions."""
        found: list[Replayed] = []
        m = self.world(view, holding, past=past, first_dealer=first_dealer, seed=seed, found=found)
        return found[0] if m is not None and found else None

    def observed(self, view: dict[str, Any], seat: int, action: dict[str, Any]) -> bool:
        """Whether the viewing seat saw ``seat``'s ``action`` of a rebuilt history exactly as it
        is (a bid, a pass, a call, a push, a card played), not one stand-in for a hidden choice
        (a discard, an exchange, a pass of cards between others): only what was seen may weigh
        a world (``games.core.bots.inference``). A game overrides it where it shows more."""
        return seat != view["seat"] and action.get("act") not in HIDDEN_ACTS

    def sample(
        self,
        view: dict[str, Any],
        rng: random.Random,
        *,
        past: Sequence[dict[str, Any]] = (),
        first_dealer: int | None = None,
        max_tries: int = 2000,
        give_up: Callable[[], bool] | None = None,
    ) -> Match:
        """A complete match, drawn uniformly among the worlds consistent with ``view`` (and
        ``past``), at the same position: play goes on from it on the fast path (``clone``,
        ``actor``, ``random_move``, ``play``). Later deals are shuffled from ``rng``. Raises
        ``NoWorld`` when ``max_tries`` proposals were all refused, or when ``give_up()`` says
        so between two proposals (a search out of time)."""
        return self.draw(
            view, rng, past=past, first_dealer=first_dealer, max_tries=max_tries, give_up=give_up
        )[1]

    def draw(
        self,
        view: dict[str, Any],
        rng: random.Random,
        *,
        past: Sequence[dict[str, Any]] = (),
        first_dealer: int | None = None,
        max_tries: int = 2000,
        give_up: Callable[[], bool] | None = None,
    ) -> tuple[Holding, Match]:
        """``sample``, with the world's holding (where each unseen card lies)."""
        found = self.draw_replayed(
            view, rng, past=past, first_dealer=first_dealer, max_tries=max_tries, give_up=give_up
        )
        return found.holding, found.world

    def draw_replayed(
        self,
        view: dict[str, Any],
        rng: random.Random,
        *,
        past: Sequence[dict[str, Any]] = (),
        first_dealer: int | None = None,
        max_tries: int = 2000,
        give_up: Callable[[], bool] | None = None,
        keep_start: bool = False,
    ) -> Replayed:
        """``draw``, with (``keep_start``) the deal's history and its start (``replay``)."""
        self._check(view, past)
        slots = self.slots(view)
        for attempt in range(max_tries):
            if attempt and give_up is not None and give_up():
                raise NoWorld(f"gave up on a {self.GAME} world after {attempt} tries")
            holding = deal_exact(slots, rng)
            found: list[Replayed] | None = [] if keep_start else None
            m = self.world(
                view,
                holding,
                past=past,
                first_dealer=first_dealer,
                seed=rng.getrandbits(63),
                found=found,
            )
            if m is not None:
                return found[0] if found else Replayed(holding, m, History([], [], []))
        raise NoWorld(f"no consistent {self.GAME} world in {max_tries} tries")


def seat_of(leader: int, index: int, seats: int) -> int:
    """The seat that played the ``index``-th card of a trick led by ``leader``."""
    return (leader + index) % seats


def trick_cards(view: dict[str, Any], seats: int) -> list[tuple[int, list[tuple[int, str]]]]:
    """Every trick of the deal so far, finished ones first, as ``(leader, [(seat, code)])``."""
    out = []
    for t in view.get("played") or []:
        out.append(
            (t["leader"], [(seat_of(t["leader"], i, seats), c) for i, c in enumerate(t["cards"])])
        )
    if view.get("trick"):
        out.append((view["trick"][0]["seat"], [(p["seat"], p["card"]) for p in view["trick"]]))
    return out


def dealt_hands(
    view: dict[str, Any],
    holding: Holding,
    tricks: list[tuple[int, list[tuple[int, str]]]],
    parse: Callable[[str], int],
    seats: int,
) -> dict[int, set[int]]:
    """Each seat's cards as the deal gave them before any trick: the world's `holding` (the
    viewing seat's own hand from the view), plus what each seat has played to the tricks."""
    me = view["seat"]
    full = {
        s: set(holding[s]) if s != me else {parse(c) for c in view["hand"]} for s in range(seats)
    }
    for _leader, cards in tricks:
        for seat, code in cards:
            full[seat].add(parse(code))
    return full


def ordered(cards: Iterable[int], *known: Sequence[int] | None) -> list[int]:
    """``cards`` in the order the seat saw them in (views show a skat, a kitty or a monte in
    the order it lies), when it is one of the ``known`` lists; else sorted."""
    got = set(cards)
    for ref in known:
        if ref is not None and len(ref) == len(got) and set(ref) == got:
            return list(ref)
    return sorted(got)
