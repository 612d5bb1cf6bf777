"""Reports to staff about a player: made by any account, read and handled by staff in the admin.

A report is a message to staff, not an action: nothing happens to the player until staff act.
Limits keep it from becoming a weapon: nobody reports their own player or a built-in bot, and
an account makes at most `PLAYER_REPORTS_PER_DAY` reports in any 24 hours.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import api as gameplay
from league.errors import LeagueError
from league.models import Player, PlayerReport

TEXT_MAX_LENGTH = PlayerReport._meta.get_field("text").max_length


class TooManyReports(LeagueError):
    """The reporter's daily allowance is used up (a 429 for the page)."""


# The latest finished tables with the player a report may attach (the form offers them).
TABLES_OFFERED = 20


def reports_per_day() -> int:
    return int(getattr(settings, "PLAYER_REPORTS_PER_DAY", 10))


@transaction.atomic
def report_player(
    reporter: Any,
    player: Player,
    *,
    reason: str,
    text: str = "",
    chat_table: str = "",
    chat_lines: list[dict[str, Any]] | None = None,
    table: str = "",
) -> PlayerReport:
    """File a report about `player` for staff to read; from a table's chat (docs/chat.md) with
    the table and the conversation (`chat_table`, `chat_lines`) for staff to read too."""
    if not getattr(reporter, "is_authenticated", False) or not reporter.is_active:
        raise PermissionDenied(_("Log in to report a player."))
    if reason not in PlayerReport.Reason.values:
        raise LeagueError(_("Choose one of the reasons offered."))
    text = (text or "").strip()
    if len(text) > TEXT_MAX_LENGTH:
        raise LeagueError(_("A report has at most %(n)d characters.") % {"n": TEXT_MAX_LENGTH})
    if player.user_id is not None and player.user_id == reporter.pk:
        raise LeagueError(_("You cannot report yourself."))
    if player.is_builtin_bot:
        raise LeagueError(
            _("%(name)s is one of the site's own bots: tell staff about it some other way.")
            % {"name": player.name}
        )
    if table:
        together = (
            gameplay.finished_tables_together(reporter.pk, player.user_id, limit=TABLES_OFFERED)
            if player.user_id
            else []
        )
        if table not in {t["ref"] for t in together}:
            raise LeagueError(_("Attach a table you played with them, or none."))
        chat_table = chat_table or table
    # The account's row is the lock: two reports at once are counted one after the other.
    get_user_model().objects.select_for_update().get(pk=reporter.pk)
    since = timezone.now() - timedelta(days=1)
    if PlayerReport.objects.filter(reporter=reporter, created_at__gte=since).count() >= (
        reports_per_day()
    ):
        raise TooManyReports(
            _(
                "You have sent %(n)d reports in the last 24 hours, the most there may be. Staff "
                "will read them; try again tomorrow."
            )
            % {"n": reports_per_day()}
        )
    return PlayerReport.objects.create(
        reporter=reporter,
        player=player,
        reason=reason,
        text=text,
        chat_table=chat_table,
        chat_lines=chat_lines,
    )


def mark_handled(reports: Iterable[PlayerReport], *, by: Any, handled: bool = True) -> int:
    """Mark reports handled (or open again); staff only. Returns how many changed."""
    if not getattr(by, "is_authenticated", False) or not by.is_active or not by.is_staff:
        raise PermissionDenied(_("Only staff handle reports."))
    ids = [r.pk for r in reports]
    rows = PlayerReport.objects.filter(pk__in=ids).exclude(handled=handled)
    if handled:
        return rows.update(handled=True, handled_at=timezone.now(), handled_by=by)
    return rows.update(handled=False, handled_at=None, handled_by=None)
