"""Seekers arriving at the same moment make one table, never two, and nobody is left waiting
when enough of them came (PostgreSQL in CI; each thread its own connection).

Each seek commits first and then matches its pool under the pool's row locks, so the last
commit's run sees everyone; the matched seeks are taken with a conditional UPDATE that must take
them all."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay.models import Seat, Seek, Table
from gameplay.services import seeks
from tests.gameplay.race import race

from .conftest import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.mark.parametrize(
    ("game", "seats", "people", "tables"),
    [("saichugen", 3, 3, 1), ("saichugen", 3, 6, 2), ("mediatore", 4, 5, 1)],
)
def test_seekers_arriving_together_make_exactly_the_tables_they_fill(game, seats, people, tables):
    for round_no in range(3):
        users = [make_user(f"r{round_no}-{n}") for n in range(people)]
        outcomes = race(
            [lambda u=u: seeks.seek(u, game=game, pace="fast", rated=False) for u in users]
        )
        assert all(isinstance(o, Seek) for o in outcomes), outcomes
        assert Table.objects.filter(seats__user__in=users).distinct().count() == tables
        seated = list(Seat.objects.filter(user__in=users).values_list("user_id", flat=True))
        assert len(seated) == len(set(seated)) == tables * seats
        assert Seek.objects.filter(user__in=users, status="open").count() == people - len(seated)
        Seek.objects.filter(user__in=users, status="open").update(status="cancelled")


def test_the_sweep_and_a_new_seeker_racing_make_one_table():
    for round_no in range(3):
        first, second = make_user(f"s{round_no}-a"), make_user(f"s{round_no}-b")
        seeks.seek(first, game="saichugen", pace="normal", bots_after=30)
        waited = timezone.now() - timedelta(seconds=40)
        Seek.objects.filter(user=first, status="open").update(created_at=waited)
        joining = lambda u=second: seeks.seek(u, game="saichugen", pace="normal", bots_after=30)  # noqa: E731
        outcomes = race([seeks.sweep, joining])
        assert not any(isinstance(o, Exception) for o in outcomes), outcomes
        assert Table.objects.filter(seats__user=first).count() == 1
        # One table with both, or the second seeker still waiting: never a table each.
        tables = Table.objects.filter(seats__user__in=[first, second]).distinct().count()
        assert tables == 1
