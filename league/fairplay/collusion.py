"""Collusion analytics (docs/fair-play.md, "Collusion"), pure: per pair of players who shared
tables, whether one's decisions favour the other more than the third (in a game of sides,
Mediatore, only in the deals where the other was not a partner).

The input is what `games.transfers` says of each decision, every card known: what it cost its
maker, each seat's gain by it, and its **tilt** toward each other seat (where the taken action
stands among the candidates by how much it favours that seat over the rest: +1 the most, -1 the
least). An honest player's choices favour either of the others alike, so A's tilts toward B
add up to about nothing; a player who soft-plays for B tilts toward B again and again. Tilts are
summed per deal (the decisions of one deal hang together: who is in danger decides where every
card's payout goes), less what everyone else's decisions tilt toward a seat at that place
(`baseline`: where it sits, and whether it was ahead or behind before the decision; the pair
itself left out), and the pair's **score** is the deals' sum over the square root of their
squares — about a standard normal for an honest pair, whatever the game's payout scale and
however often the player errs — in the direction that tilts most. A pair is a suspect at
`THRESHOLD` with at least `MIN_DEALS` deals tilting one way or the other; the simulation
(`bench/collusion.py`) measures how many honest pairs that flags and how many colluders it
finds.

Beside the score, the evidence: the payout the helper's decisions sent the helped rather than
the third, what they cost the helper, and the decisions that favoured the helped most.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

# About the one-sided standard normal quantile of 0.5 %: the larger of a pair's two directions
# then passes it for about 1 % of honest pairs (docs/fair-play.md, "Collusion").
THRESHOLD = 2.6
MIN_DEALS = 20
# A lean this small is no lean (a rounding of the evaluator's means).
NOISE = 1e-6
# Decisions shown as a suspect pair's evidence.
EXAMPLES = 10
# The baseline at a place is the median of the other players' own means there when at least
# MEDIAN_OF makers have MAKER_DECISIONS decisions there (one colluder among them does not set it
# for everyone), else the mean of all the others' decisions there.
MEDIAN_OF = 3
MAKER_DECISIONS = 10


@dataclass(frozen=True)
class Decision:
    """One judged decision at a table: who made it (`maker`), who the others were (`others`,
    player ids by seat order, the maker left out), what it cost the maker, and each other's
    gain by it (same order as `others`)."""

    table: str
    deal: int
    index: int
    maker: Any
    others: tuple[Any, ...]
    cost: float
    gains: tuple[float, ...]
    tilts: tuple[float, ...] = ()  # how far it favoured each other (games.transfers._tilt)
    positions: tuple[int, ...] = ()  # each other's place after the maker (1: next), if known
    # Each other's standing against the rest of the others before the decision (what they
    # could expect of the deal then): 1 ahead, -1 behind, 0 level (unknown: empty).
    standings: tuple[int, ...] = ()
    # In a game of sides (Mediatore): whether each other was the maker's partner in that deal.
    # A partner is not judged (favouring one's partner is the game); an opponent is.
    partners: tuple[bool, ...] = ()
    # ...and how many seats each other's side had (a lone declarer or one of two or three).
    side_sizes: tuple[int, ...] = ()


@dataclass
class Lean:
    """A directed pair's figures: `helper`'s decisions at tables with `helped`, summed deal by
    deal — `by_deal` their tilt toward the helped (what is scored), `paid` the payout they sent
    the helped rather than the third (what is shown)."""

    helper: Any
    helped: Any
    decisions: int = 0  # judged decisions of the helper with the helped at the table
    by_deal: dict[tuple[str, int], float] = field(default_factory=dict)
    paid: dict[tuple[str, int], float] = field(default_factory=dict)
    cost: float = 0.0  # what the helper's decisions tilted toward the helped cost the helper
    gained: float = 0.0  # what the helped gained by them
    examples: list[tuple[float, Decision]] = field(default_factory=list)  # (tilt, decision)

    def strongest(self, n: int = EXAMPLES) -> list[tuple[float, Decision]]:
        """The `n` decisions that favoured the helped most, the costliest first among equals:
        the evidence to read."""
        return sorted(self.examples, key=lambda e: (-e[0], -e[1].cost))[:n]

    @property
    def toward(self) -> int:
        """Deals in which the helper's decisions favoured the helped, on balance."""
        return sum(x > NOISE for x in self.by_deal.values())

    @property
    def away(self) -> int:
        """Deals in which they favoured the third."""
        return sum(x < -NOISE for x in self.by_deal.values())

    @property
    def leaning(self) -> int:
        return self.toward + self.away

    @property
    def total(self) -> float:
        """The payout the helper's decisions sent the helped rather than the third."""
        return sum(self.paid.values())

    @property
    def tables(self) -> set[str]:
        return {table for table, _ in self.by_deal}

    @property
    def score(self) -> float:
        """The deals' tilts summed over the square root of their squares: about N(0, 1) for
        an honest player, whose deals tilt either way alike."""
        squares = sum(x * x for x in self.by_deal.values())
        return sum(self.by_deal.values()) / math.sqrt(squares) if squares > 0 else 0.0

    @property
    def suspect(self) -> bool:
        return self.leaning >= MIN_DEALS and self.score >= THRESHOLD


