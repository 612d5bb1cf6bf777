"""The interface every game engine implements, and the match machinery they share.

A ``Match`` is one match at one table: a run of at most ``n_deals`` deals. It is a plain mutable
object with two doors:

* the **validated path** the server uses: ``to_act()``, ``legal(seat)``, ``apply(seat, action)``
  (record-format action dicts, raises ``IllegalAction`` and then changes nothing), ``view(seat)``,
  ``result()``, ``dump()``/``load()``, ``export()``;
* the **fast path** bots use for search: ``actor()``, ``moves(seat)``, ``random_move(seat, rng)``,
  ``play(seat, move)`` (compact moves, no checks, no events, no record), ``clone()``, ``redeal()``.

Deals follow each other automatically: when a deal ends its result is stored and the next deal is
dealt at once (from the explicit deals, else from the seed) until the match is over.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import random
from collections.abc import Sequence
from operator import is_not
from typing import Any, ClassVar

from games.core import commitment as commit
from games.core.cards import Deck, deal_chunks, seeded_rng
from games.core.errors import EngineError, EngineFault, IllegalAction, VariantError
from games.core.hints import ngettext_lazy
from games.core.sheet_rules import SheetRules
from games.core.variants import Flag, resolve_variant

Event = dict[str, Any]
Move = Any

logger = logging.getLogger(__name__)

# Compact JSON, without the check for cycles (the state is a tree): ``dump_text``'s encoder.
_json = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def event(kind: str, visible_to: Sequence[int] | None = None, /, **data: Any) -> Event:
    """An event; ``visible_to`` is ``None`` for everyone (spectators too) or a list of seats."""
    data["event"] = kind
    data["visible_to"] = None if visible_to is None else list(visible_to)
    return data


def visible(events: list[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``None``: a spectator)."""
    return [
        e
        for e in events
        if e["visible_to"] is None or (seat is not None and seat in e["visible_to"])
    ]


def part(code: str, text: str, value: int, **figures: Any) -> dict[str, Any]:
    """One line of a ``deal_summary`` breakdown: what it adds to the total, and why. A step
    that multiplies or divides the running figure says so in ``op=times(n)`` / ``op=divide(n)``,
    so a client writes the arithmetic without knowing the game's codes."""
    return {"code": code, "text": text, "value": value, **figures}


def times(by: int) -> dict[str, int]:
    """A part's ``op``: the running figure multiplied by ``by`` (its ``value`` the difference)."""
    return {"times": by}


def divide(by: int) -> dict[str, int]:
    """A part's ``op``: the running figure divided by ``by``, the fraction dropped towards zero."""
    return {"divide": by}


def note(code: str, text: str, **figures: Any) -> dict[str, Any]:
    """One fact a whole deal turned on (a contract, the trump, the skat's way), for its summary."""
    return {"code": code, "text": text, **figures}


def row(code: str, text: str, values: list[int]) -> dict[str, Any]:
    """One row of a deal summary's ``table``: a figure per seat (tricks, card points…)."""
    return {"code": code, "text": text, "values": list(values)}


Reason = dict[str, Any]  # {"code", "params", "message"}: why a card or an action is refused


def reason(code: str, message: str, **params: Any) -> Reason:
    """Why a card cannot be played now, or why an action was refused: a stable ``code`` (one of
    the engine's ``REASONS``), its figures as JSON ``params`` (so a client can word it in its own
    language) and the English ``message`` (table-protocol.md, "Additions")."""
    return {"code": code, "params": params, "message": message}


def refuse(code: str, message: str, **params: Any) -> IllegalAction:
    """The ``IllegalAction`` for a reason (``raise refuse("must_follow_suit", ...)``)."""
    return IllegalAction(message, code, params)


def card_param(code: Any) -> str | None:
    """A card code the client sent, as an error's parameter: a short string, else ``None`` (a
    refusal never echoes a large or odd value back)."""
    return code if isinstance(code, str) and len(code) <= 8 else None


def unknown_card(code: Any, prefix: str = "") -> IllegalAction:
    """The refusal of a code that is no card of the deck (``Deck.parse``'s message)."""
    return refuse("unknown_card", f"{prefix}unknown card {code!r}", card=card_param(code))


