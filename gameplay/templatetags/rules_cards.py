"""`{% cards "3S 7C* 7H" %}`: cards drawn on a rules page as the table draws them.

A card is its record code (records.md: rank then suit, `TH` is the ten of hearts, `3d` the three of
denari); `*` after a code marks the card that takes the trick, `?` is a card face down. The suit
glyphs and colours are the table's (`static/js/table.js`, `games/mediatore/site/table.js`): the
French suits are upper-case letters, the Italian ones lower-case, so no game is named here.
"""

from __future__ import annotations

from django import template
from django.template import Context
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext_lazy

from accounts.preferences import card_faces
from gameplay.card_letters import rank_label

register = template.Library()

GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "d": "◆", "c": "♥", "s": "♠", "b": "♣"}
SUITS = {
    "S": pgettext_lazy("suit", "spades"),
    "H": pgettext_lazy("suit", "hearts"),
    "D": pgettext_lazy("suit", "diamonds"),
    "C": pgettext_lazy("suit", "clubs"),
    "d": "denari",
    "c": "coppe",
    "s": "spade",
    "b": "bastoni",
}
FRENCH_RANKS = {
    "A": pgettext_lazy("card", "ace"),
    "K": pgettext_lazy("card", "king"),
    "Q": pgettext_lazy("card", "queen"),
    "J": pgettext_lazy("card", "jack"),
}
ITALIAN_RANKS = {"A": "asso", "R": "re", "C": "cavallo", "F": "fante"}


def _face(code: str, faces: str = "home") -> SafeString:
    won = code.endswith("*")
    code = code.rstrip("*")
    if code == "?":
        return format_html('<span class="pc back" title="{}"></span>', gettext("face down"))
    rank, suit = code[:-1], code[-1:]
    if suit not in GLYPHS or not rank:
        raise template.TemplateSyntaxError(f"cards: {code!r} is not a card code")
    label = rank_label(rank, suit, faces)
    names = ITALIAN_RANKS if suit.islower() else FRENCH_RANKS
    name = gettext("%(rank)s of %(suit)s") % {
        "rank": names.get(rank, label),
        "suit": SUITS[suit],
    }
    return format_html(
        '<span class="pc suit-{}{}" title="{}"><span class="rank">{}</span>'
        '<span class="pip">{}</span></span>',
        suit,
        " won" if won else "",
        name,
        label,
        GLYPHS[suit],
    )


@register.simple_tag(takes_context=True)
def cards(context: Context, codes: str) -> SafeString:
    """A row of cards (one card is a row of one), in the order given, with the letters of the
    page's language unless the viewer chose French faces (gameplay/card_letters.py)."""
    request = context.get("request")
    chosen = card_faces(getattr(request, "user", None))
    faces = [_face(code, chosen) for code in codes.split()]
    return format_html(
        '<span class="pcs">{}</span>', format_html_join("", "{}", ((f,) for f in faces))
    )
