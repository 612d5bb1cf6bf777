"""Rebuild ratings from the stored matches; a thin shell over league.ratings.services."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import catalogue
from league.ratings.compute import MODEL_NAME
from league.ratings.services import rated_games, recompute


class Command(BaseCommand):
    help = (
        "Recompute every rating of a game (or of every game) from its matches in finish order: "
        "re-reads each event fixture's counting result, forgets the stored ratings and history, "
        f"and rates every match again with openskill's {MODEL_NAME}. Gives the same numbers as "
        "the incremental updates."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", help="only this game (default: every rated game)")

    def handle(self, *args, **options) -> None:
        game = options.get("game")
        if game:
            try:
                catalogue.game(game)
            except KeyError:
                raise CommandError(f"unknown game {game!r}") from None
        for name in [game] if game else rated_games():
            rated = recompute(name)
            self.stdout.write(f"{name}: {rated} matches rated")
