"""Per-game oracles for the generic property tests, computed from the engine's ground truth.

``KNOWABLE[game](match, seat)`` — every card code ``seat`` (``None``: a spectator) may know in the
current deal, by the rules file's "What each seat sees". ``LOCATIONS[game](match)`` — every card
of the current deal with where it is, to check that cards are conserved. Add both for a new game.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core.base import Match
from games.mediatore import engine as med
from games.schieberamsch import engine as sr


def _dealt(m: Match, seat: int) -> set[str]:
    deck = m.deck_for(m.variant)
    return set(deck.codes(m.log[m.deal_no][0][seat]))


def saichugen_knowable(m: Match, seat: int | None) -> set[str]:
    deck = m.deck_for(m.variant)
    known = {code for t in m.tricks for code in deck.codes(t[:3])}  # every revealed card
    if seat is not None:
        known |= _dealt(m, seat)
    return known


def saichugen_locations(m: Match) -> list[int]:
    return [
        *(c for h in m.hands for c in h),
        *(c for c in m.commits if c != -1),
        *(c for t in m.tricks for c in t[:3]),
        *m.stock,
    ]


def three_five_eight_knowable(m: Match, seat: int | None) -> set[str]:
    deck = m.deck_for(m.variant)
    known = {code for t in m.tricks for code in deck.codes(t[1:4])}
    known |= set(deck.codes(m.trick))
    if seat is None:
        return known
    known |= _dealt(m, seat) | set(deck.codes(m.hands[seat]))
    for giver, receiver, given, back in m.passes:
        if seat in (giver, receiver):
            known |= set(deck.codes(given)) | set(deck.codes(back))
    if seat == m.hdealer:
        known |= set(deck.codes(m.discards))
        if m.kitty_taken:
            known |= set(deck.codes(m.kitty))
    return known


def three_five_eight_locations(m: Match) -> list[int]:
    kitty = [] if m.kitty_taken else m.kitty
    return [
        *(c for h in m.hands for c in h),
        *kitty,
        *m.discards,
        *m.trick,
        *(c for t in m.tricks for c in t[1:4]),
    ]


KNOWABLE: dict[str, Callable[[Match, int | None], set[str]]] = {
    "saichugen": saichugen_knowable,
    "three_five_eight": three_five_eight_knowable,
}
LOCATIONS: dict[str, Callable[[Match], list[int]]] = {
    "saichugen": saichugen_locations,
    "three_five_eight": three_five_eight_locations,
}


def schieberamsch_knowable(m: Match, seat: int | None) -> set[str]:
    deck = m.deck_for(m.variant)
    if m.phase == sr.OVER:  # "when the deal ends everything may be shown"
        return set(deck.id_of)
    known = {code for t in m.tricks for code in deck.codes(t[1:4])} | set(deck.codes(m.trick))
    if seat is None:
        return known
    known |= _dealt(m, seat) | set(deck.codes(m.hands[seat]))
    for cards in m.taken[seat]:  # the skat he picked up and the two he put back
        known |= set(deck.codes(cards))
    return known


def schieberamsch_locations(m: Match) -> list[int]:
    return [
        *(c for h in m.hands for c in h),
        *m.skat,
        *m.trick,
        *(c for t in m.tricks for c in t[1:4]),
    ]


def mediatore_knowable(m: Match, seat: int | None) -> set[str]:
    """Card codes only; who holds the called card is checked in test_mediatore_secrets.py."""
    deck = m.deck_for(m.variant)
    if m.phase == med.OVER:
        return set(deck.id_of)
    known = {code for t in m.tricks for code in deck.codes(t[1:5])} | set(deck.codes(m.trick))
    if m.called >= 0:
        known.add(deck.code(m.called))  # the call is public; where the card lies is not
    orig_monte = set(deck.codes(m.log[m.deal_no][1]))
    shown = m.contract == med.SOLO or (m.contract == med.MEDIATORE and m.called >= 0)
    if shown:
        known |= orig_monte
    if seat is None:
        return known
    known |= _dealt(m, seat) | set(deck.codes(m.hands[seat]))
    if seat == m.declarer:
        if m.contract == med.SOLISSIMO or (m.contract == med.CHIAMO and m.called >= 0):
            known |= orig_monte
        known |= set(deck.codes(m.monte))  # the new monte: his own discards
    if m.given >= 0 and seat in (m.declarer, m.giver):
        known.add(deck.code(m.given))
    return known


def mediatore_locations(m: Match) -> list[int]:
    return [
        *(c for h in m.hands for c in h),
        *m.monte,
        *m.trick,
        *(c for t in m.tricks for c in t[1:5]),
    ]


KNOWABLE["schieberamsch"] = schieberamsch_knowable
KNOWABLE["mediatore"] = mediatore_knowable
LOCATIONS["schieberamsch"] = schieberamsch_locations
LOCATIONS["mediatore"] = mediatore_locations