def not_held(card: str, prefix: str = "") -> IllegalAction:
    """The refusal of a card of the deck that the seat does not hold."""
    return refuse("card_not_held", f"{prefix}you do not hold {card}", card=card)


# The reason codes the base machinery and the shared card checks use, in every game.
COMMON_REASONS = frozenset(
    {
        "match_over",
        "no_such_seat",
        "malformed_action",
        "no_signals",
        "not_your_turn",
        "unknown_act",
        "wrong_phase",
        "unknown_card",
        "card_not_held",
        "cards_not_a_list",
        "same_card_twice",
        "wrong_card_count",
    }
)


def describe_action(action: Any) -> str:
    """A short text of an action for error lines: ``play 7H``, ``give 2C 7D to 1``."""
    if not isinstance(action, dict):
        return repr(action)
    parts = [str(action.get("act"))]
    for key in ("card", "suit", "tricks", "contract", "cards", "discard", "give", "to", "signal"):
        if key not in action:
            continue
        value = action[key]
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        elif isinstance(value, dict):
            value = json.dumps(value)
        parts.append(f"to {value}" if key == "to" else str(value))
    return " ".join(parts)


class Match:
    """Base class of the engines. Subclasses set the class attributes and the game hooks."""

    GAME: ClassVar[str] = ""
    DISPLAY: ClassVar[str] = ""
    # The game's name where a language writes it otherwise (language code → name): its home's
    # own spelling (Saichugen is 最中限 in Japanese), or how that language's players write it.
    # games/catalogue.py shows it in the page's language; records and the API keep DISPLAY.
    NAMES: ClassVar[dict[str, str]] = {}
    GOAL: ClassVar[str] = ""  # the game's aim in one line, shown at the table and in the lobby
    # Display hints: key → a short explanation the table shows on hover and tap (hints.py)
    HINTS: ClassVar[dict[str, str]] = {}
    # The Match table's legend, English (marked for translation): ``unit`` (what a score
    # counts, "penalty points"), ``score``, ``payout`` (what a deal's figures mean), ``winner``
    LEGEND: ClassVar[dict[str, str]] = {}
    # A payout as the game analysis names it, singular and plural with the number as %(n)s
    # (docs/bots.md, "Game analysis"); a game with its own unit (tricks, penalty points) sets it.
    PAYOUT_UNIT: ClassVar[tuple[str, str]] = ngettext_lazy(
        "%(n)s payout point", "%(n)s payout points"
    )
    SEATS: ClassVar[int] = 3
    FLAGS: ClassVar[tuple[Flag, ...]] = ()
    SIGNALS: ClassVar[bool] = False  # does any action of this game carry a ``signal``
    # Does a deal seat its players in sides (partners) that change from deal to deal
    # (``sides``)? Else each plays for himself.
    SIDES: ClassVar[bool] = False
    STATE: ClassVar[tuple[str, ...]] = ()  # the subclass's own state attributes (for dump/load)
    SHEET: ClassVar[type[SheetRules]] = SheetRules  # score-sheet rules for over-the-table play

    COMMON: ClassVar[tuple[str, ...]] = (
        "variant",
        "variant_input",
        "players",
        "n_deals",
        "seed",
        "explicit",
        "first_dealer",
        "dealer",
        "deal_no",
        "log",
        "results",
        "finished",
        "winners",
    )
    # ``_committed``: (the current deal's dealt hands, its commitment), not part of the state;
    # ``_explained``: (k, the ``deal_summary`` of deal k), made when deal k ended on the validated
    # path (or once from the log for a loaded match); not part of the state either;
    # ``_log_text``: (the finished deals' log entries, their JSON text), for ``dump_text``
    __slots__ = (*COMMON, "_committed", "_explained", "_log_text")
    # The codes a ``deal_summary`` part or note of this game may carry (stable: clients key their
    # texts on them)
    SUMMARY_CODES: ClassVar[frozenset[str]] = frozenset()
    # The phases a seat acts in, as a view's ``phase`` names them ("over" is not one)
    PHASES: ClassVar[tuple[str, ...]] = ("play",)
    # The reason codes of this game's ``why_not`` and ``IllegalAction.reason`` (stable, listed in
    # docs/engines.md and the game's README.md): the common ones and the game's own
    REASONS: ClassVar[frozenset[str]] = COMMON_REASONS

    # ------------------------------------------------------------------ game hooks
    @classmethod
    def check_variant(cls, variant: dict[str, Any]) -> None:
        """Cross-flag checks (raise ``VariantError``); flags alone are checked by the schema."""

    @classmethod
    def duplicate_problem(cls, variant: dict[str, Any]) -> str | None:
        """Why this (resolved) variant cannot be played in duplicate, English and marked for
        translation (``gettext_noop``), or ``None`` when it can. Duplicate tables play the same
        deal k with the same dealer, so a rule by which play changes how many deals a match has
        or who deals next refuses it (docs/engines.md, "Duplicate"). Deals thrown in that still
        count and pass the deal on are no problem."""
        return None

    @classmethod
    def deck_for(cls, variant: dict[str, Any]) -> Deck:
        raise NotImplementedError

    @classmethod
    def sizes_for(cls, variant: dict[str, Any]) -> tuple[tuple[int, ...], int]:
        """Hand sizes in seat order and the stock size."""
        raise NotImplementedError

    def _setup_deal(self, hands: list[list[int]], stock: list[int]) -> list[Event] | None:
        """Start the current deal (``self.dealer`` deals) from these cards."""
        raise NotImplementedError

    def _partial(self) -> dict[str, Any]:
        """``{"dealer", "scores", "payouts"}`` of the deal in progress (records.md)."""
        raise NotImplementedError

    def _final_winners(self) -> list[int]:
        """Winners when the match ends because ``n_deals`` were played."""
        raise NotImplementedError

    def _summarize(self, scores: list[int], payouts: list[int]) -> dict[str, Any]:
        """The breakdown of the deal ending now, from the engine's state at its end (see
        ``deal_summary``): ``{"kind", "notes", "score_parts", "payout_parts"}``, the parts one
        list per seat."""
        raise NotImplementedError

    def _deal_table(self) -> list[dict[str, Any]]:
        """The rows of the deal ending now for its summary's ``table``: per seat what it took
        (tricks, card points, the skat / monte / last trick where they went), from the state
        at the deal's end (``row``); none for a thrown-in deal."""
        return []

    # validated path, per game
    def sides(self) -> list[list[int]] | None:
        """The deal's sides as the cards have made them (a secret partner included), once the
        contract has made them; None before, and always in a game where each plays for
        himself. For judging afterwards (``games.transfers``), never for a view."""
        return None

    def in_play(self) -> list[int]:
        """The seats that play the current deal, first player first: every seat, but at a
        table of four the three after the sitter (``games.core.four``)."""
        return list(range(self.SEATS))

    def to_act(self) -> list[int]:
        raise NotImplementedError

    def legal(self, seat: int) -> list[dict[str, Any]]:
        raise NotImplementedError

    def check(self, seat: int, action: dict[str, Any]) -> tuple[Move, dict[str, Any]]:
        """Validate ``action`` for ``seat`` (its turn); return the compact move and the action as
        it goes into the record. Raises ``IllegalAction``; never changes the state."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): the part every receiver shares, then
        the receiver's own. Engines write the two parts, not this: a change's states build the
        shared part once for all their receivers (gameplay/services/payloads.py)."""
        return {**self.public_view(), **self.seat_view(seat)}

    def public_view(self) -> dict[str, Any]:
        """The part of the view that is the same for every receiver, spectators included. It
        takes no seat, so it cannot hold a card that only some seat may see."""
        raise NotImplementedError

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        """The receiver's own part of its view: ``seat``, its ``hand`` and whatever else depends
        on who looks (``None``: a spectator). None of ``public_view``'s keys."""
        raise NotImplementedError

    def _why_not(self, seat: int) -> dict[int, Reason] | None:
        """The hook of ``why_not`` for ``seat``, which is to act: ``{card id: reason}`` for the
        cards of its hand no legal action uses, in a phase where cards are chosen; ``None`` in a
        phase that chooses no card (bidding, naming trump, announcing: nothing in the hand is
        "playable" there). ``check`` must refuse such a card with the same reason."""
        return None

    # fast path, per game
    def actor(self) -> int:
        """One seat that may act now (-1 when nobody can: the match is over)."""
        raise NotImplementedError

    def moves(self, seat: int) -> list[Move]:
        raise NotImplementedError

    def random_move(self, seat: int, rng: random.Random) -> Move:
        raise NotImplementedError

    def play(self, seat: int, move: Move, ev: list[Event] | None = None) -> None:
        raise NotImplementedError

    def clone(self) -> Match:
        raise NotImplementedError

    def move_to_action(self, move: Move) -> dict[str, Any]:
        raise NotImplementedError

    # ------------------------------------------------------------------ construction
    def __init__(
        self,
        *,
        dealer: int = 0,
        variant: dict[str, Any] | None = None,
        n_deals: int = 1,
        seed: int | str | None = None,
        deals: list[dict[str, Any]] | None = None,
        players: list[str] | None = None,
    ) -> None:
        """Start a match: deal the first deal. ``deals`` are explicit ``{"hands", "stock"}`` in
        card codes, used first; later deals come from ``seed`` (random when ``None``). An
        explicit deal may bring its ``salt`` (a replayed record); without one it has no
        commitment."""
        resolved = self.resolve_variant(variant)
        if isinstance(dealer, bool) or not isinstance(dealer, int):
            raise VariantError("dealer must be a seat number")
        if not 0 <= dealer < self.SEATS:
            raise VariantError(f"dealer must be a seat from 0 to {self.SEATS - 1}")
        if isinstance(n_deals, bool) or not isinstance(n_deals, int) or n_deals < 1:
            raise VariantError("the number of deals must be a positive integer")
        if players is not None and len(players) != self.SEATS:
            raise VariantError(f"{self.GAME} needs {self.SEATS} players")
        explicit = None
        if deals is not None:
            explicit = []
            for i, d in enumerate(deals):
                problem = self.deck_problem(resolved, d.get("hands"), d.get("stock"))
                if problem:
                    raise VariantError(f"deal {i}: wrong deck: {problem}")
                entry = {"hands": [list(h) for h in d["hands"]], "stock": list(d["stock"])}
                if commit.is_salt(d.get("salt")):
                    entry["salt"] = d["salt"]
                explicit.append(entry)
        self.variant = resolved
        self.variant_input = None if variant is None else dict(variant)
        self.players = None if players is None else list(players)
        self.n_deals = n_deals
        self.seed = seed if seed is not None else int.from_bytes(os.urandom(8), "big")
        self.explicit = explicit
        self.first_dealer = dealer
        self.dealer = dealer
        self.deal_no = 0
        self.log: list[list[Any]] = []
        self.results: list[dict[str, Any]] = []
        self.finished = False
        self.winners: list[int] = []
        self._init_state()
        self._new_deal(None)

    def _init_state(self) -> None:
        """Set the subclass's match-level state before the first deal."""

    @classmethod
    def resolve_variant(cls, variant: Any) -> dict[str, Any]:
        resolved = resolve_variant(cls.FLAGS, variant)
        cls.check_variant(resolved)
        return resolved

    @classmethod
    def deck_problem(cls, variant: dict[str, Any], hands: Any, stock: Any) -> str | None:
        """Why ``hands`` + ``stock`` (card codes) are not exactly this game's deck, or ``None``."""
        deck = cls.deck_for(variant)
        sizes, stock_size = cls.sizes_for(variant)
        if not isinstance(hands, list) or len(hands) != cls.SEATS:
            return f"hands must be a list of {cls.SEATS} hands"
        if not isinstance(stock, list):
            return "stock must be a list of cards"
        seen: set[str] = set()
        for who, cards, size in [
            *((f"seat {i}", h, sizes[i]) for i, h in enumerate(hands)),
            ("stock", stock, stock_size),
        ]:
            if not isinstance(cards, list):
                return f"{who} must be a list of cards"
            for c in cards:
                if not isinstance(c, str) or c not in deck.id_of:
                    return f"{who}: {c!r} is not a card of the {deck.name} deck"
                if c in seen:
                    return f"{who}: {c} appears twice"
                seen.add(c)
            if len(cards) != size:
                return f"{who} has {len(cards)} cards, expected {size}"
        return None

    # ------------------------------------------------------------------ deals
    def _deal_cards(self, k: int) -> tuple[list[list[int]], list[int]]:
        deck = self.deck_for(self.variant)
        if self.explicit is not None and k < len(self.explicit):
            d = self.explicit[k]
            return [[deck.id_of[c] for c in h] for h in d["hands"]], [
                deck.id_of[c] for c in d["stock"]
            ]
        sizes, _ = self.sizes_for(self.variant)
        return deal_chunks(deck.shuffled(seeded_rng(self.seed, k)), sizes)

    def _new_deal(self, ev: list[Event] | None) -> None:
        hands, stock = self._deal_cards(self.deal_no)
        self.log.append([[h[:] for h in hands], stock[:], []])
        if ev is not None:
            deck = self.deck_for(self.variant)
            ev.append(event("deal", deal=self.deal_no, dealer=self.dealer))
            for s, h in enumerate(hands):
                ev.append(event("hand", [s], deal=self.deal_no, cards=deck.codes(sorted(h))))
        self._setup_deal(hands, stock)

    def deal_of(self, k: int) -> dict[str, Any]:
        """Deal ``k`` as this match deals it, whatever was played before it (duplicate tables
        share their deals): ``{"hands", "stock", "commitment"}`` in card codes, hands before
        any exchange, as the record will have them; ``commitment`` None for an explicit deal
        without a salt. Reads nothing of the match's play, changes nothing."""
        deck = self.deck_for(self.variant)
        hands, stock = self._deal_cards(k)
        hands_codes = [deck.codes(h) for h in hands]
        stock_codes = deck.codes(stock)
        salt = self.salt_of(k)
        return {
            "hands": hands_codes,
            "stock": stock_codes,
            "commitment": None
            if salt is None
            else commit.commitment(hands_codes, stock_codes, salt),
        }

    def salt_of(self, k: int) -> str | None:
        """The secret salt of deal ``k`` (None: an explicit deal that came without one)."""
        if self.explicit is not None and k < len(self.explicit):
            return self.explicit[k].get("salt")
        return commit.deal_salt(self.seed, k)

    def commitment(self) -> str | None:
        """The commitment to the current deal's cards (table-protocol.md); the same from the
        deal's first state to its last. None for an explicit deal without a salt."""
        hands, stock, _ = self.log[self.deal_no]
        # Computed once a deal: every deal (and a redeal) has its own list of dealt hands.
        cached = getattr(self, "_committed", None)
        if cached is not None and cached[0] is hands:
            return cached[1]
        salt = self.salt_of(self.deal_no)
        value = None
        if salt is not None:
            deck = self.deck_for(self.variant)
            value = commit.commitment([deck.codes(h) for h in hands], deck.codes(stock), salt)
        self._committed = (hands, value)
        return value

    def redeal(self, rng: random.Random) -> None:
        """Fast path: replace the cards of the current, untouched deal by a fresh shuffle from
        ``rng`` (bots and benchmarks try many deals from one position)."""
        if self.log[-1][2]:
            raise EngineFault("redeal after the deal has begun")
        deck = self.deck_for(self.variant)
        hands, stock = deal_chunks(deck.shuffled(rng), self.sizes_for(self.variant)[0])
        self.log[-1] = [[h[:] for h in hands], stock[:], []]
        self._setup_deal(hands, stock)

    def _end_deal(
        self,
        dealer: int,
        scores: list[int],
        payouts: list[int],
        ev: list[Event] | None,
        winners: list[int] | None = None,
        next_dealer: int | None = None,
    ) -> None:
        """Store the deal's result; end the match (``winners`` given, or ``n_deals`` reached) or
        deal the next deal."""
        if sum(payouts) != 0:
            raise EngineFault(f"payouts {payouts} do not sum to zero")
        if ev is not None:  # the validated path: the deal explained once, at its end
            self._explained = (self.deal_no, self._explain(dealer, scores, payouts))
        self.results.append({"dealer": dealer, "scores": scores, "payouts": payouts})
        if ev is not None:
            ev.append(event("deal_end", deal=self.deal_no, **self._reveal(self.deal_no)))
        if winners is None and self.deal_no + 1 >= self.n_deals:
            winners = self._final_winners()
        if winners is not None:
            self.finished = True
            self.winners = sorted(winners)
            if ev is not None:
                ev.append(event("match_end", winners=self.winners, result=self.result()))
            return
        self.deal_no += 1
        self.dealer = (dealer + 1) % self.SEATS if next_dealer is None else next_dealer
        self._new_deal(ev)

    def _reveal(self, k: int) -> dict[str, Any]:
        """Everything about finished deal ``k``: its record entry and its result."""
        deck = self.deck_for(self.variant)
        hands, stock, actions = self.log[k]
        return {
            **self.results[k],
            "hands": [deck.codes(h) for h in hands],
            "stock": deck.codes(stock),
            "actions": [dict(a) for a in actions],
        }

    # ------------------------------------------------------------------ validated path
    def why_not(self, seat: int) -> dict[str, Reason] | None:
        """Why each card of ``seat``'s hand is not playable now: ``{card code: {"code",
        "params", "message"}}`` (table-protocol.md, "Why a card is not playable").

        Only for a seat that is to act, in a phase where it chooses cards (play, commit, discard,
        give, call…): a card is listed exactly when no legal action uses it, with the reason
        ``apply`` would refuse it with. ``None`` when the seat is not to act or the phase chooses
        no card (bidding, trump, announcements); ``{}`` when every card is playable."""
        if self.finished or seat not in self.to_act():
            return None
        found = self._why_not(seat)
        if found is None:
            return None
        code_of = self.deck_for(self.variant).code_of
        return {code_of[card]: why for card, why in sorted(found.items())}

    def apply(self, seat: int, action: dict[str, Any]) -> list[Event]:
        """Apply a player's action (record format). Returns the events it produced, each saying
        who may see it. Raises ``IllegalAction`` and leaves the state unchanged when illegal."""
        if self.finished:
            raise refuse("match_over", "the match is over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.SEATS:
            raise refuse("no_such_seat", f"no such seat {seat!r}")
        if not isinstance(action, dict) or not isinstance(action.get("act"), str):
            raise refuse("malformed_action", "an action must be an object with an 'act'")
        if "signal" in action and not self.SIGNALS:
            raise refuse("no_signals", "signals are not used in this game")
        if seat not in self.to_act():
            raise refuse(
                "not_your_turn",
                f"not your turn (waiting for seat {self._waiting()})",
                to_act=self.to_act(),
            )
        move, logged = self.check(seat, action)
        events: list[Event] = []
        self.log[self.deal_no][2].append({"seat": seat, **logged})
        self.play(seat, move, events)
        return events

    def _waiting(self) -> str:
        return " or ".join(str(s) for s in self.to_act())

    def result(self) -> dict[str, Any]:
        """The ``score_record`` output of records.md for the match so far."""
        deals = [
            {"dealer": r["dealer"], "scores": list(r["scores"]), "payouts": list(r["payouts"])}
            for r in self.results
        ]
        if not self.finished:
            deals.append(self._partial())
        n = self.SEATS
        return {
            "game": self.GAME,
            "complete": self.finished,
            "deals": deals,
            "totals": {
                "scores": [sum(d["scores"][i] for d in deals) for i in range(n)],
                "payouts": [sum(d["payouts"][i] for d in deals) for i in range(n)],
            },
            "winners": list(self.winners) if self.finished else [],
        }

    def _common_view(self) -> dict[str, Any]:
        """The public fields every game's view starts with (its ``seat`` is in ``seat_view``)."""
        totals = [sum(r["payouts"][i] for r in self.results) for i in range(self.SEATS)]
        return {
            "game": self.GAME,
            # The full variant (defaults filled in): a client or bot knows which rules apply.
            "variant": dict(self.variant),
            "deal": self.deal_no,
            "n_deals": self.n_deals,
            "to_act": self.to_act(),
            "results": [dict(r) for r in self.results],
            "totals": totals,
            "last_deal": self._last_deal(),
            "finished": self.finished,
            "winners": list(self.winners),
        }

    # ------------------------------------------------------------------ deal breakdown
    def deal_summary(self, deal_index: int) -> dict[str, Any]:
        """How finished deal ``deal_index`` came to its scores and payouts, for people: JSON.

        One interface for every game, so the table page can explain any game's scoring::

            {"game", "deal", "dealer", "kind", "scores", "payouts",
             "notes": [{"code", "text", ...}],          # what the whole deal turned on
             "table": [{"code", "text", "values"}],     # per seat: tricks, card points…
             "seats": [{"seat",
                        "score": {"parts": [PART, ...], "total"},
                        "payout": {"parts": [PART, ...], "total"}}, ...]}

        A PART is ``{"code", "text", "value", ...figures}``: a stable code (one of the engine's
        ``SUMMARY_CODES``, as are the notes' codes), an English line, what it adds, and the
        figures the line is made of (so a client can word it in its own language). Parts add up
        exactly: a seat's score parts to its score and its payout parts to its payout. A step
        that multiplies or divides adds the difference it makes (doubled, 37 → 74 adds 37; 74
        divided by 10, the fraction dropped, → 7 adds -67). ``kind`` is the game's code for how
        the deal went (``thrown_in`` when it was).

        Made from the engine's own state at the deal's end: when the deal ended here on the
        validated path (``apply``), the summary made then; for any other deal (or a match
        loaded from its state) by replaying the match's log up to it (the match itself is not
        changed). Everything in it is public once the deal is over. ``IndexError`` for a deal
        that is not finished."""
        if (
            isinstance(deal_index, bool)
            or not isinstance(deal_index, int)
            or not 0 <= deal_index < len(self.results)
        ):
            raise IndexError(f"deal {deal_index!r} is not a finished deal of this match")
        explained = getattr(self, "_explained", None)
        if explained is None or explained[0] != deal_index:
            explained = self._replayed_summary(deal_index)
        if explained[1] is None:
            raise EngineFault(f"deal {deal_index} could not be summarized (see the log)")
        return copy.deepcopy(explained[1])

    def _replayed_summary(self, deal_index: int) -> tuple[int, dict[str, Any] | None]:
        """``(deal_index, summary)`` from a replay of the log up to that deal's end."""
        deck = self.deck_for(self.variant)
        played = self.log[: deal_index + 1]
        replay = type(self)(
            dealer=self.first_dealer,
            variant=self.variant,
            n_deals=self.n_deals,
            seed=self.seed,  # deals after the replayed ones only
            deals=[
                {"hands": [deck.codes(h) for h in hands], "stock": deck.codes(stock)}
                for hands, stock, _ in played
            ],
        )
        for _, _, actions in played:
            for action in actions:
                replay.apply(action["seat"], action)
        explained = getattr(replay, "_explained", None)
        if explained is None or explained[0] != deal_index:
            raise EngineFault(f"the replay of deal {deal_index} did not end it")
        return explained

    def _explain(self, dealer: int, scores: list[int], payouts: list[int]) -> dict[str, Any] | None:
        """The ``deal_summary`` of the deal ending now (its result not yet stored). ``None``,
        logged, when the game's ``_summarize`` fails or its parts do not add up: an
        explanation must never stop a table (``deal_summary`` raises for it, so tests see it)."""
        k = self.deal_no
        try:
            made = self._summarize(scores, payouts)
            table = self._deal_table()
            seats = []
            for s in range(self.SEATS):
                entry: dict[str, Any] = {"seat": s}
                for key, figure in (("score", scores), ("payout", payouts)):
                    parts = made[f"{key}_parts"][s]
                    total = sum(p["value"] for p in parts)
                    if total != figure[s]:
                        raise EngineFault(
                            f"deal {k}: seat {s}'s {key} parts add up to {total}, not {figure[s]}"
                        )
                    entry[key] = {"parts": parts, "total": total}
                seats.append(entry)
        except Exception:
            logger.exception("%s deal %s: the deal summary failed", self.GAME, k)
            return None
        return {
            "game": self.GAME,
            "deal": k,
            "dealer": dealer,
            "kind": made["kind"],
            "scores": list(scores),
            "payouts": list(payouts),
            "notes": made["notes"],
            "table": table,
            "seats": seats,
        }

    def _last_deal(self) -> dict[str, Any] | None:
        """The views' ``last_deal``: the last finished deal in full, and its ``summary`` from
        its end until the next deal's first action (and in a finished match) — what the table
        shows when a deal ends. A summary made once; between those moments, no copy of it in
        every state sent."""
        if not self.results:
            return None
        k = len(self.results) - 1
        last = self._reveal(k)
        if self.finished or not self.log[self.deal_no][2]:
            summary = self._summary_of(k)
            if summary is not None:
                last["summary"] = summary
        return last

    def _summary_of(self, k: int) -> dict[str, Any] | None:
        """Deal ``k``'s summary, shared by the views (read-only): the one made at its end, or
        made once from the log (a match loaded from its state). ``None`` for a match played on
        the fast path, which keeps no log to explain it from."""
        explained = getattr(self, "_explained", None)
        if explained is None or explained[0] != k:
            try:
                explained = self._replayed_summary(k)
            except (EngineError, EngineFault):
                explained = (k, None)
            self._explained = explained
        return explained[1]

    # ------------------------------------------------------------------ records and JSON
    def export(self) -> dict[str, Any]:
        """The match as a ``mediana.record/1`` record (finished or not)."""
        deck = self.deck_for(self.variant)
        rec: dict[str, Any] = {"format": "mediana.record/1", "game": self.GAME}
        if self.variant_input is not None:
            rec["variant"] = dict(self.variant_input)
        if self.players is not None:
            rec["players"] = list(self.players)
        rec["dealer"] = self.first_dealer
        rec["deals"] = []
        for k, (hands, stock, actions) in enumerate(self.log):
            deal = {
                "hands": [deck.codes(h) for h in hands],
                "stock": deck.codes(stock),
                "actions": [dict(a) for a in actions],
            }
            salt = self.salt_of(k)
            if salt is not None:  # the record reveals what every state committed to
                deal["commitment"] = commit.commitment(deal["hands"], deal["stock"], salt)
                deal["salt"] = salt
            rec["deals"].append(deal)
        return rec

    def dump(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (``load`` restores it exactly)."""
        state = {k: getattr(self, k) for k in (*self.COMMON, *self.STATE)}
        return {"game": self.GAME, "state": json.loads(json.dumps(state))}

    def dump_text(self) -> str:
        """``dump()`` as JSON text (the same JSON value as ``json.dumps(self.dump())``, its
        keys in another order), cheaply enough to write on every action: the finished deals of
        the log never change, so their text is made once per match (clones share it) and only
        the rest is serialized each time."""
        log = self.log
        done = len(log) - 1  # every deal before the current one is over
        cached = getattr(self, "_log_text", None)
        # The same deal objects, not equal ones: a match whose log was replaced starts over.
        if cached is None or len(cached[0]) > done or any(map(is_not, cached[0], log)):
            cached = ((), "")
        deals, text = cached
        if len(deals) < done:
            text += "".join(f"{_json(deal)}," for deal in log[len(deals) : done])
            self._log_text = (tuple(log[:done]), text)
        state = _json({k: getattr(self, k) for k in (*self.COMMON, *self.STATE) if k != "log"})
        return f'{{"game":{_json(self.GAME)},"state":{{"log":[{text}{_json(log[-1])}],{state[1:]}}}'

    @classmethod
    def load(cls, data: dict[str, Any]) -> Match:
        if data.get("game") != cls.GAME:
            raise EngineFault(f"state of {data.get('game')!r} loaded into {cls.GAME}")
        m = cls.__new__(cls)
        state = json.loads(json.dumps(data["state"]))
        for k in (*cls.COMMON, *cls.STATE):
            setattr(m, k, state[k])
        return m

    def _copy_common(self, m: Match) -> None:
        """Copy the shared attributes into clone ``m`` (finished deals' logs are shared:
        they never change)."""
        m.variant = self.variant
        m.variant_input = self.variant_input
        m.players = self.players
        m.n_deals = self.n_deals
        m.seed = self.seed
        m.explicit = self.explicit
        m.first_dealer = self.first_dealer
        m.dealer = self.dealer
        m.deal_no = self.deal_no
        log = self.log[:]
        last = log[-1]
        log[-1] = [last[0], last[1], last[2][:]]
        m.log = log
        m.results = self.results[:]
        m.finished = self.finished
        m.winners = self.winners[:]
        m._committed = getattr(self, "_committed", None)  # the clone shares the dealt hands
        m._explained = getattr(self, "_explained", None)  # and the last deal's summary
        m._log_text = getattr(self, "_log_text", None)  # and the finished deals' JSON