def _lean(gains: Sequence[float], to: int) -> float:
    """The gain of `others[to]` minus the mean gain of the rest (one other at a table of
    three, two where four play)."""
    rest = [g for i, g in enumerate(gains) if i != to]
    return gains[to] - (sum(rest) / len(rest) if rest else 0.0)


# (seats after the maker, standing before the decision[, the size of the seat's side])
Place = tuple[int, ...]


def _place(d: Decision, i: int) -> Place | None:
    if not d.positions:
        return None
    place = (d.positions[i], d.standings[i] if d.standings else 0)
    return (*place, d.side_sizes[i]) if d.side_sizes else place


def _tilt(d: Decision, i: int, baseline: Baseline | None) -> float:
    """The decision's tilt toward `others[i]` (its payout lean where no tilt was judged), less
    what everyone else's decisions that tilted at all tilt toward a seat at that place
    (`baseline`); 0 for a decision that tilted toward nobody."""
    x = d.tilts[i] if d.tilts else _lean(d.gains, i)
    if abs(x) <= NOISE:  # a decision that favoured nobody leans nowhere, whatever the place
        return 0.0
    place = _place(d, i)
    if place is not None and baseline is not None:
        x -= baseline.toward(place, leaving_out=(d.maker, d.others[i]))
    return x


@dataclass
class Baseline:
    """The tilts toward a seat by its place, summed and counted per maker. A pair is judged
    against the others' play only (`toward` leaves it out): a pair that is most of a game's
    judged play is not judged against itself; and where enough others played, against the
    median of their means, so one colluder does not move the baseline of everyone else."""

    by_maker: dict[Any, dict[Place, tuple[float, int]]] = field(default_factory=dict)
    _means: dict[Place, list[tuple[float, Any]]] | None = None
    _known: dict[tuple[Place, frozenset[Any]], float] = field(default_factory=dict)

    def add(self, maker: Any, place: Place, x: float) -> None:
        mine = self.by_maker.setdefault(maker, {})
        total, n = mine.get(place, (0.0, 0))
        mine[place] = (total + x, n + 1)
        self._means = None
        self._known.clear()

    def _sorted_means(self, place: Place) -> list[tuple[float, Any]]:
        if self._means is None:
            means: dict[Place, list[tuple[float, Any]]] = {}
            for maker, places in self.by_maker.items():
                for at, (total, n) in places.items():
                    if n >= MAKER_DECISIONS:
                        means.setdefault(at, []).append((total / n, maker))
            self._means = {at: sorted(v, key=lambda e: e[0]) for at, v in means.items()}
        return self._means.get(place, [])

    def toward(self, place: Place, leaving_out: Iterable[Any] = ()) -> float:
        """The tilt toward a seat at `place` of every maker but `leaving_out`: the median of
        their means, or their pooled mean where fewer than `MEDIAN_OF` played enough there
        (nobody: 0)."""
        out = frozenset(leaving_out)
        if (place, out) not in self._known:
            self._known[place, out] = self._toward(place, out)
        return self._known[place, out]

    def _toward(self, place: Place, out: frozenset[Any]) -> float:
        means = [m for m, maker in self._sorted_means(place) if maker not in out]
        if len(means) >= MEDIAN_OF:
            mid = len(means) // 2
            return means[mid] if len(means) % 2 else (means[mid - 1] + means[mid]) / 2
        total = n = 0.0
        for maker, places in self.by_maker.items():
            if maker not in out:
                theirs, count = places.get(place, (0.0, 0))
                total, n = total + theirs, n + count
        return total / n if n else 0.0


