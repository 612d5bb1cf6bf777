"""Personas from the league tests, plus a way to finish friendly tables and expected ratings.

`friendly(...)` hands the league a made-up finished table (table_ref, outcome) the way the task
of a finished table does once it has read it (`league.finished_tables.count_table`);
`expected_ratings(...)` recomputes with openskill directly, independently of league.ratings,
from (players, payouts) in finish order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from itertools import count

import pytest
from django.utils import timezone
from openskill.models import PlackettLuce

from league import finished_tables
from tests.league.conftest import alice, bob, charlie, make_event, play_round  # noqa: F401

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def scored(game: str, payouts: Sequence[int], *, deals: int = 1, complete: bool = True) -> dict:
    """A score_record-shaped result with these total payouts (the deals split them evenly)."""
    per_deal = [[p // deals for p in payouts] for _ in range(deals)]
    best = max(payouts)
    return {
        "game": game,
        "complete": complete,
        "deals": [
            {"dealer": n % len(payouts), "scores": [0] * len(payouts), "payouts": d}
            for n, d in enumerate(per_deal)
        ],
        "totals": {"scores": [0] * len(payouts), "payouts": list(payouts)},
        "winners": [s for s, p in enumerate(payouts) if p == best],
    }


@pytest.fixture
def friendly(django_capture_on_commit_callbacks) -> Callable[..., str]:
    refs = count(1)

    def finish(
        seats: Sequence[object],
        payouts: Sequence[int],
        *,
        game: str = "saichugen",
        at: datetime | None = None,
        rated: bool = True,
        ref: str | None = None,
        deals: int = 1,
        complete: bool = True,
        forfeited: Sequence[int] = (),
    ) -> str:
        """Finish a table; a seat is a user (person) or a str (a bot's name)."""
        ref = ref or f"fake-{next(refs)}"
        seat_rows = [
            {"seat": n, "user_id": None, "bot": who}
            if isinstance(who, str)
            else {"seat": n, "user_id": who.pk, "bot": None}
            for n, who in enumerate(seats)
        ]
        result = scored(game, payouts, deals=deals, complete=complete)
        if forfeited:
            result["forfeited"] = list(forfeited)
        with django_capture_on_commit_callbacks(execute=True):
            finished_tables.count_table(
                ref,
                {
                    "result": result,
                    "seats": seat_rows,
                    "rated": rated,
                    "finished_at": at or timezone.now(),
                    "forfeited_seats": list(forfeited),
                },
            )
        return ref

    return finish


@pytest.fixture
def without_fair_play_flags(settings) -> None:
    """For tests whose players meet again and again on purpose (the repeat weights, a long
    career): the fair-play flags (tests/fair_play) would hold their tables for review."""
    settings.FAIR_PLAY_REPEATED_TABLES = settings.FAIR_PLAY_FEEDING_TABLES = 10**9


@pytest.fixture
def users(db) -> Callable[..., list]:
    """`users(n)`: n accounts with a verified e-mail address, whose friendly tables the ratings
    trust (league.ratings.eligibility); `verified=False` for brand-new ones they do not."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    def make(n: int, prefix: str = "user", *, verified: bool = True) -> list:
        model = get_user_model()
        made = [model.objects.create_user(f"{prefix}{i}", password="pw") for i in range(n)]
        for user in made if verified else []:
            address = f"{user.username}@example.org"
            EmailAddress.objects.create(user=user, email=address, verified=True, primary=True)
        return made

    return make


def places(payouts: Sequence[int], forfeited: Sequence[int] = ()) -> list[int]:
    keys = [(s not in forfeited, p) for s, p in enumerate(payouts)]
    return [1 + sum(o > k for o in keys) for k in keys]


def expected_ratings(
    matches: Sequence[
        tuple[Sequence[int], Sequence[int]] | tuple[Sequence[int], Sequence[int], float]
    ],
) -> dict[int, tuple[float, float, int]]:
    """openskill's own numbers: {player: (mu, sigma, games)} after the matches, in order; a
    match given as (players, payouts, weight) moves each player that share of openskill's way."""
    model = PlackettLuce()
    ratings: dict[int, object] = {}
    games: dict[int, int] = {}
    for players, payouts, *weighted in matches:
        weight = weighted[0] if weighted else 1
        before = [ratings.get(p) or model.rating() for p in players]
        new = model.rate([[r] for r in before], ranks=places(payouts))
        for p, old, team in zip(players, before, new):
            if weight != 1:
                mu = old.mu + weight * (team[0].mu - old.mu)
                sigma = old.sigma + weight * (team[0].sigma - old.sigma)
                team = [model.rating(mu=mu, sigma=sigma)]
            ratings[p] = team[0]
            games[p] = games.get(p, 0) + 1
    return {p: (r.mu, r.sigma, games[p]) for p, r in ratings.items()}


def fixture_matches(game: str) -> list[tuple[list[int], list[int]]]:
    """Each fixture's counting result as (players, payouts), in order of its first result."""
    from league.models import Fixture

    rows = []
    for fixture in Fixture.objects.filter(round__event__game=game, results__current=True):
        results = sorted(fixture.results.all(), key=lambda r: r.version)
        current = next(r for r in results if r.current)
        players = [s.player_id for s in fixture.seats.order_by("number")]
        rows.append(
            ((results[0].entered_at, results[0].pk), players, current.scored["totals"]["payouts"])
        )
    rows.sort(key=lambda r: r[0])
    return [(players, payouts) for _, players, payouts in rows]


def later(base: datetime, minutes: int) -> datetime:
    return base + timedelta(minutes=minutes)
