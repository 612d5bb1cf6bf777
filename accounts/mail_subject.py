"""Every e-mail subject the site writes goes through `mail_subject`.

A subject is a header, and Django refuses to send a header holding a line break
(`BadHeaderError`): one carriage return in an event's or a player's name, stored before names
were checked, would stop every mail that names it. So a subject is made one line here, whatever
the text put into it holds.
"""

from __future__ import annotations

import unicodedata

MAX_LENGTH = 200


def mail_subject(text: str) -> str:
    """`text` on one line: every run of whitespace (line breaks, a carriage return, tabs, the
    Unicode line and paragraph separators) one space, other control characters dropped."""
    kept = "".join(c for c in str(text) if c.isspace() or unicodedata.category(c) != "Cc")
    return " ".join(kept.split())[:MAX_LENGTH]