def baseline(decisions: Iterable[Decision]) -> Baseline:
    """The tilts toward a seat by its place: how many seats after the maker it sits, and
    whether it was ahead of or behind the third before the decision (by what each could expect
    of the deal then: not by how the deal ended, which the tilts themselves decide). Honest
    play has its own leanings — in Ramsch everyone loads the points onto whoever is already
    losing, so the two others of the player in danger favour each other — and a pair is judged
    against everyone else's play at the same place, not against zero. Friends who always sit
    the same way round are not suspects for where they sit. Only decisions that tilted at all
    are counted (and judged against it): one that favoured nobody is no leaning either way."""
    out = Baseline()
    for d in decisions:
        if not d.tilts:
            continue
        for i, x in enumerate(d.tilts):
            if (d.partners and d.partners[i]) or abs(x) <= NOISE:
                continue
            place = _place(d, i)
            if place is not None:
                out.add(d.maker, place, x)
    return out


def leans(
    decisions: Iterable[Decision], baseline: Baseline | None = None
) -> dict[tuple[Any, Any], Lean]:
    """Every directed pair's `Lean`, from the judged decisions of all their tables."""
    out: dict[tuple[Any, Any], Lean] = {}
    for d in decisions:
        for i, other in enumerate(d.others):
            if other is None or other == d.maker or (d.partners and d.partners[i]):
                continue
            pair = out.setdefault((d.maker, other), Lean(d.maker, other))
            pair.decisions += 1
            x = _tilt(d, i, baseline)
            deal = (d.table, d.deal)
            pair.by_deal[deal] = pair.by_deal.get(deal, 0.0) + x
            pair.paid[deal] = pair.paid.get(deal, 0.0) + _lean(d.gains, i)
            if x > NOISE:
                pair.cost += d.cost
                pair.gained += d.gains[i]
                pair.examples.append((x, d))
    return out


@dataclass(frozen=True)
class Suspect:
    """An unordered pair above the threshold: the direction that leans most, and both."""

    players: tuple[Any, Any]
    score: float
    lean: Lean
    back: Lean | None


def suspects(decisions: Iterable[Decision], threshold: float = THRESHOLD) -> list[Suspect]:
    """The pairs whose score in either direction is at least `threshold` (with enough tilting
    deals), the strongest first."""
    decisions = list(decisions)
    found = leans(decisions, baseline(decisions))
    out = []
    seen: set[frozenset[Any]] = set()
    for (a, b), lean in found.items():
        key = frozenset((a, b))
        if key in seen:
            continue
        seen.add(key)
        back = found.get((b, a))
        top = max((x for x in (lean, back) if x is not None), key=lambda x: x.score)
        if top.leaning >= MIN_DEALS and top.score >= threshold:
            out.append(Suspect((top.helper, top.helped), top.score, top, back))
    return sorted(out, key=lambda s: -s.score)


def _standings(result: Sequence[float] | None, idx: Sequence[int]) -> tuple[int, ...]:
    """Each of the seats `idx` ahead of (1), behind (-1) or level with (0) the mean of the
    others of `idx` in the payouts they could expect."""
    if not result:
        return ()
    out = []
    for s in idx:
        rest = [result[o] for o in idx if o != s]
        mean = sum(rest) / len(rest) if rest else 0.0
        out.append((result[s] > mean) - (result[s] < mean))
    return tuple(out)


def decisions_of(
    table: str, players: Sequence[Any], judged: Iterable[dict[str, Any]]
) -> list[Decision]:
    """`games.transfers.record_transfers` entries of one table as `Decision`s, `players[s]` being
    the player in seat s (None for a seat nobody is judged for: a bot)."""
    out = []
    for e in judged:
        maker = players[e["seat"]]
        if maker is None:
            continue
        # The deal's seats in play order: at a table of four the sitter is nobody's opponent.
        order = e.get("playing") or list(range(len(players)))
        idx = [s for s in order if s != e["seat"]]
        sides = [set(x) for x in e.get("sides") or ()]
        side = next((x for x in sides if e["seat"] in x), set())
        out.append(
            Decision(
                table=table,
                deal=e["deal"],
                index=e["index"],
                maker=maker,
                others=tuple(players[s] for s in idx),
                cost=float(e["cost"]),
                gains=tuple(float(e["to"][s]) for s in idx),
                tilts=tuple(float(e["tilt"][s]) for s in idx) if "tilt" in e else (),
                positions=tuple(
                    (order.index(s) - order.index(e["seat"])) % len(order) for s in idx
                ),
                standings=_standings(e.get("expect"), idx),
                partners=tuple(s in side for s in idx) if sides else (),
                side_sizes=tuple(next(len(x) for x in sides if s in x) for s in idx)
                if sides
                else (),
            )
        )
    return out
