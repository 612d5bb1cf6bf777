"""The league's receivers: the end of a match, a report from a table's chat, sign-up, log-in.

The end of a match is one-way: gameplay announces it after commit, and the league only queues
its task here (`league.queue.finish_table`, with the table's reference), so the final move's
acknowledgement never waits for results, standings, ratings or notices.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay.api import ReportRefused
from league import queue
from league.errors import LeagueError
from league.fairplay import networks
from league.models import Notice, PlayerReport
from league.services.notifications import notify
from league.services.players import player_for_user
from league.services.reports import report_player

# Someone playing on at a turn-based table is not told again of their turn there for this long.
YOUR_TURN_QUIET = timedelta(hours=1)


def match_finished(sender: Any, table_ref: str, **kwargs: Any) -> None:
    """gameplay's `match_finished`: queue the one task that counts the table
    (league/finished_tables.py); it reads what it needs itself."""
    queue.finish_table(table_ref)


def turn_due(
    sender: Any,
    table_ref: str,
    user_id: int,
    game: str,
    seq: int,
    deadline: datetime | None = None,
    **kwargs: Any,
) -> None:
    """gameplay's `turn_due`: one "your turn" notice a turn (keyed by the table and the seq at
    which the turn began, so a repeated signal makes nothing twice) — but not for someone
    playing on at the table now: none within `YOUR_TURN_QUIET` of the table's last one (bots
    answering at once would make one a move), and a new one reads the old ones of its table."""
    url = f"/tables/{table_ref}/"
    earlier = Notice.objects.filter(user_id=user_id, kind="your_turn", url=url)
    now = timezone.now()
    if earlier.filter(created_at__gt=now - YOUR_TURN_QUIET).exists():
        return
    earlier.filter(read_at__isnull=True).update(read_at=now)
    notify(
        [user_id],
        "your_turn",
        key=f"your-turn:{table_ref}:{seq}",
        url=url,
        context={"game": game, "deadline": deadline.isoformat() if deadline else None},
    )


def challenge_made(
    sender: Any,
    challenge_ref: int,
    user_id: int,
    by: str,
    game: str,
    pace: str,
    url: str,
    **kwargs: Any,
) -> None:
    """gameplay's `challenge_made` (a challenge to a turn-based table): a notice to the
    challenged, once a challenge, linking to where it is answered."""
    notify(
        [user_id],
        "challenge",
        key=f"challenge:{challenge_ref}",
        url=url,
        context={"game": game, "by": by, "pace": pace},
    )


def account_signed_up(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """allauth's `user_signed_up`: the account's player, under its user name (the sign-up form
    refused a name any player holds, league.profile.adapter)."""
    player_for_user(user)


def account_logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Django's `user_logged_in`: note the client network it logs in from (a keyed hash;
    docs/fair-play.md)."""
    networks.note_login(request, user)


def chat_reported(
    sender: Any,
    table_ref: str,
    reporter_id: int,
    user_id: int,
    note: str,
    lines: list[dict[str, Any]],
    **kwargs: Any,
) -> None:
    """gameplay's `chat_reported` (a person reported a line of a table's chat): a player report
    about the writer's player, for abusive behaviour, with the table and the conversation
    attached for staff. The report's own limits apply; a refusal goes back to the reporter
    (`ReportRefused`) and files nothing."""
    accounts = get_user_model().objects.in_bulk([reporter_id, user_id])
    if reporter_id not in accounts or user_id not in accounts:
        raise ReportRefused(_("That account no longer exists."))
    try:
        report_player(
            accounts[reporter_id],
            player_for_user(accounts[user_id]),
            reason=PlayerReport.Reason.ABUSE,
            text=note,
            chat_table=table_ref,
            chat_lines=lines,
        )
    except (LeagueError, PermissionDenied) as exc:
        raise ReportRefused(str(exc)) from None
