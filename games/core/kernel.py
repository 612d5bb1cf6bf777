"""The solver's fast kernel: a deal's card play as bit masks, searched with make/unmake.

Why: the generic search cloned the whole match for every position (~14 µs a node); the kernel
holds only what the rest of the play depends on — each hand as an int bit mask, the trick so
far, who leads — and reads every rule from tables built once per game (a card's group, the
cards that beat it, its value), so a position costs a few dictionary and bit operations.

What it answers is the question every game's payout reduces to (docs/bots.md, "The solver"):
a *side* (a set of seats) against the others, each trick worth ``base`` plus its cards' values
(and ``last`` more for the last trick) to the side that wins it; ``reach(t)`` says whether the
side can make sure of at least ``t`` from here. The games' payouts are monotone in a few such
scores (Mediatore's thirds and tricks, a Grand Hand's points and tricks, a 3-5-8 seat's
tricks), so a payout is a short chain of these questions (``games/<game>/solver.py``).

The search is alpha-beta with a null window on the score still to come, so its transposition
table — keyed at the start of each trick by the leader and, per group, who holds its live cards
in rank order with their values, nothing of the past — holds bounds valid for every history
that reaches the position, and for positions that differ only by which of equal-ranked cards
went (the double-dummy solvers' relative ranks). New trick starts are bounded by the side's
quick tricks. Cards adjacent in their group's order among the cards still live, of equal value,
in one hand are played alike: only the first is searched.

Where no such score exists (Ramsch: the payout reads every seat's points), ``tally`` switches a
kernel to *payoff mode*: every seat's points and tricks are carried, the payout is read at the
end, and the table's key also holds what of the past the payout reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

INF = 1 << 30
# Caches kept between solves (a bot solves position after position): the move orders and the
# groups' canonical codes, per layout and values; all dropped past ``_CACHED`` entries, so a
# long-lived process holds some tens of megabytes at most.
_ORDERS: dict[tuple[int, int, tuple[int, ...], bool], dict[int, list[int]]] = {}
_CANON: dict[tuple[int, int, tuple[int, ...]], list[dict[int, int]]] = {}
_CACHED = 300_000


def _trim_caches() -> None:
    size = sum(len(d) for d in _ORDERS.values())
    size += sum(len(d) for ds in _CANON.values() for d in ds)
    if size > _CACHED:
        _ORDERS.clear()
        _CANON.clear()


class TooHard(RuntimeError):
    """The search needed more nodes than it was allowed (``max_nodes``)."""


class Budget:
    """The positions a solve may still search, shared by its kernels: ``used`` and ``limit``."""

    def __init__(self, limit: int | None = None) -> None:
        self.count = [0, limit or INF]

    @property
    def used(self) -> int:
        return self.count[0]


class Layout:
    """A game's cards for the kernel, built once per trump: internal indices ordered by group
    and, within a group, strongest first, so a group is a run of bits and "the cards that beat
    this one" is a mask.

    ``group[card]`` (the group a card follows as, trumps one group), ``strength[card]`` (higher
    wins within its group); ``trump`` the trump group (-1: none)."""

    def __init__(self, group: Sequence[int], strength: Sequence[int], trump: int = -1) -> None:
        cards = [c for c in range(len(group)) if group[c] >= 0]
        order = sorted(cards, key=lambda c: (group[c], -strength[c]))
        self.card = order  # internal index -> card id
        self.index = {c: i for i, c in enumerate(order)}  # card id -> internal index
        n = len(order)
        self.group = [group[c] for c in order]
        gmask: dict[int, int] = {}
        for i, g in enumerate(self.group):
            gmask[g] = gmask.get(g, 0) | 1 << i
        self.gmask = [gmask[g] for g in self.group]  # the mask of a card's group
        trumps = gmask.get(trump, 0)
        self.trumps = trumps
        self.groups = sorted(gmask.values())
        # beaters[i]: the cards that take a trick from card i winning it so far.
        self.beaters = []
        for i in range(n):
            above = self.gmask[i] & ((1 << i) - 1)
            self.beaters.append(above | (trumps if self.group[i] != trump else 0))

    def mask(self, cards: Sequence[int]) -> int:
        index = self.index
        m = 0
        for c in cards:
            m |= 1 << index[c]
        return m


class Kernel:
    """One position's search for one score: ``hands`` (card ids per seat), ``trick`` (card ids
    played to it, from the leader), ``leader``; ``side`` the seats that maximise; ``value`` a
    card id's value; ``base`` and ``last`` what a trick and the last trick add."""

    def __init__(
        self,
        layout: Layout,
        hands: Sequence[Sequence[int]],
        trick: Sequence[int],
        leader: int,
        side: Sequence[int],
        value: Callable[[int], int] | Sequence[int],
        base: int = 0,
        last: int = 0,
        budget: Budget | None = None,
    ) -> None:
        self.layout = layout
        self.seats = len(hands)
        self.hands = [layout.mask(h) for h in hands]
        self.trick = [layout.index[c] for c in trick]
        self.leader = leader
        self.is_side = [s in side for s in range(self.seats)]
        vals = [value[c] for c in layout.card]  # type: ignore[index]
        self.val = vals
        self.base = base
        self.last = last
        # The values' classes as masks: the value of a set of cards in a few bit counts.
        classes: dict[int, int] = {}
        for i, v in enumerate(vals):
            if v:
                classes[v] = classes.get(v, 0) | 1 << i
        self.classes = sorted(classes.items())
        self.tt: dict[tuple[int, ...], list[int]] = {}
        self.budget = budget or Budget()
        self.past = 0  # what the side made in the tricks completed by ``push``
        self.last_winner = -1
        # Payoff mode (``tally``): the score is not additive but a payout of every seat's
        # points and tricks at the end, ``payoff(points, tricks, last winner)``.
        self.payoff: Callable[[list[int], list[int], int], int] | None = None
        self.avoid = False
        self.points = [0] * self.seats
        self.tricks = [0] * self.seats

    def tally(
        self,
        payoff: Callable[[list[int], list[int], int], int],
        points: Sequence[int],
        tricks: Sequence[int],
        avoid: bool = False,
    ) -> Kernel:
        """Search ``payoff`` of the end's points (the cards' values) and trick counts per seat,
        starting from ``points`` and ``tricks`` (each for himself: ``exact`` only); ``avoid``:
        points are mostly a loss, so the moves are tried ducking first."""
        self.payoff = payoff
        self.avoid = avoid
        self.points = list(points)
        self.tricks = list(tricks)
        return self

    # ------------------------------------------------------------------ root moves
    def copy(self) -> Kernel:
        """The same position and score, its table and budget shared (a move tried at the root)."""
        k = Kernel.__new__(Kernel)
        k.__dict__.update(self.__dict__)
        k.hands = self.hands[:]
        k.trick = self.trick[:]
        k.points = self.points[:]
        k.tricks = self.tricks[:]
        return k

    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.seats

    def push(self, card: int) -> None:
        """Play ``card`` (an id) for the seat to play; a completed trick is scored into
        ``past`` and the next begins."""
        seat = self.to_play()
        i = self.layout.index[card]
        self.hands[seat] &= ~(1 << i)
        self.trick.append(i)
        if len(self.trick) == self.seats:
            _, wseat, tv = self._state()
            gain = tv + self.base
            if not any(self.hands):
                gain += self.last
            self.points[wseat] += tv
            self.tricks[wseat] += 1
            self.last_winner = wseat
            if self.is_side[wseat] and self.payoff is None:
                self.past += gain
            self.trick = []
            self.leader = wseat

    def _state(self) -> tuple[int, int, int]:
        """The trick so far: its winning card, winning seat and cards' value."""
        trick = self.trick
        beaters, val = self.layout.beaters, self.val
        best, wseat, tv = trick[0], self.leader, 0
        for k, c in enumerate(trick):
            tv += val[c]
            if k and beaters[best] >> c & 1:
                best, wseat = c, (self.leader + k) % self.seats
        return best, wseat, tv

    # ------------------------------------------------------------------ the search
    def reach(self, target: int) -> bool:
        """Whether the side can make sure of ``target`` or more (``past`` included)."""
        t = target - self.past
        if t <= 0:
            return True
        return self.search(t - 1, t) >= t

    def at_least(self, target: int) -> bool:
        """Payoff mode: whether the seat can make sure of a payout of ``target`` or more."""
        if not self.trick and not any(self.hands):
            return self.exact() >= target
        return self.search(target - 1, target) >= target

    def exact(self) -> int:
        """The side's score under perfect play (``past`` included), by MTD(f)."""
        if self.payoff is not None and not self.trick and not any(self.hands):
            return self.payoff(self.points, self.tricks, self.last_winner)
        lo, hi, g = -INF, INF, 0
        step, way = 1, 0  # steps double while the bound keeps moving one way
        while lo < hi:
            beta = g + 1 if g == lo else g
            if way < 0:
                beta = max(lo + 1, beta - step + 1)
            elif way > 0:
                beta = min(hi, beta + step - 1)
            g = self.search(beta - 1, beta)
            went = -1 if g < beta else 1
            if went < 0:
                hi = g
            else:
                lo = g
            step = step * 2 if went == way else 1
            way = went
        return g + self.past

    def search(self, alpha: int, beta: int) -> int:
        """The score still to come (this trick's included), fail-soft within (alpha, beta)."""
        n = self.seats
        hands = self.hands
        tt = self.tt
        is_side = self.is_side
        val = self.val
        base = self.base
        last_bonus = self.last
        classes = self.classes
        lay = self.layout
        gmask = lay.gmask
        beaters = lay.beaters
        group = lay.group
        nxt = [(s + 1) % n for s in range(n)]
        last_k = n - 1
        counter = self.budget.count
        payoff = self.payoff
        points, tricks = self.points, self.tricks
        trumps = lay.trumps
        groups = lay.groups
        width = len(val)
        vclass = {v: i for i, v in enumerate(sorted(set(val)))}
        _trim_caches()
        caches = _CANON.setdefault((id(lay), n, tuple(val)), [{} for _ in lay.groups])
        spans = []
        for i, g in enumerate(lay.groups):
            gm = 0
            for _ in range(n):
                gm = gm << width | g
            spans.append((gm, caches[i]))

        def canon(y: int) -> int:
            # The group's live cards strongest first, each as its holder and value class.
            code = 1
            for c in range(width):
                for s in range(n):
                    if y >> ((n - 1 - s) * width + c) & 1:
                        code = code * 64 + s + 4 * vclass[val[c]]
                        break
            return code

        top = max(val) + 1
        rich = [(top - v) * 64 + 63 - c for c, v in enumerate(val)].__getitem__  # most, weakest
        cheap = [v * 64 + 63 - c for c, v in enumerate(val)].__getitem__  # least, weakest
        sorting = top > 1
        above = [gmask[c] & ((1 << c) - 1) for c in range(width)]  # the stronger of its group
        chosen = [-1]
        avoid = self.payoff is not None and self.avoid
        partners = sum(is_side) > 1 or n - sum(is_side) > 1

        orders = _ORDERS.setdefault((id(lay), n, tuple(val), avoid), {})
        w2 = 2 * width

        def moves(
            seat: int, cand: int, k: int, best: int, wseat: int, others: int, lead: int
        ) -> list[int]:
            # The candidates' order by what decides it (cached: positions repeat it).
            if k == 0:
                key = others << width | cand
            else:
                if cand & lead:
                    others &= lead
                mode = 0 if is_side[seat] == is_side[wseat] else 1 if k == last_k else 2
                key = ((best * 3 + mode) << w2) | others << width | cand
            out = orders.get(key)
            if out is None:
                out = orders[key] = order(cand, k, best, mode if k else 0, others)
            return out

        def order(cand: int, k: int, best: int, mode: int, others: int) -> list[int]:
            # Equivalent cards: of a run adjacent among the live cards, equal in value, the first.
            out = []
            prev = -1
            m = cand
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                if (
                    prev >= 0
                    and group[prev] == group[c]
                    and val[prev] == val[c]
                    and not (others & (low - (2 << prev)))
                ):
                    prev = c
                    continue
                out.append(c)
                prev = c
            if len(out) < 2:
                return out
            if avoid:  # points are a loss (Ramsch): duck, and give points away
                if k == 0:
                    out.reverse()
                    return out
                bb = beaters[best]
                over = [c for c in out if bb >> c & 1]
                under = [c for c in out if not bb >> c & 1]
                under.sort(key=cheap if mode == 0 else rich)
                over.sort(key=cheap)
                return under + over
            if k == 0:  # lead the cards no one can beat first, then the weakest
                top = [c for c in out if not others & above[c]]
                if len(top) == len(out):
                    return out
                rest = [c for c in reversed(out) if others & above[c]]
                return top + rest if top else rest
            bb = beaters[best]
            over = [c for c in out if bb >> c & 1]
            if not over:
                if mode == 0:
                    out.sort(key=rich)
                elif sorting:
                    out.sort(key=cheap)
                else:
                    out.reverse()
                return out
            under = [c for c in out if not bb >> c & 1]
            if mode == 0:  # an ally holds the trick: points onto it
                under.sort(key=rich)
                return under + over
            if mode == 1:  # the last card: take it with the most, else throw the least
                over.sort(key=rich)
            # (else take it with the strongest first: the likeliest to hold it)
            if sorting:
                under.sort(key=cheap)
            else:
                under.reverse()
            return over + under

        def start(leader: int, alpha: int, beta: int) -> int:
            counter[0] += 1
            if counter[0] > counter[1]:
                raise TooHard(f"more than {counter[1]} nodes")
            # The key: per group, who holds its live cards in rank order (and their values):
            # positions alike but for which of equal-ranked low cards went are one.
            x = live = 0
            for h in hands:
                x = x << width | h
                live |= h
            if live.bit_count() == n:  # the last trick: played out without a search
                best, wseat, tv = -1, leader, 0
                for i in range(n):
                    s = (leader + i) % n
                    c = hands[s].bit_length() - 1
                    tv += val[c]
                    if best < 0:
                        best = c
                    elif beaters[best] >> c & 1:
                        best, wseat = c, s
                if payoff is not None:
                    points[wseat] += tv
                    tricks[wseat] += 1
                    v = payoff(points, tricks, wseat)
                    points[wseat] -= tv
                    tricks[wseat] -= 1
                    return v
                return tv + base + last_bonus if is_side[wseat] else 0
            key = [leader]
            if payoff is not None:
                # What of the past the payout reads: the points, and per seat no trick, some
                # or every one so far.
                key += points
                done = sum(tricks)
                for t in tricks:
                    key.append(0 if not t else 2 if t == done else 1)
            for gm, cache in spans:
                y = x & gm
                code = cache.get(y)
                if code is None:
                    code = cache[y] = canon(y)
                key.append(code)
            key = tuple(key)
            entry = tt.get(key)
            if entry is None and payoff is not None:
                lo, hi = -INF, INF
                entry = [lo, hi, -1]
                tt[key] = entry
            elif entry is None:
                left = live.bit_count() // n
                total = base * left + last_bonus
                for v, mask in classes:
                    total += v * (live & mask).bit_count()
                # Quick tricks: the leader's cards above every other live card of their group
                # win when led, one after the other (a side suit's only when no opponent of
                # the leader can trump): his side makes at least their tricks and values.
                mine = hands[leader]
                ally = is_side[leader]
                # Opponents who could trump: a side suit's top cards win only as long as each
                # of them still has a card of it to follow with (followers never discard).
                ruffers = [hands[s] for s in range(n) if is_side[s] != ally and hands[s] & trumps]
                ruff = bool(ruffers)
                quick = 0
                for g in groups:
                    hg = mine & g
                    if hg:
                        og = (live & g) ^ hg
                        t = hg & ((og & -og) - 1) if og else hg
                        if t and ruff and g != trumps:
                            most = min((r & g).bit_count() for r in ruffers)
                            while t.bit_count() > most:  # keep the strongest
                                t ^= 1 << (t.bit_length() - 1)
                        quick |= t
                if not ruff and partners:
                    # Or an ally's: the leader leads to his top card of a group, he cashes them.
                    for p in range(n):
                        if p != leader and is_side[p] == ally:
                            theirs = hands[p]
                            tops = door = 0
                            for g in groups:
                                hg = theirs & g
                                if hg:
                                    og = (live & g) ^ hg
                                    t = hg & ((og & -og) - 1) if og else hg
                                    if t:
                                        tops |= t
                                        if mine & g:
                                            door = 1
                            if door and tops.bit_count() > quick.bit_count():
                                quick = tops
                lo, hi = 0, total
                if quick:
                    q = quick.bit_count()
                    if q >= left:
                        sure = total
                    else:
                        sure = base * q
                        for v, mask in classes:
                            sure += v * (quick & mask).bit_count()
                    if ally:
                        lo = sure
                    else:
                        hi = total - sure
                tg = live & trumps
                if tg:
                    # Top trumps: a hand's run of the highest live trumps wins a trick with
                    # each of them, whoever leads, for every card is played in the end.
                    top = tg & -tg
                    for s in range(n):
                        h = hands[s]
                        if h & top:
                            og = tg & ~h
                            run = h & tg & ((og & -og) - 1) if og else h & tg
                            q = run.bit_count()
                            if q >= left:
                                sure = total
                            else:
                                sure = base * q
                                for v, mask in classes:
                                    sure += v * (run & mask).bit_count()
                            if is_side[s]:
                                if sure > lo:
                                    lo = sure
                            elif total - sure < hi:
                                hi = total - sure
                            break
                entry = [lo, hi, -1]
                tt[key] = entry
            else:
                lo, hi = entry[0], entry[1]
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            a = alpha if alpha > lo else lo
            b = beta if beta < hi else hi
            chosen[0] = entry[2]
            v = step(leader, 0, 0, 0, leader, 0, live, a, b)
            if v <= a:
                if v < entry[1]:
                    entry[1] = v
            elif v >= b:
                if v > entry[0]:
                    entry[0] = v
            else:
                entry[0] = entry[1] = v
            entry[2] = chosen[0]
            return v

        def step(
            seat: int,
            k: int,
            lead: int,
            best: int,
            wseat: int,
            tv: int,
            live: int,
            alpha: int,
            beta: int,
        ) -> int:
            h = hands[seat]
            cards = moves(seat, (h & lead or h) if k else h, k, best, wseat, live & ~h, lead)
            if k == 0:
                first = chosen[0]
                if first in cards and cards[0] != first:
                    cards = cards[:]
                    cards.remove(first)
                    cards.insert(0, first)
            maxing = is_side[seat]
            bestv = -INF if maxing else INF
            bestc = cards[0]
            after = nxt[seat]
            for c in cards:
                bit = 1 << c
                hands[seat] = h ^ bit
                if k == 0:
                    nb, nw, lm = c, seat, gmask[c]
                elif beaters[best] & bit:
                    nb, nw, lm = c, seat, lead
                else:
                    nb, nw, lm = best, wseat, lead
                if k == last_k and payoff is not None:
                    points[nw] += tv + val[c]
                    tricks[nw] += 1
                    v = start(nw, alpha, beta) if hands[nw] else payoff(points, tricks, nw)
                    points[nw] -= tv + val[c]
                    tricks[nw] -= 1
                elif k == last_k:
                    if hands[nw]:
                        if is_side[nw]:
                            gain = tv + val[c] + base
                            v = gain + start(nw, alpha - gain, beta - gain)
                        else:
                            v = start(nw, alpha, beta)
                    else:
                        v = tv + val[c] + base + last_bonus if is_side[nw] else 0
                else:
                    counter[0] += 1
                    v = step(after, k + 1, lm, nb, nw, tv + val[c], live, alpha, beta)
                hands[seat] = h
                if maxing:
                    if v > bestv:
                        bestv, bestc = v, c
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
                elif v < bestv:
                    bestv, bestc = v, c
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
            if k == 0:
                chosen[0] = bestc
            return bestv

        trick = self.trick
        if not trick:
            if not any(hands):
                return 0
            return start(self.leader, alpha, beta)
        best, wseat, tv = self._state()
        live = 0
        for c in trick:
            live |= 1 << c
        for h in hands:
            live |= h
        seat = (self.leader + len(trick)) % n
        return step(seat, len(trick), gmask[trick[0]], best, wseat, tv, live, alpha, beta)
