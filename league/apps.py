from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class LeagueConfig(AppConfig):
    verbose_name = pgettext_lazy("admin section", "League")  # the admin index's heading
    name = "league"

    def ready(self) -> None:
        """Listen to gameplay's `match_finished` (one receiver: it queues the task that counts
        the table); to allauth's `user_signed_up`: every account is a player; to `user_logged_in`:
        the network it logs in from (fair play); and register the
        league's tasks, which `league.queue` sends by name in every process."""
        from allauth.account.signals import user_signed_up
        from django.contrib.auth.signals import user_logged_in

        from gameplay.api import challenge_made as table_challenge_made
        from gameplay.api import chat_reported as table_chat_reported
        from gameplay.api import match_finished as table_finished
        from gameplay.api import turn_due as table_turn_due
        from league import tasks  # noqa: F401
        from league.receivers import (
            account_logged_in,
            account_signed_up,
            challenge_made,
            chat_reported,
            match_finished,
            turn_due,
        )

        table_finished.connect(match_finished, dispatch_uid="league.match_finished")
        # By the day: a "your turn" notice (docs/tables.md, "Turn-based tables").
        table_turn_due.connect(turn_due, dispatch_uid="league.turn_due")
        # A challenge to a turn-based table: the challenged is told by a notice.
        table_challenge_made.connect(challenge_made, dispatch_uid="league.challenge_made")
        # A line of a table's chat reported: a player report with the conversation attached.
        table_chat_reported.connect(chat_reported, dispatch_uid="league.chat_reported")
        user_signed_up.connect(account_signed_up, dispatch_uid="league.account_player")
        # Fair play: the client network an account logs in from, as a keyed hash.
        user_logged_in.connect(account_logged_in, dispatch_uid="league.account_network")
