"""The league's receivers: the end of a match, and sign-up.

The end of a match is one-way: gameplay announces it after commit, and the league only queues
its task here (`league.queue.finish_table`, with the table's reference), so the final move's
acknowledgement never waits for results, standings, ratings or notices.
"""

from __future__ import annotations

from typing import Any

from league import queue
from league.services.players import player_for_user


def match_finished(sender: Any, table_ref: str, **kwargs: Any) -> None:
    """gameplay's `match_finished`: queue the one task that counts the table
    (league/finished_tables.py); it reads what it needs itself."""
    queue.finish_table(table_ref)


def account_signed_up(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """allauth's `user_signed_up`: the account's player, under its user name (the sign-up form
    refused a name any player holds, league.profile.adapter)."""
    player_for_user(user)
