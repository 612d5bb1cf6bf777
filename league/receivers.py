"""The league's side of the one door: a finished online fixture becomes its counted result.

And the league's side of sign-up: every new account gets its player.
"""

from __future__ import annotations

import logging
from typing import Any

from gameplay import api as gameplay
from league.errors import LeagueError
from league.models import Fixture, Result
from league.services.players import player_for_user
from league.services.results import record_result

log = logging.getLogger(__name__)


def fixture_match_finished(sender: Any, table_ref: str, **kwargs: Any) -> None:
    """Count the record of a fixture's finished table, unless a result is already in.

    An organizer may have entered the result by hand (say the players met over the table after
    all); that one stands, and correcting it stays the organizer's decision.
    """
    fixture = Fixture.objects.filter(table_ref=table_ref).select_related("round__event").first()
    if fixture is None:
        return  # a friendly table: ratings handle those
    if fixture.results.filter(current=True).exists():
        log.info("table %s finished, but %s already has a result", table_ref, fixture)
        return
    finished = gameplay.table_result(table_ref)
    if finished is None:
        log.error("table %s announced its end but has no result", table_ref)
        return
    try:
        record_result(
            fixture,
            by=None,
            record=finished["record"],
            forfeited_seats=list(finished.get("forfeited_seats") or []),
            source=Result.Source.ONLINE,
        )
    except LeagueError:
        log.exception("the record of table %s was refused for %s", table_ref, fixture)


def account_signed_up(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """allauth's `user_signed_up`: the account's player, under its user name (the sign-up form
    refused a name any player holds, league.profile.adapter)."""
    player_for_user(user)
