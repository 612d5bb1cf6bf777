"""Tables for the home page's tests, made through the lobby's service as people make them."""

from __future__ import annotations

from django.utils import timezone

from gameplay.models import Table
from gameplay.services import lobby
from games import catalogue


def friendly(user, game: str = "saichugen", *, open_seats: int = 0, **options) -> Table:
    """A lobby table by `user`: bots in every seat but theirs and `open_seats` (playing at once
    when none is open, else waiting)."""
    seats = catalogue.game(game).seats
    return lobby.create_friendly(user, game=game, bots=seats - 1 - open_seats, **options).table


def finish(table: Table, payouts: list[int]) -> Table:
    """Mark a table finished with these total payouts (the winners: the best payout)."""
    best = max(payouts)
    result = {
        "game": table.game,
        "complete": True,
        "deals": [],
        "totals": {"scores": list(payouts), "payouts": list(payouts)},
        "winners": [n for n, p in enumerate(payouts) if p == best],
    }
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.FINISHED, result=result, finished_at=timezone.now()
    )
    return Table.objects.get(pk=table.pk)
