from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"

    def ready(self) -> None:
        """Listen to gameplay's `match_finished`: fixtures get results, friendly tables ratings."""
        from gameplay.api import match_finished
        from league.ratings import receivers as rating_receivers
        from league.receivers import fixture_match_finished

        match_finished.connect(fixture_match_finished, dispatch_uid="league.fixture_result")
        rating_receivers.connect()
