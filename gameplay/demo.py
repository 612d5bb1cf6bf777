"""The demo's friendly table: `make run` has a Saichugen table ready to join against two bots.

`load_demo` calls `demo_table()` and prints the link that plays ana's seat. Idempotent: an
unfinished demo table is reused, a finished one is replaced by a fresh table.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from gameplay.models import Table
from gameplay.services.create import SeatSpec, create_table

DEMO_PLAYER = "ana"
DEMO_BOTS = ("Bot Bianca", "Bot Bruno")


def find_demo_table(username: str = DEMO_PLAYER) -> str | None:
    """The id of the unfinished demo table, if there is one (reads only)."""
    return (
        Table.objects.filter(
            game="saichugen",
            status=Table.Status.PLAYING,
            seats__number=0,
            seats__user__username=username,
        )
        .filter(seats__number=1, seats__bot=DEMO_BOTS[0])
        .order_by("-created_at")
        .values_list("id", flat=True)
        .first()
    )


def demo_table(username: str = DEMO_PLAYER) -> str:
    """The id of an unfinished Saichugen table with `username` in seat 0 and two bots."""
    user = get_user_model().objects.get(username=username)
    existing = find_demo_table(username)
    if existing is not None:
        return existing
    seats = [SeatSpec(username, user_id=user.pk)] + [SeatSpec(n, bot=n) for n in DEMO_BOTS]
    # No turn clock: the table waits for the visitor instead of playing itself out.
    return create_table("saichugen", seats, n_deals=1).id
