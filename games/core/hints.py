"""Display hints: the short explanations a table shows on hover and tap (an engine's ``HINTS``).

The browser client holds no rules, so what a contract, a signal or a target *means* comes from the
engine, beside the rules it explains: ``HINTS`` maps a stable key to one or two plain English
sentences. The table page puts them in its config (``gameplay/views.py``, translated there) and the
game's client module attaches them to what it draws (``games/<game>/site/table.js``).

Keys, by what they explain:

* ``contract.<name>`` — a contract or kind of deal, as the view's ``contract`` names it;
* ``act.<act>`` — a button of the legal list (``act.push``, ``act.kontra``); an action that names a
  contract (a bid) is explained by ``contract.<name>`` instead;
* ``signal.<signal>`` — a lead signal (``signal.none``: leading without one);
* ``role.<role>`` — a seat's role (``role.partner``);
* a plain word for a figure the table shows (``target``, ``pushes``, ``round``).

Texts are marked with ``gettext_noop`` (a no-op of the name ``makemessages`` looks for) and
translated where they are shown.
"""

from __future__ import annotations

import re

# A key: lower-case words joined by "." ("contract.chiamo"), a signal may combine two with "+".
KEY = re.compile(r"^[a-z_]+(\.[a-z_]+(\+[a-z_]+)?)?$")


def gettext_noop(message: str) -> str:
    """Mark `message` for translation; it is translated where a person reads it."""
    return message


def ngettext_lazy(singular: str, plural: str, number: int | str = "n") -> tuple[str, str]:
    """Mark a singular and plural pair for translation: `makemessages` extracts this name
    (`ngettext_lazy:1,2`); the pair stays English here and is translated, with the number's
    plural form, where a person reads it (the games import no Django)."""
    return (singular, plural)


def check_hints(hints: dict[str, str]) -> None:
    """Raise ``ValueError`` for a malformed key or an empty text (a bug in an engine's table)."""
    for key, text in hints.items():
        if not KEY.match(key):
            raise ValueError(f"hint key {key!r} is not lower-case words joined by '.'")
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"hint {key!r} has no text")
