"""How strong a hand is for a Grand, counted the way Skat players count it: sure tricks.

The search's rollouts cannot judge a Grand Hand announced with ten cards and nine tricks to go:
the rollout defence is a model, and a hopeless Grand looks good against a weak one (the issue
"Bots a good player respects II": a Grand Hand with J♦ J♥ and one ace, lost with kontra). A
Skat player does not play it out in his head either; he counts his tricks ("Stiche zählen"):

- jacks: those in unbroken order from J♣ ("Spitzen") are a trick each, the others half a trick
  (they fall to a higher jack about half the time);
- per plain suit: the ace is a trick, a ten beside its ace another, then a king and a queen in
  unbroken order; a suit headed by its ace that is five cards or longer runs once the jacks are
  drawn (a trick for each card beyond four); a ten without its ace but guarded by two more
  cards is half a trick (it falls to the ace or survives it), a bare or once-guarded ten none;
- forehand leads: half a trick more (it draws the jacks before the defence can smear).

`grand_tricks` is that count, for the declarer's ten cards; `defence_tricks` counts the same for
a defender against a Grand (his jacks and aces are the tricks that beat it).
"""

from __future__ import annotations

from collections.abc import Iterable

from games.schieberamsch.engine import is_trump

JACKS = ("JC", "JS", "JH", "JD")
SUIT_ORDER = ("A", "T", "K", "Q")  # the top of a plain suit, highest first
LEAD_BONUS = 0.5


def jack_tricks(hand: Iterable[str]) -> float:
    """The jacks' tricks: a trick for each in unbroken order from J♣, half for the rest."""
    held = set(hand)
    tricks = 0.0
    top = True
    for jack in JACKS:
        if jack in held:
            tricks += 1.0 if top else 0.5
        else:
            top = False
    return tricks


def suit_tricks(hand: Iterable[str], suit: str) -> float:
    """One plain suit's tricks in a Grand: its top in unbroken order from the ace, the length
    of an ace-headed suit beyond four cards, half for a ten guarded by two cards."""
    cards = [c for c in hand if c[1] == suit and not is_trump(c)]
    ranks = {c[0] for c in cards}
    tricks = 0.0
    for rank in SUIT_ORDER:
        if rank not in ranks:
            break
        tricks += 1.0
    if "A" in ranks:
        tricks += max(0, len(cards) - max(4, int(tricks)))
    elif "T" in ranks and len(cards) >= 3:
        tricks += 0.5
    return tricks


def grand_tricks(hand: Iterable[str], forehand: bool = False) -> float:
    """The declarer's sure tricks in a Grand Hand (the module's docstring)."""
    cards = list(hand)
    total = jack_tricks(cards) + sum(suit_tricks(cards, s) for s in "CSHD")
    return total + (LEAD_BONUS if forehand else 0.0)


def defence_tricks(hand: Iterable[str]) -> float:
    """A defender's tricks against a Grand: the same count, without the lead."""
    return grand_tricks(hand)
