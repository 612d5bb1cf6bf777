"""Duplicate scoring, the pure arithmetic of `/work/shared/spec/duplicate.md` (issue #21).

Every table of a section plays the same deals, so each seat's payout on deal k is compared with
the payouts of the same seat on the same deal at the other tables of the section. This module
only computes: a loader turns fixtures and records into `Section`s, calls `score_section` /
`score_event`, and stores or serves what they return (`deals_payload` is the API's shape).

Exact throughout: data, differences, matchpoints and percentages are `Fraction`s, ranked and
compared as such; they are rounded half to even only where written out (`round_half_even`: 6
places for the API and CSV, 2 for pages). The invariants the spec states (differences sum to 0
over the tables that completed the deal, matchpoints to N(N - 1)/2, payouts to 0 per table) are
checked on every deal and seat, not assumed: bad input raises `DuplicateRecordError` (a
`ValueError` and a `StandingsFault`), a broken invariant `StandingsFault`.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from .errors import DuplicateRecordError, StandingsFault

PlayerId = Hashable  # opaque: a person's or a built-in bot's id (a bot holds cards like anyone)
Payouts = tuple[int, ...]  # one deal's payout per seat, zero-sum
Number = Fraction | int

API_PLACES = 6  # API and CSV
PAGE_PLACES = 2  # pages

_HALF = Fraction(1, 2)
_FIFTY = Fraction(50)


# --- input --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DuplicateTable:
    """One table of a section: who held each seat and what each deal of the match paid there.

    `deals[k]` is deal k's payout per seat (zero-sum), or None when the table did not complete
    deal k: it stopped before the end of it (a forfeit, a withdrawal), so it completes no later
    deal either. `stopped_by` holds the seats whose forfeit or withdrawal stopped the table;
    empty for a table stopped through no seat's fault (then every seat scores 0 and 50 %).
    """

    fixture_id: int
    players: tuple[PlayerId, ...]
    deals: tuple[Payouts | None, ...]
    stopped_by: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Section:
    """Tables playing the same deal set, in fixture-number order (the traveller's line order).

    `n_deals` is the match's number of deals, the same at every table (a duplicate match is
    exactly the event's number of deals); every table lists all of them.
    """

    tables: tuple[DuplicateTable, ...]
    n_deals: int


# --- output -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatDeal:
    """One seat's figures on one deal over the tables that completed it (`C`), in their order.

    `datum` is None when fewer than two tables completed the deal (no comparison is possible).
    """

    datum: Fraction | None
    differences: tuple[Fraction, ...]
    matchpoints: tuple[Fraction, ...]
    percentages: tuple[Fraction, ...]


@dataclass(frozen=True, slots=True)
class TableDeal:
    """One line of a traveller: a table's figures on one deal, per seat.

    A table that did not complete the deal has no payouts and no matchpoints (None): its
    forfeiting seats score min(0, lowest difference) and 0 %, its other seats 0 and 50 %.
    """

    fixture_id: int
    completed: bool
    payouts: Payouts | None
    differences: tuple[Fraction, ...]
    matchpoints: tuple[Fraction, ...] | None
    percentages: tuple[Fraction, ...]


@dataclass(frozen=True, slots=True)
class Traveller:
    """Deal k (from 0, as records count) of a section: the datum per seat, one line per table."""

    deal: int
    datum: tuple[Fraction | None, ...]
    tables: tuple[TableDeal, ...]


@dataclass(frozen=True, slots=True)
class SectionScores:
    """A section's travellers, deal by deal; `section` is kept for the pages (players by seat)."""

    section: Section
    travellers: tuple[Traveller, ...]

    @property
    def fixtures(self) -> tuple[int, ...]:
        return tuple(t.fixture_id for t in self.section.tables)


@dataclass(frozen=True, slots=True)
class PlayerDuplicate:
    """A player's duplicate standing: `total` = Σ differences over every deal they were dealt,
    `percentage` = the mean of those deals' percentages (None with no deal: byes add nothing)."""

    player: PlayerId
    total: Fraction
    deals: int
    percentage: Fraction | None


@dataclass(frozen=True, slots=True)
class EventScores:
    """Every section scored, and each player's totals (in order of first appearance)."""

    sections: tuple[SectionScores, ...]
    totals: dict[PlayerId, PlayerDuplicate] = field(hash=False)


# --- the arithmetic -----------------------------------------------------------------------------


def score_seat(payouts: Sequence[int]) -> SeatDeal:
    """Seat s on deal k over `C`: `payouts[t]` is the seat's payout at the t-th table of `C`.

    N = len(payouts) ≥ 2: datum = mean, difference = payout - datum, matchpoints = other tables
    lower + half the other tables equal (top N - 1), percentage = 100 · matchpoints / (N - 1).
    N < 2: no datum, difference 0 and 50 % (matchpoints 0, as the definition gives: there is no
    other table). Both invariants of the spec are checked on the result.
    """
    n = len(payouts)
    if n < 2:
        zeros = (Fraction(0),) * n
        return SeatDeal(None, zeros, zeros, (_FIFTY,) * n)
    datum = Fraction(sum(payouts), n)
    ordered = sorted(payouts)
    differences = tuple(p - datum for p in payouts)
    matchpoints = []
    for p in payouts:
        lower = bisect_left(ordered, p)
        equal = bisect_right(ordered, p) - lower - 1  # the other tables with the same payout
        matchpoints.append(lower + equal * _HALF)
    top = n - 1
    percentages = tuple(100 * mp / top for mp in matchpoints)
    if sum(differences) != 0:
        raise StandingsFault(f"differences {differences} over {payouts} do not sum to zero")
    if sum(matchpoints) != Fraction(n * top, 2):
        raise StandingsFault(f"matchpoints {matchpoints} over {payouts} do not sum to N(N-1)/2")
    if not all(0 <= pct <= 100 for pct in percentages):
        raise StandingsFault(f"percentages {percentages} over {payouts} leave [0, 100]")
    return SeatDeal(datum, differences, tuple(matchpoints), percentages)


def score_section(section: Section) -> SectionScores:
    """Every deal's traveller: per deal k and seat s, `score_seat` over the tables that completed
    deal k, and the spec's figures at the tables that did not.

    At a table not in `C`, a seat in `stopped_by` gets min(0, the lowest difference of its seat
    over `C`) and 0 %; every other seat 0 and 50 %. When fewer than two tables completed the deal
    those differences are all 0 (one table) or there are none (no table): min(0, nothing) is 0,
    so the forfeiter gets 0 — and still 0 %.
    """
    seats = _check_section(section)
    travellers = []
    for k in range(section.n_deals):
        completed = [t for t in section.tables if t.deals[k] is not None]
        per_seat = [score_seat([t.deals[k][s] for t in completed]) for s in range(seats)]
        floor = tuple(min((0, *sd.differences)) for sd in per_seat)  # min(0, nothing) = 0
        rows = []
        index = 0  # position of the next completed table within C
        for table in section.tables:
            payouts = table.deals[k]
            if payouts is not None:
                row = TableDeal(
                    table.fixture_id,
                    True,
                    payouts,
                    tuple(per_seat[s].differences[index] for s in range(seats)),
                    tuple(per_seat[s].matchpoints[index] for s in range(seats)),
                    tuple(per_seat[s].percentages[index] for s in range(seats)),
                )
                index += 1
            else:
                stopped = table.stopped_by
                row = TableDeal(
                    table.fixture_id,
                    False,
                    None,
                    tuple(floor[s] if s in stopped else Fraction(0) for s in range(seats)),
                    None,
                    tuple(Fraction(0) if s in stopped else _FIFTY for s in range(seats)),
                )
            rows.append(row)
        datum = tuple(sd.datum for sd in per_seat)
        travellers.append(Traveller(k, datum, tuple(rows)))
    return SectionScores(section, tuple(travellers))


def player_totals(
    scored: Iterable[SectionScores], players: Iterable[PlayerId] = ()
) -> dict[PlayerId, PlayerDuplicate]:
    """Each player's duplicate total and matchpoint percentage over the sections they sat in.

    A player is dealt every deal of their section's match (a stopped table's remaining deals are
    the "forfeited deals" the spec includes), so each section adds `n_deals` deals. `players`
    (every entrant, say) are listed even without a deal: total 0, percentage None. Byes are
    simply not in any section: they add nothing.
    """
    totals: dict[PlayerId, Fraction] = {p: Fraction(0) for p in players}
    pct_sums: dict[PlayerId, Fraction] = dict.fromkeys(totals, Fraction(0))
    counts: dict[PlayerId, int] = dict.fromkeys(totals, 0)
    for scores in scored:
        by_fixture = {t.fixture_id: t.players for t in scores.section.tables}
        for traveller in scores.travellers:
            for row in traveller.tables:
                for s, p in enumerate(by_fixture[row.fixture_id]):
                    totals[p] = totals.get(p, Fraction(0)) + row.differences[s]
                    pct_sums[p] = pct_sums.get(p, Fraction(0)) + row.percentages[s]
                    counts[p] = counts.get(p, 0) + 1
    return {
        p: PlayerDuplicate(p, totals[p], counts[p], pct_sums[p] / counts[p] if counts[p] else None)
        for p in totals
    }


def score_event(sections: Iterable[Section], players: Iterable[PlayerId] = ()) -> EventScores:
    """A whole event (every section of every round): the travellers and each player's totals.

    A player may sit in one section per round, so only fixtures are checked across sections:
    one table is one fixture of one round.
    """
    scored = tuple(score_section(s) for s in sections)
    seen: set[int] = set()
    for scores in scored:
        for fixture in scores.fixtures:
            if fixture in seen:
                raise DuplicateRecordError(f"fixture {fixture} is in two sections")
            seen.add(fixture)
    return EventScores(scored, player_totals(scored, players))


# --- writing figures out ------------------------------------------------------------------------


def round_half_even(x: Number, places: int) -> Decimal:
    """`x` rounded half to even to `places` decimals, exactly (integer arithmetic on the
    fraction, no binary float and no decimal context in between); never a negative zero.

    1/8 → 0.12 and 3/8 → 0.38 at 2 places; 1/128 = 0.0078125 → 0.007812 at 6.
    """
    x = Fraction(x)
    scaled = abs(x) * 10**places
    q, r = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * r
    if twice > scaled.denominator or (twice == scaled.denominator and q % 2):
        q += 1
    sign = "-" if x < 0 and q else ""
    return Decimal(f"{sign}{q}E-{places}")


def json_number(x: Number, places: int = API_PLACES) -> float:
    """`x` for the API: rounded half to even to `places` decimals, then the float whose
    shortest repr is that decimal — so the JSON text reads exactly the rounded value
    (`0.333333`, `-1.5`), and a checker reading numbers, or the text, or Decimals, agrees.

    Numbers rather than strings: the spec's `[d0, d1, ...]` are numbers, and a reader compares
    them as numbers. The float is exact as text up to 15 significant digits; beyond (a payout
    near 10⁹) it would not be, so that raises instead of publishing a wrong last digit.
    """
    rounded = round_half_even(x, places)
    out = float(rounded)
    if Decimal(repr(out)) != rounded:
        raise DuplicateRecordError(f"{rounded} cannot be written exactly as a JSON number")
    return out


def section_payload(scores: SectionScores) -> dict:
    """One entry of the API's `sections`, exactly the spec's shape: payouts as integers, the
    other figures as `json_number`s, None (`null`) for a missing datum, an uncompleted table's
    payouts and its matchpoints (matchpoints are only defined over the tables that completed
    the deal)."""
    deals = []
    for traveller in scores.travellers:
        deals.append(
            {
                "deal": traveller.deal,
                "datum": [None if d is None else json_number(d) for d in traveller.datum],
                "tables": [
                    {
                        "fixture": row.fixture_id,
                        "completed": row.completed,
                        "payouts": None if row.payouts is None else list(row.payouts),
                        "differences": [json_number(d) for d in row.differences],
                        "matchpoints": (
                            None
                            if row.matchpoints is None
                            else [json_number(m) for m in row.matchpoints]
                        ),
                        "percentages": [json_number(p) for p in row.percentages],
                    }
                    for row in traveller.tables
                ],
            }
        )
    return {"tables": list(scores.fixtures), "deals": deals}


def withheld_section_payload(fixtures: Sequence[int]) -> dict:
    """A section's entry for someone not entitled to see it yet (not every table finished)."""
    return {"tables": list(fixtures), "deals": None}


def deals_payload(entries: Iterable[dict]) -> dict:
    """`GET /api/events/<slug>/rounds/<n>/deals/`: the round's section entries, in order."""
    return {"sections": list(entries)}


# --- checking the input -------------------------------------------------------------------------


def _check_section(section: Section) -> int:
    """Refuse a section the loader should never build; returns its seat count."""
    tables = section.tables
    if not tables:
        raise DuplicateRecordError("a section needs at least one table")
    n_deals = section.n_deals
    if type(n_deals) is not int or n_deals < 1:
        raise DuplicateRecordError(f"a section's number of deals must be ≥ 1, not {n_deals!r}")
    seats = len(tables[0].players)
    if seats < 2:
        raise DuplicateRecordError(f"fixture {tables[0].fixture_id}: fewer than two seats")
    fixtures: set[int] = set()
    players: set[PlayerId] = set()
    for table in tables:
        fid = table.fixture_id
        if fid in fixtures:
            raise DuplicateRecordError(f"fixture {fid} is twice in the section")
        fixtures.add(fid)
        if len(table.players) != seats:
            raise DuplicateRecordError(
                f"fixture {fid}: {len(table.players)} seats where the section has {seats}"
            )
        for p in table.players:
            if p in players:
                raise DuplicateRecordError(f"fixture {fid}: player {p!r} sits twice in the section")
            players.add(p)
        if len(table.deals) != n_deals:
            raise DuplicateRecordError(
                f"fixture {fid}: {len(table.deals)} deals listed, the match has {n_deals}"
            )
        stopped_at = None
        for k, payouts in enumerate(table.deals):
            if payouts is None:
                if stopped_at is None:
                    stopped_at = k
                continue
            if stopped_at is not None:
                raise DuplicateRecordError(
                    f"fixture {fid}: deal {k} completed after the table stopped at deal "
                    f"{stopped_at}"
                )
            if len(payouts) != seats or not all(type(x) is int for x in payouts):
                raise DuplicateRecordError(
                    f"fixture {fid}, deal {k}: payouts {payouts!r} are not {seats} integers"
                )
            if sum(payouts) != 0:
                raise DuplicateRecordError(
                    f"fixture {fid}, deal {k}: payouts {payouts} do not sum to zero"
                )
        if not table.stopped_by <= set(range(seats)):
            raise DuplicateRecordError(
                f"fixture {fid}: stopped_by {sorted(table.stopped_by)} are not seats 0-{seats - 1}"
            )
        if table.stopped_by and stopped_at is None:
            raise DuplicateRecordError(
                f"fixture {fid}: seats {sorted(table.stopped_by)} stopped a table that completed "
                "every deal"
            )
    return seats
