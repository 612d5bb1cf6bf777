"""Collusion analytics (docs/fair-play.md, "Collusion"), pure: per pair of players who shared
tables, whether one's decisions send payout to the other more than to the third.

The input is what `games.transfers` says of each decision (its cost to its maker and each seat's
gain by it) with who sat where. For a decision of A at a table with B and C, the **lean** toward
B is B's gain minus C's: an honest player's mistakes go to either of the others about equally
often, so A's leans toward B add up to about nothing; a player who soft-plays for B leans toward
B again and again. The pair's score counts the leaning decisions: those toward B less those
toward C, over the square root of all of them (a sign test: about a standard normal for an
honest pair, whatever the game's payout scale, however often the player errs and however large
a single swing — a declaration lost is worth forty card points), taken in the direction that
leans most. A pair is a
suspect at `THRESHOLD` with at least `MIN_DEALS` leaning deals: the threshold is the
one the simulation (`bench/collusion.py`) calibrated to flag at most 1 % of honest pairs.

Beside it, the pair's **results**: what the helped player won at their tables together, in the
game's payout units, against what their ratings predict (given by the caller; 0 for equals) —
shown as evidence, not scored (the simulation found it too noisy to add: docs/fair-play.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

# One-sided standard normal quantile of 1 % (the false-positive rate asked for), corrected by
# the simulation's honest pairs (docs/fair-play.md, "Collusion").
THRESHOLD = 2.6
MIN_DEALS = 20
# A lean this small is no lean (a rounding of the evaluator's means).
NOISE = 1e-6
# Decisions shown as a suspect pair's evidence.
EXAMPLES = 10


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


@dataclass
class Lean:
    """A directed pair's figures: `helper`'s decisions at tables with `helped`, summed deal by
    deal (`by_deal`: the lean toward the helped of each deal they played together)."""

    helper: Any
    helped: Any
    decisions: int = 0  # judged decisions of the helper with the helped at the table
    by_deal: dict[tuple[str, int], float] = field(default_factory=dict)
    cost: float = 0.0  # what the helper's decisions leaning toward the helped cost the helper
    gained: float = 0.0  # what the helped gained by them
    examples: list[tuple[float, Decision]] = field(default_factory=list)  # (lean, decision)

    def strongest(self, n: int = EXAMPLES) -> list[tuple[float, Decision]]:
        """The `n` decisions that leaned furthest toward the helped: the evidence to read."""
        return sorted(self.examples, key=lambda e: -e[0])[:n]

    @property
    def toward(self) -> int:
        """Deals in which the helper's decisions leaned toward the helped, on balance."""
        return sum(x > NOISE for x in self.by_deal.values())

    @property
    def away(self) -> int:
        """Deals in which they leaned toward the third."""
        return sum(x < -NOISE for x in self.by_deal.values())

    @property
    def leaning(self) -> int:
        return self.toward + self.away

    @property
    def total(self) -> float:
        """The leans' sum toward the helped, in the game's payout units."""
        return sum(self.by_deal.values())

    @property
    def tables(self) -> set[str]:
        return {table for table, _ in self.by_deal}

    @property
    def score(self) -> float:
        """The sign test of the deals' leans: about N(0, 1) for an honest player."""
        up, down = self.toward, self.away
        return (up - down) / math.sqrt(up + down) if up + down else 0.0

    @property
    def t_score(self) -> float:
        """The deals' mean lean over its standard error (a t statistic; the bench compares it
        with `score`)."""
        xs = list(self.by_deal.values())
        if len(xs) < 2:
            return 0.0
        mean = sum(xs) / len(xs)
        var = sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
        return mean / math.sqrt(var / len(xs)) if var > 0 else 0.0

    @property
    def suspect(self) -> bool:
        return self.leaning >= MIN_DEALS and self.score >= THRESHOLD


def _lean(gains: Sequence[float], to: int) -> float:
    """The gain of `others[to]` minus the mean gain of the rest (one other at a table of
    three, two where four play)."""
    rest = [g for i, g in enumerate(gains) if i != to]
    return gains[to] - (sum(rest) / len(rest) if rest else 0.0)


def leans(decisions: Iterable[Decision]) -> dict[tuple[Any, Any], Lean]:
    """Every directed pair's `Lean`, from the judged decisions of all their tables."""
    out: dict[tuple[Any, Any], Lean] = {}
    for d in decisions:
        for i, other in enumerate(d.others):
            if other is None or other == d.maker:
                continue
            pair = out.setdefault((d.maker, other), Lean(d.maker, other))
            pair.decisions += 1
            x = _lean(d.gains, i)
            deal = (d.table, d.deal)
            pair.by_deal[deal] = pair.by_deal.get(deal, 0.0) + x
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
    """The pairs whose lean in either direction is at least `threshold` (with enough leaning
    deals), the strongest first."""
    found = leans(decisions)
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
        idx = [s for s in range(len(players)) if s != e["seat"]]
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
            )
        )
    return out
