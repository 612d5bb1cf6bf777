"""Judging finished tables for the collusion analytics (docs/fair-play.md, "Collusion").

Every finished table of a judged game (`judged_games`: three seats, or sides) at which at least
two accounts sat is judged once, afterwards, by the periodic `league.judge_tables` (on the bots'
queue with a broker): where each person's decisions sent payout (`games.transfers`, every card
known by then), kept as a `JudgedTable`. A seat its person resigned is not judged (a bot
finished it). The pairs are scored when staff look (`suspects`), over the tables of a window, by
the pure `league.fairplay.collusion`.

In the embedded mode the evaluation, seconds of pure Python, runs in a spawned process of its
own, so that the server's moves are not kept waiting; with workers it runs in the task.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError
from django.utils import timezone

from gameplay import api as gameplay
from games import registry
from games.transfers import record_transfers
from league.fairplay import collusion, together
from league.models import JudgedTable, Player, RatedMatch, Rating, RatingHistory

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None


def judged_games() -> list[str]:
    """The games whose pairs are scored: every game of three seats, and every game of sides
    (Mediatore: a pair in the deals where they were not partners)."""
    return [
        name
        for name in registry.game_names()
        if registry.get_game(name).seats == 3 or registry.get_game(name).engine.SIDES
    ]


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def _evaluate(record: dict[str, Any], seats: list[int], rollouts: int) -> list[dict[str, Any]]:
    """`record_transfers` of the seats: in a process of its own when Celery is eager (the
    embedded server), inline in a worker."""
    if not settings.CELERY_TASK_ALWAYS_EAGER or not _setting("FAIR_PLAY_JUDGE_BESIDE", True):
        return record_transfers(record, seats, rollouts=rollouts)
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        pool = _pool
    return pool.submit(record_transfers, record, seats, rollouts=rollouts).result()


def _players(seats: list[dict[str, Any]], forfeited: list[int]) -> list[int | None]:
    """The player id of each seat's account, None for a bot's seat or one its person left."""
    users = {s["user_id"] for s in seats if s.get("user_id")}
    ids = dict(Player.objects.filter(user_id__in=users).values_list("user_id", "pk"))
    return [
        None if s["seat"] in forfeited or not s.get("user_id") else ids.get(s["user_id"])
        for s in seats
    ]


def judge(table_ref: str) -> JudgedTable | None:
    """Judge one finished table (once: a judged table is returned as it is). None for a table
    that is not finished, of a game not judged, or with fewer than two people to judge."""
    done = JudgedTable.objects.filter(table_ref=table_ref).first()
    if done is not None:
        return done
    finished = gameplay.table_result(table_ref)
    if finished is None or not finished.get("record"):
        return None
    if finished["record"].get("game") not in judged_games():
        return None
    record = finished["record"]
    players = _players(finished["seats"], list(finished.get("forfeited_seats") or []))
    seats = [s for s, p in enumerate(players) if p is not None]
    if len(seats) < 2:
        return None
    rollouts = _setting("FAIR_PLAY_JUDGE_ROLLOUTS", 2)
    error = ""
    try:
        decisions = _evaluate(record, seats, rollouts)
    except Exception as exc:  # kept as not judged, said once, never tried again every sweep
        logger.exception("table %s: its decisions could not be judged", table_ref)
        decisions, error = [], f"{type(exc).__name__}: {exc}"[:200]
    try:
        return JudgedTable.objects.create(
            table_ref=table_ref,
            game=record["game"],
            finished_at=finished["finished_at"],
            players=players,
            decisions=decisions,
            error=error,
        )
    except IntegrityError:  # judged meanwhile by another run
        return JudgedTable.objects.filter(table_ref=table_ref).first()


def sweep(limit: int | None = None) -> int:
    """Judge the latest finished tables not judged yet (at most `limit`, the oldest first):
    the periodic task's body; running it twice judges nothing twice."""
    limit = limit if limit is not None else _setting("FAIR_PLAY_JUDGE_PER_RUN", 3)
    since = timezone.now() - timedelta(days=_setting("FAIR_PLAY_JUDGE_DAYS", 3))
    refs = gameplay.finished_tables_of_people(since, judged_games(), people=2)
    done = set(JudgedTable.objects.filter(table_ref__in=refs).values_list("table_ref", flat=True))
    count = 0
    for ref in [r for r in refs if r not in done][:limit]:
        if judge(ref) is not None:
            count += 1
    return count


def suspects(game: str, days: int | None = None) -> list[collusion.Suspect]:
    """The game's pairs above the threshold over the judged tables of the last `days`
    (`FAIR_PLAY_COLLUSION_DAYS`, 90), the strongest first."""
    days = days if days is not None else _setting("FAIR_PLAY_COLLUSION_DAYS", 90)
    since = timezone.now() - timedelta(days=days)
    rows = JudgedTable.objects.filter(game=game, finished_at__gte=since, error="").values_list(
        "table_ref", "players", "decisions"
    )
    found = []
    for ref, players, judged in rows:
        found.extend(collusion.decisions_of(ref, players, judged))
    return collusion.suspects(found)


def suspects_with(player_id: int) -> list[tuple[str, collusion.Suspect]]:
    """The suspect pairs of every judged game that name this player (a report's page)."""
    return [(game, s) for game in judged_games() for s in suspects(game) if player_id in s.players]


def results_together(
    game: str,
    pairs: list[tuple[Any, Any]],
    chances: together.Chances,
    default: tuple[float, float],
    days: int | None = None,
) -> dict[tuple[Any, Any], together.Together]:
    """For each (helper, helped) of `pairs`, the helped's rated results with the helper and
    without, against the ratings (`league.fairplay.together`), over the same days as the
    decisions (`FAIR_PLAY_COLLUSION_DAYS`). Three queries, whatever the pairs."""
    if not pairs:
        return {}
    days = days if days is not None else _setting("FAIR_PLAY_COLLUSION_DAYS", 90)
    since = timezone.now() - timedelta(days=days)
    helped = {b for _, b in pairs}
    ids = set(
        RatingHistory.objects.filter(game=game, player_id__in=helped, at__gte=since).values_list(
            "match_id", flat=True
        )
    )
    matches = [
        together.Match(tuple(players), tuple(ranks))
        for players, ranks in RatedMatch.objects.filter(pk__in=ids, counts=True)
        .exclude(review__in=[RatedMatch.Review.HELD, RatedMatch.Review.VOIDED])
        .values_list("players", "ranks")
    ]
    seated = {p for m in matches for p in m.players}
    ratings = {
        player: (mu, sigma)
        for player, mu, sigma in Rating.objects.filter(game=game, player_id__in=seated).values_list(
            "player_id", "mu", "sigma"
        )
    }
    return {(a, b): together.together(matches, a, b, ratings, chances, default) for a, b in pairs}
