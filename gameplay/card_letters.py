"""The letters on a card's face, as the page's language reads them.

A French-suited card's code says J Q K A (records.md); a German page shows B D K A (Bube,
Dame, König, Ass) as Skat players read them. The letters come from the translation catalogue
(context "card letter"), so each language chooses its own; the viewer's "french" faces
(accounts/preferences.py) keep J Q K A. Italian-suited cards (lower-case suits) keep their
Italian letters, A R C F, in every language. The browser's twin is `letter` of the French
deck in static/js/table.js.
"""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

LETTERS = {
    "J": pgettext_lazy("card letter", "J"),
    "Q": pgettext_lazy("card letter", "Q"),
    "K": pgettext_lazy("card letter", "K"),
    "A": pgettext_lazy("card letter", "A"),
}


def rank_label(rank: str, suit: str, faces: str = "home") -> str:
    """What a card of `rank` (its code's rank) in `suit` shows: "10" for the ten, the
    language's letter for a French court card or ace (unless `faces` is "french")."""
    if rank == "T":
        return "10"
    if faces != "french" and suit.isupper() and rank in LETTERS:
        return str(LETTERS[rank])
    return rank
