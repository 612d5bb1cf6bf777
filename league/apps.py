from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"

    def ready(self) -> None:
        """Listen to gameplay's `match_finished`: fixtures get results, friendly tables ratings;
        to allauth's `user_signed_up`: every account is a player; and register the league's
        tasks, which `league.queue` sends by name in every process."""
        from allauth.account.signals import user_signed_up

        from gameplay.api import match_finished
        from league import tasks  # noqa: F401
        from league.ratings import receivers as rating_receivers
        from league.receivers import account_signed_up, fixture_match_finished

        match_finished.connect(fixture_match_finished, dispatch_uid="league.fixture_result")
        rating_receivers.connect()
        user_signed_up.connect(account_signed_up, dispatch_uid="league.account_player")
