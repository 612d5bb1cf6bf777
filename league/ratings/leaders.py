"""The top of every game's leaderboard at once, for the home page: one query for all games."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import BooleanField, Case, F, Value, When, Window
from django.db.models.functions import RowNumber

from league.models import Rating
from league.ratings.services import established

LEADERS_SHOWN = 5


@dataclass
class Leaders:
    """One game's best ratings: `established` ranked as the leaderboard ranks them, and the
    best `provisional` ones, listed apart (as the leaderboard lists them) and unranked."""

    established: list[Rating] = field(default_factory=list)
    provisional: list[Rating] = field(default_factory=list)


def leaders(size: int = LEADERS_SHOWN) -> dict[str, Leaders]:
    """Each rated game's `size` best established and `size` best provisional ratings (player
    selected), keyed by game — one query whose rows are bounded in SQL (a ROW_NUMBER window per
    game and standing), in the leaderboard's order and with its split (`queries.leaderboard`,
    `services.established`)."""
    provisional = Case(
        When(established(), then=Value(False)),
        default=Value(True),
        output_field=BooleanField(),
    )
    place = Window(
        RowNumber(),
        partition_by=[F("game"), F("provisional")],
        order_by=[F("ordinal").desc(), F("mu").desc(), F("player__name").asc(), F("player_id")],
    )
    rows = (
        Rating.objects.select_related("player")
        .annotate(provisional=provisional)
        .annotate(place=place)
        .filter(place__lte=size)
        .order_by("game", "place")
    )
    tops: dict[str, Leaders] = {}
    for rating in rows:
        board = tops.setdefault(rating.game, Leaders())
        (board.provisional if rating.provisional else board.established).append(rating)
    return tops
