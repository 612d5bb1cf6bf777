from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"

    def ready(self) -> None:
        """Listen to gameplay's `match_finished` (one receiver: it queues the task that counts
        the table); to allauth's `user_signed_up`: every account is a player; and register the
        league's tasks, which `league.queue` sends by name in every process."""
        from allauth.account.signals import user_signed_up

        from gameplay.api import match_finished as table_finished
        from league import tasks  # noqa: F401
        from league.receivers import account_signed_up, match_finished

        table_finished.connect(match_finished, dispatch_uid="league.match_finished")
        user_signed_up.connect(account_signed_up, dispatch_uid="league.account_player")
