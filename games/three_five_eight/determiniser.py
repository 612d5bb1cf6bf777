"""3-5-8: voids shown in play, the exchange (the seat's own gives and returns; between the two
others only the count is public, but the forced return says something: the down player gave
back his highest cards of the suits passed), the kitty and the dealer's discard.

A world says where the unseen cards are now: the other hands, the kitty not yet taken, the
dealer's discards. Its history, backwards from now: the dealer's kitty (the seat does not see
it) is tried in turn, the discard of the same cards first; a pass between the two others is
replayed as the up player passing cards that the down player had to give straight back (his
highest of their suits), which leaves both hands as they are — such cards exist exactly when
some history of that pass leads to the world, so one of them serves for all."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product
from typing import Any

from games.core.cards import FRENCH51, FRENCH52
from games.core.determiniser import (
    Determiniser,
    History,
    Holding,
    Slots,
    dealt_hands,
    ordered,
    trick_cards,
)
from games.three_five_eight.engine import ThreeFiveEightMatch, returns_for

KITTY = "kitty"
DISCARDS = "discards"


def _eligible(giver_hand: set[int], receiver_hand: set[int]) -> list[int]:
    """The giver's cards that beat every card of the receiver's in their suit (lower id =
    higher card): the cards a pass of his could have come back as."""
    top: dict[int, int] = {}
    for x in receiver_hand:
        s = x // 13
        top[s] = min(top.get(s, 99), x)
    return sorted(c for c in giver_hand if c < top.get(c // 13, 99))


class ThreeFiveEightDeterminiser(Determiniser):
    GAME = "three_five_eight"
    ENGINE = ThreeFiveEightMatch

    def first_dealer(self, view: dict[str, Any], past: Any) -> int:
        """Deal 0's dealer: who dealt it (with Woburn bidding the hand's dealer is the high
        bidder, and the bidding begins with who dealt)."""
        if view["deal"] == 0:
            return view["dealt_by"]
        if view["variant"]["woburn_bidding"]:
            return past[0]["actions"][0]["seat"]
        return super().first_dealer(view, past)

    def observed(self, view: dict[str, Any], seat: int, action: dict[str, Any]) -> bool:
        """A pass of cards to the seat itself was seen card by card (the replay keeps it as it
        was): it weighs a world like a bid (``games.core.bots.inference``)."""
        if action.get("act") == "give" and action.get("to") == view["seat"]:
            return seat != view["seat"]
        return super().observed(view, seat, action)

    def slots(self, view: dict[str, Any]) -> Slots:
        me = view["seat"]
        deck = FRENCH51 if view["variant"]["targets"] == "6-3-8" else FRENCH52
        parse = deck.parse
        known = {parse(c) for c in view["hand"]}
        void: dict[int, set[int]] = {0: set(), 1: set(), 2: set()}
        for _leader, cards in trick_cards(view, 3):
            led = parse(cards[0][1]) // 13
            for seat, code in cards:
                known.add(parse(code))
                if parse(code) // 13 != led:
                    void[seat].add(led)
        h = view["dealer"]
        kitty, discards = view["kitty"], view["discards"]
        counts: dict[Any, int] = {s: view["hand_sizes"][s] for s in range(3) if s != me}
        if h == me:
            known.update(parse(c) for c in discards["cards"] or [])
        elif discards["count"]:
            counts[DISCARDS] = discards["count"]
        if not kitty["taken"] and kitty["size"]:
            counts[KITTY] = kitty["size"]
        pool = [c for c in deck.ids if c not in known]
        only: dict[int, set[int]] = {}
        passes = view["exchange"]["passes"]
        for i, p in enumerate(passes):
            if p["cards"] is None:
                continue
            given = {parse(c) for c in p["cards"]}
            back = {parse(c) for c in p["returned"]}
            holder = p["to"] if p["from"] == me else p["from"]
            # with the holder, or passed on by it in a later pass of the exchange
            where = {holder}
            for q in passes[i + 1 :]:
                if holder in (q["from"], q["to"]):
                    where |= {q["from"], q["to"]}
            for c in (given - back) if p["from"] == me else back:
                only[c] = where
        # The seat's own pass to a down player: he gave back his highest cards of each suit
        # passed, so he kept none above the lowest of them (unless another pass or the kitty
        # brought him one later).
        above: dict[int, dict[int, int]] = {}
        for i, p in enumerate(passes):
            r = p["to"]
            if p["from"] != me or p["cards"] is None:
                continue
            if any(r in (q["from"], q["to"]) for q in passes[i + 1 :]):
                continue
            if r == h and kitty["taken"]:
                continue
            back = [parse(c) for c in p["returned"]]
            for su in {parse(c) // 13 for c in p["cards"]}:
                low = max((c for c in back if c // 13 == su), default=None)
                if low is not None:
                    above.setdefault(r, {})[su] = low
        allowed = {}
        for c in pool:
            ok = {s for s in counts if s in (0, 1, 2) and c // 13 not in void[s]}
            ok -= {r for r, lows in above.items() if c < lows.get(c // 13, -1)}
            ok |= {k for k in counts if k in (KITTY, DISCARDS)}
            if c in only:  # the seat knows who got it in the exchange (it is not played)
                ok &= only[c]
            allowed[c] = frozenset(ok)
        return Slots(pool, counts, allowed)

    def histories(self, view: dict[str, Any], holding: Holding) -> Iterator[History]:
        me = view["seat"]
        deck = FRENCH51 if view["variant"]["targets"] == "6-3-8" else FRENCH52
        parse, codes = deck.parse, deck.codes
        tricks = trick_cards(view, 3)
        full = dealt_hands(view, holding, tricks, parse, 3)
        h = view["dealer"]
        kitty, dis = view["kitty"], view["discards"]
        take_first = view["variant"]["kitty_mode"] == "take_then_discard"
        if h == me:
            discarded = {parse(c) for c in dis["cards"] or []}
        else:
            discarded = set(holding.get(DISCARDS, []))
        done = dis["count"] > 0
        untaken = set(holding.get(KITTY, []))

        # The kitty as dealt, and the dealer's hand before it: options in order.
        if not kitty["size"]:
            options: list[tuple[set[int], set[int]]] = [(set(full[h]), set())]
        elif not kitty["taken"]:
            before = full[h] | discarded  # discard_then_take, discarded or not yet
            options = [(before, untaken)]
        elif h == me:
            k_cards = {parse(c) for c in kitty["cards"]}
            options = [((full[h] | discarded) - k_cards, k_cards)]
        else:
            pile = full[h] | discarded
            if take_first or not done:
                first = [frozenset(discarded)] if done else []
                cands = first + [
                    frozenset(o)
                    for o in combinations(sorted(pile), kitty["size"])
                    if frozenset(o) not in first
                ]
            else:  # discard_then_take: the kitty went into the final hand
                cands = [frozenset(o) for o in combinations(sorted(full[h]), kitty["size"])]
            if not any(h in (p["from"], p["to"]) for p in view["exchange"]["passes"]):
                cands = cands[:1]  # the dealer's earlier hand matters to nothing the seat saw
            options = [(pile - set(k), set(k)) for k in cands]

        passes = view["exchange"]["passes"]

        def undo(i: int, hands: dict[int, set[int]], gives: list) -> Iterator[tuple[dict, list]]:
            """Undo the passes from the ``i``-th back to the first: every way (hands before the
            exchange, the gives in order)."""
            if i < 0:
                yield hands, gives
                return
            p = passes[i]
            g, r, n = p["from"], p["to"], p["count"]
            if p["cards"] is not None:
                given = [parse(c) for c in p["cards"]]
                back = {parse(c) for c in p["returned"]}
                gs = set(given)
                if not (back <= hands[g] and gs - back <= hands[r]):
                    return
                before = dict(hands)
                before[g] = (hands[g] - (back - gs)) | (gs - back)
                before[r] = (hands[r] - (gs - back)) | (back - gs)
                if sorted(returns_for(sorted(before[r] | gs), sorted(gs))) != sorted(back):
                    return  # the down player would have returned other cards
                give = (g, {"act": "give", "to": r, "cards": codes(given)})
                yield from undo(i - 1, before, [give, *gives])
                return
            top = _eligible(hands[g], hands[r])
            if len(top) < n:
                return
            # The down player gave back ``ret``: his highest of their suits. The up player
            # passed as many cards of each suit, among ``ret`` and what the down player kept.
            # Only an earlier pass of the seat's own into or out of these hands can tell the
            # ways apart; without one, the same cards straight back serve.
            earlier = [q for q in passes[:i] if q["cards"] is not None]
            later = any({g, r} & {q["from"], q["to"]} for q in earlier)
            # What the seat's own earlier pass needs these hands to hold before this one: the
            # cards returned to its giver, the cards its receiver kept.
            need: dict[int, set[int]] = {g: set(), r: set()}
            for q in earlier:
                qg = {parse(c) for c in q["cards"]}
                qb = {parse(c) for c in q["returned"]}
                if q["from"] in need:
                    need[q["from"]] |= qb
                if q["to"] in need:
                    need[q["to"]] |= qg - qb
            for ret in combinations(top, n):
                kept_g = hands[g] - set(ret)
                stays = (hands[r] | set(ret)) & need[r]  # not passed: the receiver had them
                must = need[g] - kept_g  # passed: the giver had them before
                if not later:
                    ways = [tuple((c,) for c in ret)]
                else:
                    if must & stays or not must <= hands[r] | set(ret):
                        continue
                    suits: dict[int, int] = {}
                    for c in ret:
                        suits[c // 13] = suits.get(c // 13, 0) + 1
                    choices = []
                    for su in sorted(suits):
                        fixed = sorted(c for c in must if c // 13 == su)
                        free = [
                            c
                            for c in sorted(hands[r] | set(ret))
                            if c // 13 == su and c not in must and c not in stays
                        ]
                        k = suits[su] - len(fixed)
                        if k < 0:
                            break
                        choices.append([tuple(fixed) + o for o in combinations(free, k)])
                    else:
                        ways = list(product(*choices))
                    if len(choices) < len(suits):
                        continue
                for parts in ways:
                    passed = {c for part in parts for c in part}
                    if need[g] - ((hands[g] - set(ret)) | passed):
                        continue
                    before = dict(hands)
                    before[g] = (hands[g] - set(ret)) | passed
                    before[r] = (hands[r] | set(ret)) - passed
                    if need[r] - before[r]:
                        continue
                    give = (g, {"act": "give", "to": r, "cards": codes(sorted(passed))})
                    yield from undo(i - 1, before, [give, *gives])
                if not later:
                    return

        for dealer_hand, dealt_kitty in options:
            start = {s: set(full[s]) for s in range(3)}
            start[h] = set(dealer_hand)
            for hands, gives in undo(len(passes) - 1, start, []):
                yield from self._history(view, hands, gives, dealt_kitty, discarded, done, tricks)

    def _history(
        self,
        view: dict[str, Any],
        hands: dict[int, set[int]],
        gives: list,
        dealt_kitty: set[int],
        discarded: set[int],
        done: bool,
        tricks: list,
    ) -> Iterator[History]:
        deck = FRENCH51 if view["variant"]["targets"] == "6-3-8" else FRENCH52
        parse, codes = deck.parse, deck.codes
        h = view["dealer"]
        kitty, dis = view["kitty"], view["discards"]
        actions: list[tuple[int, dict[str, Any]]] = []
        for b in view["bids"]:
            if b["act"] == "pass":
                actions.append((b["seat"], {"act": "pass"}))
            else:
                actions.append((b["seat"], {"act": "bid", "tricks": b["tricks"]}))
        actions += gives
        if view["trump"] is not None:
            actions.append((h, {"act": "trump", "suit": view["trump"]}))
        if done:
            order = [parse(c) for c in dis["cards"]] if dis["cards"] else None
            actions.append((h, {"act": "discard", "cards": codes(ordered(discarded, order))}))
        for _leader, cards in tricks:
            actions += [(seat, {"act": "play", "card": code}) for seat, code in cards]
        seen = [parse(c) for c in kitty["cards"]] if kitty["cards"] else None
        stock = ordered(dealt_kitty, seen)
        yield History([sorted(hands[s]) for s in range(3)], stock, actions)


DETERMINISER = ThreeFiveEightDeterminiser()
