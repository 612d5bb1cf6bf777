"""A three-player game at a table of four: the dealer sits out each deal (../shared/rules/
tables-of-four.md).

A table of four is a variant of its game, not a new game: each deal is an ordinary one-deal
match of the game's own engine among the three who play it (``FourSeats.inner``), and this
module only seats it. For deal ``k`` the sitter is ``s = (first dealer + k) mod 4``; the inner
match's seat ``i`` is the table's seat ``s + 1 + i`` (mod 4) and its dealer is inner seat 2, the
third player after the sitter, who takes every role a three-player rule gives the dealer.

What crosses the seam is data in the game's own shapes, renumbered by ``Seating`` from what each
game declares (``SeatFields``: which keys hold a seat, a list of seats, or one entry per seat).
So every rule, view, summary, determiniser and bot of the three-player game serves the table of
four unchanged: a bot is handed ``fold``'s three-seat view of its deal (``games.core.bots``).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.core.base import Event, Match, Move, refuse
from games.core.cards import deal_chunks, seeded_rng
from games.core.errors import EngineFault, IllegalAction, VariantError
from games.core.four_sheet import FourSheet

FOUR = 4
INNER_DEALER = 2  # the third player after the sitter takes the dealer's roles
# The keys of an inner match's common view (base.Match._common_view): the table's own replace them
COMMON_KEYS = (
    "game",
    "variant",
    "deal",
    "n_deals",
    "to_act",
    "results",
    "totals",
    "last_deal",
    "finished",
    "winners",
)
_SEAT_TEXT = re.compile(r"\b([Ss]eats? )(\d)\b")


@dataclass(frozen=True)
class SeatFields:
    """Where a game's views, events, actions and summaries name seats, by key (at any depth):
    ``seats`` hold one seat number, ``seat_lists`` a list of them, ``per_seat`` a list with one
    entry per seat (the value is the sitter's entry at a table of four), and ``dealer`` the keys
    that name who dealt (at a table of four: the sitter). ``beside``: a per-seat key that is per
    seat only in an object that also has the given key (Saichugen's trick ``cards`` beside its
    ``winner``; a summary line's ``cards`` are the cards one seat won)."""

    seats: frozenset[str]
    per_seat: Mapping[str, Any]
    seat_lists: frozenset[str] = frozenset({"to_act", "visible_to", "winners", "seats"})
    dealer: frozenset[str] = frozenset({"dealer"})
    beside: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        seats: set[str],
        per_seat: dict[str, Any],
        dealer: set[str] | None = None,
        seat_lists: set[str] | None = None,
        beside: dict[str, str] | None = None,
    ) -> SeatFields:
        extra: dict[str, Any] = {} if dealer is None else {"dealer": frozenset(dealer)}
        if beside is not None:
            extra["beside"] = dict(beside)
        if seat_lists is not None:
            extra["seat_lists"] = cls.seat_lists | frozenset(seat_lists)
        return cls(frozenset(seats | {"seat"}), dict(per_seat), **extra)


@dataclass(frozen=True)
class Seating:
    """The seats of one deal at a table of four, and the renumbering both ways."""

    sitter: int
    fields: SeatFields = field(repr=False)

    def outer(self, inner: int) -> int:
        return (self.sitter + 1 + inner) % FOUR

    def inner(self, outer: int) -> int | None:
        """The inner seat of table seat ``outer``; None for the sitter."""
        i = (outer - self.sitter - 1) % FOUR
        return None if i == FOUR - 1 else i

    @property
    def playing(self) -> list[int]:
        """The table's seats that play this deal, in the game's order (first player first)."""
        return [self.outer(i) for i in range(FOUR - 1)]

    def text(self, text: str) -> str:
        """An English line that names inner seats ("seat 1"), naming the table's."""
        return _SEAT_TEXT.sub(lambda m: f"{m.group(1)}{self.outer(int(m.group(2)))}", text)

    def _per_seat(self, x: dict[str, Any], k: str) -> bool:
        beside = self.fields.beside.get(k)
        return k in self.fields.per_seat and (beside is None or beside in x)

    def widen(self, x: Any) -> Any:
        """Data of the inner match, renumbered for the table of four (a new value)."""
        f = self.fields
        if isinstance(x, dict):
            out = {}
            for k, v in x.items():
                if k in f.dealer and isinstance(v, int) and not isinstance(v, bool):
                    out[k] = self.sitter
                elif k in f.seats and isinstance(v, int) and not isinstance(v, bool):
                    out[k] = self.outer(v)
                elif k in f.seat_lists and isinstance(v, list):
                    out[k] = [self.outer(s) if isinstance(s, int) else s for s in v]
                elif self._per_seat(x, k) and isinstance(v, list) and len(v) == FOUR - 1:
                    out[k] = self._place([self.widen(e) for e in v], f.per_seat[k])
                elif k in ("text", "message") and isinstance(v, str):
                    out[k] = self.text(v)
                else:
                    out[k] = self.widen(v)
            return out
        if isinstance(x, list):
            return [self.widen(e) for e in x]
        return x

    def _place(self, inner_row: list[Any], filler: Any) -> list[Any]:
        """A per-seat list of the inner seats' entries, as the table's four (the sitter's
        entry ``filler``)."""
        row: list[Any] = [None] * FOUR
        for i, e in enumerate(inner_row):
            row[self.outer(i)] = e
        row[self.sitter] = json.loads(json.dumps(filler))
        return row

    def fold(self, x: Any) -> Any:
        """``widen``'s inverse: the table's data as the inner match's (a bot's three-seat
        view of its deal)."""
        f = self.fields
        if isinstance(x, dict):
            out = {}
            for k, v in x.items():
                if k in f.dealer and isinstance(v, int) and not isinstance(v, bool):
                    out[k] = INNER_DEALER
                elif k in f.seats and isinstance(v, int) and not isinstance(v, bool):
                    out[k] = self.inner(v)
                elif k in f.seat_lists and isinstance(v, list):
                    out[k] = [self.inner(s) if isinstance(s, int) else s for s in v]
                elif self._per_seat(x, k) and isinstance(v, list) and len(v) == FOUR:
                    out[k] = [self.fold(v[self.outer(i)]) for i in range(FOUR - 1)]
                else:
                    out[k] = self.fold(v)
            return out
        if isinstance(x, list):
            return [self.fold(e) for e in x]
        return x


class FourSeats(Match):
    """A game's engine at a table of four. A game's package subclasses it once, naming its
    three-player engine (``INNER``) and its ``FIELDS``, and overrides the hooks where its
    match spans deals (``_carry``, ``_early_winners``, ``_final_winners``)."""

    SEATS: ClassVar[int] = FOUR
    INNER: ClassVar[type[Match]]
    FIELDS: ClassVar[SeatFields]
    STATE: ClassVar[tuple[str, ...]] = ("inner",)
    REASONS = frozenset()
    __slots__ = ("inner",)
    # Taken from the game's engine unless the subclass sets them
    _SHARED = (
        "GAME",
        "DISPLAY",
        "NAMES",
        "GOAL",
        "HINTS",
        "LEGEND",
        "PAYOUT_UNIT",
        "FLAGS",
        "SIGNALS",
        "SUMMARY_CODES",
        "PHASES",
    )

    inner: Match

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        inner = cls.__dict__.get("INNER")
        if inner is None:
            return
        for name in cls._SHARED:
            if name not in cls.__dict__:
                setattr(cls, name, getattr(inner, name))
        if "SHEET" not in cls.__dict__:  # the game's own sheet rules, a deal at a time
            cls.SHEET = FourSheet.over(inner.SHEET)
        cls.REASONS = inner.REASONS | {"sits_out"}

    # ------------------------------------------------------------------ construction
    def __init__(self, *, dealer: int = 0, deals: list[dict[str, Any]] | None = None, **kw: Any):
        if deals is not None and isinstance(dealer, int) and 0 <= dealer < FOUR:
            for k, d in enumerate(deals):
                sitter = (dealer + k) % FOUR
                hands = d.get("hands") if isinstance(d, dict) else None
                if isinstance(hands, list) and len(hands) == FOUR and hands[sitter] != []:
                    raise VariantError(
                        f"deal {k}: wrong deck: seat {sitter} sits out this deal: its hand must "
                        "be empty"
                    )
        super().__init__(dealer=dealer, deals=deals, **kw)

    @classmethod
    def check_variant(cls, variant: dict[str, Any]) -> None:
        cls.INNER.check_variant(variant)
        problem = cls.four_problem(variant)
        if problem:
            raise VariantError(problem)

    @classmethod
    def four_problem(cls, variant: dict[str, Any]) -> str | None:
        """Why this variant is not played at a table of four (English), or None."""
        return None

    @classmethod
    def duplicate_problem(cls, variant: dict[str, Any]) -> str | None:
        return cls.INNER.duplicate_problem(variant)

    @classmethod
    def deck_for(cls, variant: dict[str, Any]) -> Any:
        return cls.INNER.deck_for(variant)

    @classmethod
    def sizes_for(cls, variant: dict[str, Any]) -> tuple[tuple[int, ...], int]:
        return cls.INNER.sizes_for(variant)

    @classmethod
    def deck_problem(cls, variant: dict[str, Any], hands: Any, stock: Any) -> str | None:
        if not isinstance(hands, list) or len(hands) != FOUR:
            return f"hands must be a list of {FOUR} hands"
        empty = [s for s, h in enumerate(hands) if h == []]
        if len(empty) != 1:
            return "exactly one hand, the sitter's, must be empty"
        s = empty[0]
        return cls.INNER.deck_problem(variant, [hands[(s + 1 + i) % FOUR] for i in range(3)], stock)

    # ------------------------------------------------------------------ deals
    @property
    def seating(self) -> Seating:
        """The current deal's seats (``self.dealer`` is its sitter)."""
        return Seating(self.dealer, self.FIELDS)

    @property
    def sitter(self) -> int:
        return self.dealer

    def _deal_cards(self, k: int) -> tuple[list[list[int]], list[int]]:
        if self.explicit is not None and k < len(self.explicit):
            return super()._deal_cards(k)
        deck = self.deck_for(self.variant)
        sizes, _ = self.sizes_for(self.variant)
        three, stock = deal_chunks(deck.shuffled(seeded_rng(self.seed, k)), sizes)
        return self._seat_hands((self.first_dealer + k) % FOUR, three), stock

    @staticmethod
    def _seat_hands(sitter: int, three: list[list[int]]) -> list[list[int]]:
        hands: list[list[int]] = [[] for _ in range(FOUR)]
        for i, h in enumerate(three):
            hands[(sitter + 1 + i) % FOUR] = h
        return hands

    def _setup_deal(self, hands: list[list[int]], stock: list[int]) -> None:
        previous = getattr(self, "inner", None)
        s = self.dealer
        deck = self.deck_for(self.variant)
        three = [deck.codes(hands[(s + 1 + i) % FOUR]) for i in range(3)]
        self.inner = self.INNER(
            dealer=INNER_DEALER,
            variant=self.variant,
            n_deals=1,
            seed=0,  # never used: its one deal is given
            deals=[{"hands": three, "stock": deck.codes(stock)}],
        )
        if previous is not None and previous is not self.inner:
            self._carry(previous, Seating((s - 1) % FOUR, self.FIELDS))

    def _carry(self, previous: Match, before: Seating) -> None:
        """Hand what the game carries from one deal to the next (3-5-8's exchange) to the new
        inner match; ``previous`` was the deal before, seated by ``before``."""

    def redeal(self, rng: random.Random) -> None:
        if self.log[-1][2]:
            raise EngineFault("redeal after the deal has begun")
        deck = self.deck_for(self.variant)
        three, stock = deal_chunks(deck.shuffled(rng), self.sizes_for(self.variant)[0])
        hands = self._seat_hands(self.dealer, three)
        self.log[-1] = [[h[:] for h in hands], stock[:], []]
        previous = self.inner
        self._setup_deal(hands, stock)
        del previous

    def _deal_over(self, ev: list[Event] | None) -> None:
        """The inner deal has ended: score it for the four seats, end the match or deal on."""
        s = self.dealer
        seating = self.seating
        done = self.inner.results[-1]
        scores = seating._place(done["scores"], 0)
        payouts = seating._place(done["payouts"], 0)
        winners = self._early_winners(scores, payouts)
        self._end_deal(s, scores, payouts, ev, winners)

    def _early_winners(self, scores: list[int], payouts: list[int]) -> list[int] | None:
        """Winners when the deal that has just been scored ends the match by the game's own
        rule (3-5-8: 12 tricks); None: it goes on."""
        return None

    def _final_winners(self) -> list[int]:
        totals = [sum(r["payouts"][i] for r in self.results) for i in range(FOUR)]
        best = max(totals)
        return [i for i in range(FOUR) if totals[i] == best]

    def _partial(self) -> dict[str, Any]:
        part = self.inner._partial()
        seating = self.seating
        return {
            "dealer": self.dealer,
            "sitter": self.dealer,
            "scores": seating._place(part["scores"], 0),
            "payouts": seating._place(part["payouts"], 0),
        }

    def result(self) -> dict[str, Any]:
        """``Match.result`` with each deal's ``sitter`` (records.md: the dealer, who sits out)."""
        out = super().result()
        for d in out["deals"]:
            d["sitter"] = d["dealer"]
        return out

    # ------------------------------------------------------------------ validated path
    def to_act(self) -> list[int]:
        if self.finished:
            return []
        seating = self.seating
        return [seating.outer(i) for i in self.inner.to_act()]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        i = None if self.finished else self.seating.inner(seat)
        return [] if i is None else self.seating.widen(self.inner.legal(i))

    def apply(self, seat: int, action: dict[str, Any]) -> list[Event]:
        if self.finished:
            raise refuse("match_over", "the match is over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < FOUR:
            raise refuse("no_such_seat", f"no such seat {seat!r}")
        if not isinstance(action, dict) or not isinstance(action.get("act"), str):
            raise refuse("malformed_action", "an action must be an object with an 'act'")
        if "signal" in action and not self.SIGNALS:
            raise refuse("no_signals", "signals are not used in this game")
        seating = self.seating
        i = seating.inner(seat)
        if i is None:
            raise refuse("sits_out", f"seat {seat} sits out this deal", to_act=self.to_act())
        inner_action = seating.fold(action)
        inner_action.pop("seat", None)
        try:
            inner_events = self.inner.apply(i, inner_action)
        except IllegalAction as e:
            raise IllegalAction(seating.text(str(e)), e.reason, seating.widen(e.params)) from None
        logged = seating.widen(self.inner.log[0][2][-1])  # as the inner match recorded it
        logged["seat"] = seat
        self.log[self.deal_no][2].append(logged)
        events = [
            seating.widen(e) for e in inner_events if e["event"] not in ("deal_end", "match_end")
        ]
        if self.inner.finished:
            self._deal_over(events)
        return events

    def check(self, seat: int, action: dict[str, Any]) -> tuple[Move, dict[str, Any]]:
        seating = self.seating
        i = seating.inner(seat)
        if i is None:
            raise refuse("sits_out", f"seat {seat} sits out this deal")
        move, logged = self.inner.check(i, seating.fold(action))
        return move, seating.widen(logged)

    def _why_not(self, seat: int) -> dict[int, Any] | None:
        i = self.seating.inner(seat)
        return None if i is None else self.inner._why_not(i)

    def public_view(self) -> dict[str, Any]:
        seating = self.seating
        inner = self.inner.public_view()
        v = seating.widen({k: x for k, x in inner.items() if k not in COMMON_KEYS})
        v.update(self._common_view())
        v["sitter"] = self.dealer
        v["playing"] = seating.playing
        return v

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        seating = self.seating
        i = None if seat is None else seating.inner(seat)
        v = seating.widen(self.inner.seat_view(i))
        v["seat"] = seat
        if seat is not None and i is None:
            v["hand"] = []  # the sitter sees the deal as a spectator does
        return v

    def folded_view(self, seat: int) -> dict[str, Any]:
        """What seat ``seat`` would see at a table of three playing this deal alone: the view
        a three-player bot decides from (``Seating.fold`` of ``view``)."""
        return fold_view(self.view(seat))

    # ------------------------------------------------------------------ fast path
    def actor(self) -> int:
        if self.finished:
            return -1
        a = self.inner.actor()
        return -1 if a < 0 else self.seating.outer(a)

    def moves(self, seat: int) -> list[Move]:
        i = self.seating.inner(seat)
        return [] if i is None or self.finished else self.inner.moves(i)

    def random_move(self, seat: int, rng: random.Random) -> Move:
        return self.inner.random_move(self.seating.inner(seat), rng)  # type: ignore[arg-type]

    def play(self, seat: int, move: Move, ev: list[Event] | None = None) -> None:
        i = self.seating.inner(seat)
        if i is None:
            raise EngineFault(f"seat {seat} sits out this deal")
        self.inner.play(i, move)
        if self.inner.finished:
            self._deal_over(None)

    def move_to_action(self, move: Move) -> dict[str, Any]:
        return self.seating.widen(self.inner.move_to_action(move))

    def clone(self) -> FourSeats:
        m = type(self).__new__(type(self))
        self._copy_common(m)
        m.inner = self.inner.clone()
        return m

    def sides(self) -> list[list[int]] | None:
        return None

    def in_play(self) -> list[int]:
        return self.seating.playing

    # ------------------------------------------------------------------ summaries
    def _explain(self, dealer: int, scores: list[int], payouts: list[int]) -> dict[str, Any] | None:
        seating = self.seating
        try:
            made = self.inner.deal_summary(0)
        except Exception:  # an explanation never stops a table (Match._explain)
            return None
        seats = [seating.widen(e) for e in made["seats"]]
        out_seats: list[dict[str, Any]] = [{} for _ in range(FOUR)]
        for i, entry in enumerate(seats):
            out_seats[seating.outer(i)] = entry
        empty = {"parts": [], "total": 0}
        out_seats[self.dealer] = {"seat": self.dealer, "score": empty, "payout": dict(empty)}
        return {
            **seating.widen({k: v for k, v in made.items() if k != "seats"}),
            "deal": self.deal_no,
            "dealer": dealer,
            "sitter": dealer,
            "scores": list(scores),
            "payouts": list(payouts),
            "table": [
                {
                    **seating.widen({k: v for k, v in r.items() if k != "values"}),
                    "values": seating._place(r["values"], None),
                }
                for r in made["table"]
            ],
            "seats": out_seats,
        }

    # ------------------------------------------------------------------ records and JSON
    def export(self) -> dict[str, Any]:
        rec = super().export()
        for k, deal in enumerate(rec["deals"]):
            deal["sitter"] = (self.first_dealer + k) % FOUR
        return rec

    def dump(self) -> dict[str, Any]:
        state = {k: getattr(self, k) for k in self.COMMON}
        state["inner"] = self.inner.dump()["state"]
        return {"game": self.GAME, "seats": FOUR, "state": json.loads(json.dumps(state))}

    def dump_text(self) -> str:
        return json.dumps(self.dump(), separators=(",", ":"))

    @classmethod
    def load(cls, data: dict[str, Any]) -> FourSeats:
        if data.get("game") != cls.GAME or data.get("seats") != FOUR:
            raise EngineFault(f"state of {data.get('game')!r} loaded into {cls.GAME} of four")
        m = cls.__new__(cls)
        state = json.loads(json.dumps(data["state"]))
        for k in cls.COMMON:
            setattr(m, k, state[k])
        m.inner = cls.INNER.load({"game": cls.GAME, "state": state["inner"]})
        return m


def seating_of(view: dict[str, Any]) -> Seating:
    """The seats of the deal a table of four's view shows."""
    from games.core.registry import get_game  # the registry imports the games' four modules

    return Seating(view["sitter"], get_game(view["game"]).four.FIELDS)  # type: ignore[union-attr]


def fold_view(view: dict[str, Any]) -> dict[str, Any]:
    """A table of four's view (``Match.view``) as the three-seat view of the same deal: what
    the game's bots read. The common part is that of a one-deal match in play."""
    seating = seating_of(view)
    rest = {
        k: v
        for k, v in view.items()
        if k not in COMMON_KEYS and k not in ("sitter", "playing", "seat")
    }
    folded = seating.fold(rest)
    seat = view.get("seat")
    folded.update(
        {
            "game": view["game"],
            "variant": view["variant"],
            "deal": 0,
            "n_deals": 1,
            "to_act": [seating.inner(s) for s in view["to_act"]],
            "results": [],
            "totals": [0, 0, 0],
            "last_deal": None,
            "finished": False,
            "winners": [],
            "seat": None if seat is None else seating.inner(seat),
        }
    )
    return folded


__all__ = ["FOUR", "FourSeats", "SeatFields", "Seating", "fold_view", "seating_of"]
