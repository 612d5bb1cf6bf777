"""Where a table belongs, for its page's header: a heading and a link back to where it came from.

Whoever opens a table may say where it belongs (`gameplay.api.start_table(context=...)`): an
event's name, its round and table numbers, and the local path of the page to go back to. The
table keeps the parts, not a sentence (`Table.context`), and knows nothing of what they name: its
page words them in the reader's language ("Spring league · Runde 2 · Tisch 3"). The name is plain
text (escaped where shown); the path must stay on this site, or a table could send its players
anywhere. Friendly tables (the lobby's) and tables made before the field existed have none.
"""

from __future__ import annotations

import unicodedata
from typing import Any
from urllib.parse import urlsplit

# The parts, each optional: `event` (a name), `round` and `table` (numbers), `url` (a path).
PARTS = ("event", "round", "table", "url")
MAX_NAME = 200
MAX_URL = 500
MAX_NUMBER = 100_000


def is_local_path(url: Any) -> bool:
    """A path on this site ("/events/spring/tables/12/"): one leading slash, printable ASCII
    without spaces or backslashes (browsers read "/\\host" as "//host"), no scheme, no host."""
    if not isinstance(url, str) or not 1 <= len(url) <= MAX_URL:
        return False
    if not url.startswith("/") or url.startswith("//"):
        return False
    if any(not "!" <= c <= "~" or c == "\\" for c in url):
        return False
    parts = urlsplit(url)
    return not parts.scheme and not parts.netloc


def _number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and 1 <= value <= MAX_NUMBER


def _name(value: Any) -> bool:
    """Plain text on one line (escaped where shown): no control characters."""
    if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_NAME:
        return False
    return not any(unicodedata.category(c) == "Cc" for c in value)


_CHECKS = {"event": _name, "round": _number, "table": _number, "url": is_local_path}
_WHAT = {
    "event": f"a name of 1 to {MAX_NAME} characters on one line",
    "round": f"a whole number from 1 to {MAX_NUMBER}",
    "table": f"a whole number from 1 to {MAX_NUMBER}",
    "url": "a path on this site (starting with a single /)",
}


def checked(context: Any) -> dict[str, Any] | None:
    """The context to store, or None for none given (None or {}). Raises `ValueError` naming
    the part for anything else: not a dict, an unknown part, a part of the wrong kind, a URL
    that is not a local path."""
    if context is None:
        return None
    if not isinstance(context, dict):
        raise ValueError("context must be a dict of event, round, table and url")
    unknown = sorted(str(k) for k in context if k not in PARTS)
    if unknown:
        raise ValueError(f"context: unknown part(s) {', '.join(unknown)}")
    for part, value in context.items():
        if not _CHECKS[part](value):
            raise ValueError(f"context {part} must be {_WHAT[part]}")
    if not context:
        return None
    kept: dict[str, Any] = {}
    for part in PARTS:
        if part in context:
            kept[part] = context[part].strip() if part == "event" else context[part]
    return kept


def shown(stored: Any) -> dict[str, Any] | None:
    """What a page shows of a table's stored context: its good parts, None when it has none
    (a friendly table, a table made before contexts, a context with nothing left to show).
    Lenient, as pages must be: a part that does not check out is left out, never an error."""
    if not isinstance(stored, dict):
        return None
    kept: dict[str, Any] = {}
    for part in PARTS:
        value = stored.get(part)
        if value is not None and _CHECKS[part](value):
            kept[part] = value
    if not any(part in kept for part in ("event", "round", "table")):
        return None  # a bare link with no words to show
    return kept
