from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"

    def ready(self) -> None:
        from league.ratings import receivers as rating_receivers

        rating_receivers.connect()
