"""The events gameplay announces to the rest of the site (re-exported by `gameplay.api`).

`match_finished` is sent after the database commit when a table's match ends: sender=None,
table_ref=str, result=score_record-shaped dict, seats=[{"seat": n, "user_id": int|None,
"bot": str|None, "bot_level": str|None}], rated=bool, finished_at=datetime,
forfeited_seats=[n, ...]. Receivers run with `send_robust`: one that fails is logged and the
others still hear of it.

`turn_due` is sent after the commit that began a person's turn at a turn-based table (once a
turn; never at a live table): sender=None, table_ref=str, user_id=int, game=str, seq=int (the
table's seq when the turn began: with table_ref, a key for one notice a turn), deadline=datetime
or None. Receivers run with `send_robust` too.

`challenge_made` is sent after the commit that made a challenge to a turn-based table (a live
challenge is answered within minutes, told live only): sender=None, challenge_ref=int,
user_id=int (the challenged), by=str (the challenger's name), game=str, pace=str, url=str (where
it is answered). Receivers run with `send_robust` too.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import Signal

logger = logging.getLogger(__name__)

match_finished = Signal()
turn_due = Signal()
challenge_made = Signal()


def announce(
    signal: Signal, name: str, table_ref: Any, *, ref_name: str = "table_ref", **kwargs: Any
) -> None:
    """Send `signal` about a table (or, by `ref_name`, another thing) to every receiver: one
    that fails is logged with its traceback, and the others still hear of it (a receiver's bug
    never undoes a move)."""
    for receiver, response in signal.send_robust(sender=None, **{ref_name: table_ref}, **kwargs):
        if isinstance(response, Exception):
            logger.error(
                "%s receiver %r failed for %s %s",
                name,
                receiver,
                ref_name.removesuffix("_ref"),
                table_ref,
                exc_info=(type(response), response, response.__traceback__),
            )


# `chat_reported` is sent (synchronously, inside the report's transaction) when a person reports
# a line of a table's chat (docs/chat.md): sender=None, table_ref=str, reporter_id=int,
# user_id=int (the account reported), note=str, lines=[{"at", "name", "seat", "text", "phrase"},
# ...] (the conversation of the reporter's channel, oldest first). A receiver files the report;
# one that refuses it (e.g. the reporter's daily allowance is used up) raises `ReportRefused`
# with a message for the reporter, and nothing is filed.
chat_reported = Signal()


class ReportRefused(Exception):
    """A receiver of `chat_reported` refused the report: `str(exc)` says why, to the reporter."""
