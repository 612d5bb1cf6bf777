"""The thin layer around `compute`: load matches and ratings, rate in finish order, write rows.

Inputs are `RatedMatch` rows: one per event fixture with a counting result in an event the
ratings trust (`rated_fixtures`: published, run by an organizer holding the role; re-read from
the fixture's current `Result` on every new version) and one per rated friendly table (noted
by `league.finished_tables`; it counts only if its accounts are trusted, `eligibility`, and the
same accounts' repeated tables weigh less, `repeat_weights`). Every change of a game's
ratings happens while holding that game's `RatingGame` row lock, in match-finish order
(`finished_at`, then id). A match that arrives late, or a corrected result, rewinds the game to
just before that match and re-rates every match from there on, so the stored ratings always
equal a full recomputation.

The league's services queue the tasks that call this module by name (`league.queue`) and never
import it: the ratings sit above the services (they read players and who may organize there).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Min, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from league import queue
from league.fairplay import review as fair_play
from league.models import (
    Event,
    Fixture,
    Player,
    RatedMatch,
    Rating,
    RatingGame,
    RatingHistory,
    Result,
    Seat,
)
from league.ratings.compute import (
    RatingState,
    counts_for_ratings,
    finishing_ranks,
    initial_state,
    rate_match,
    repeat_weights,
)
from league.ratings.eligibility import unvouched_accounts
from league.services import duplicate_scoring
from league.services.permissions import trusted_events
from league.services.players import (
    DEFAULT_BOT_LEVEL,
    builtin_bot,
    player_for_user,
    seat_bot_names,
)

logger = logging.getLogger(__name__)


def provisional_games() -> int:
    """Below this many rated games a player is provisional (listed apart on the leaderboard)."""
    return int(getattr(settings, "RATING_PROVISIONAL_GAMES", 10))


def provisional_opponents() -> int:
    """Having met fewer distinct players than this in rated games keeps a player provisional,
    however many games they played (ten games against the same two bots prove little)."""
    return int(getattr(settings, "RATING_PROVISIONAL_OPPONENTS", 5))


def repeat_window() -> timedelta:
    """Within this time the same accounts' rated friendly tables weigh less and less
    (`RATING_REPEAT_WINDOW_DAYS`; 0: never)."""
    return timedelta(days=int(getattr(settings, "RATING_REPEAT_WINDOW_DAYS", 7)))


def established() -> Q:
    """The ratings that are not provisional, as a filter on `Rating` (stored counts: no join)."""
    return Q(games__gte=provisional_games(), opponents__gte=provisional_opponents())


def is_provisional(rating: Rating) -> bool:
    """`established` for one loaded row."""
    return rating.games < provisional_games() or rating.opponents < provisional_opponents()


# --- what may change a rating -------------------------------------------------------------------


def rated_events() -> QuerySet[Event]:
    """The events whose matches count for the ratings: published ones whose owner (the account
    that created them) holds the organizer role (staff hold it).

    The one rule for event matches, read by every path in (a result, publishing, the sweep,
    recompute): a draft never counts, nor does an event of an account without the role — with
    organizing open to every account (`LEAGUE_OPEN_ORGANIZING`) anyone could otherwise make an
    event, enter rated players and post whatever it likes. The owner's role, not a
    co-organizer's: an account without the role cannot make its event count by adding someone
    who holds it. An event whose owner's account is gone counts no more. A role granted or
    taken away later is followed by the next sweep (and by recompute).
    """
    return trusted_events()


def rated_fixtures() -> QuerySet[Fixture]:
    """The fixtures of `rated_events`: the only ones that get a `RatedMatch`. Not a table of a
    duplicate section still being played: nothing of it is published before the section is
    complete (league.services.duplicate_scoring), when its held results are rated."""
    return Fixture.objects.filter(duplicate_scoring.published(), round__event__in=rated_events())


# --- the lock and the order ---------------------------------------------------------------------


def lock_game(game: str) -> None:
    """Hold the game's rating lock until the end of the transaction (call inside one)."""
    RatingGame.objects.get_or_create(game=game)
    RatingGame.objects.select_for_update().get(game=game)


def from_match(match: RatedMatch, *, field: str = "") -> Q:
    """Everything at or after `match` in finish order (on RatedMatch, or via `field`__)."""
    at, pk = ("at", "match_id") if field else ("finished_at", "pk")
    return Q(**{f"{at}__gt": match.finished_at}) | Q(
        **{at: match.finished_at, f"{pk}__gte": match.pk}
    )


# --- inputs: fixtures ---------------------------------------------------------------------------


def sync_fixtures(fixture_ids: Iterable[int]) -> list[str]:
    """Make each fixture's RatedMatch reflect its counting result; returns the games touched.
    Hold the lock of the fixtures' game (`rate_pending` follows in the same transaction).

    Only `rated_fixtures` have one: the match of a fixture the rule no longer admits is taken
    out (`drop_matches`). The match keeps the finish time of the fixture's first result, so a
    correction — or a draft's result once the event is published — is rated in its place. A
    changed input gets a new revision and waits to be rated again.
    """
    ids = list(fixture_ids)
    if not ids:
        return []
    admitted = set(rated_fixtures().filter(pk__in=ids).values_list("pk", flat=True))
    existing = {m.fixture_id: m for m in RatedMatch.objects.filter(fixture_id__in=ids)}
    gone = [m for fixture_id, m in existing.items() if fixture_id not in admitted]
    drop_matches(gone)
    games = {m.game for m in gone}
    ids = [i for i in ids if i in admitted]
    first_at = dict(
        Result.objects.filter(fixture_id__in=ids)
        .values("fixture_id")
        .annotate(first=Min("entered_at"))
        .values_list("fixture_id", "first")
    )
    current = {
        r["fixture_id"]: r
        for r in Result.objects.filter(fixture_id__in=ids, current=True).values(
            "pk", "fixture_id", "scored", "forfeited_seats", "fixture__round__event__game"
        )
    }
    seats: dict[int, list[int]] = {}
    for fixture_id, player_id in (
        Seat.objects.filter(fixture_id__in=ids)
        .order_by("fixture_id", "number")
        .values_list("fixture_id", "player_id")
    ):
        seats.setdefault(fixture_id, []).append(player_id)
    table_refs = dict(Fixture.objects.filter(pk__in=ids).values_list("pk", "table_ref"))
    for fixture_id, result in current.items():
        players = seats.get(fixture_id, [])
        scored = result["scored"]
        payouts = list(scored["totals"]["payouts"])
        forfeited = sorted(result["forfeited_seats"] or [])
        fields = {
            "game": result["fixture__round__event__game"],
            "finished_at": first_at[fixture_id],
            "result_id": result["pk"],
            "table_ref": table_refs.get(fixture_id, ""),
            "players": players,
            "payouts": payouts,
            "forfeited_seats": forfeited,
            "ranks": finishing_ranks(payouts, forfeited),
            "counts": counts_for_ratings(scored, players),
        }
        match = existing.get(fixture_id)
        if match is None:
            RatedMatch.objects.create(fixture_id=fixture_id, **fields)
        elif any(getattr(match, k) != v for k, v in fields.items()):
            RatedMatch.objects.filter(pk=match.pk).update(
                **fields, revision=F("revision") + 1, rated_at=None
            )
        else:
            continue
        games.add(fields["game"])
    return sorted(games)


def drop_matches(matches: Sequence[RatedMatch]) -> None:
    """Take matches out of the ratings: rewind each game to just before its earliest rated one
    (the matches after it become pending, for the caller's `rate_pending`), then delete them.
    Hold the games' locks."""
    for game in sorted({m.game for m in matches}):
        rated = [m for m in matches if m.game == game and m.rated_at is not None]
        if rated:
            rewind(game, min(rated, key=lambda m: (m.finished_at, m.pk)))
    RatedMatch.objects.filter(pk__in=[m.pk for m in matches]).delete()


@transaction.atomic
def rate_result(result_id: int) -> int:
    """Rate the fixture of a result (first result or correction); idempotent. Returns the
    number of matches rated (0 when a later version or another worker got there first)."""
    row = (
        Result.objects.filter(pk=result_id)
        .values("fixture_id", "fixture__round__event__game")
        .first()
    )
    if row is None:
        return 0
    game = row["fixture__round__event__game"]
    lock_game(game)
    sync_fixtures([row["fixture_id"]])
    return rate_pending(game)


@transaction.atomic
def rate_event(event_id: int) -> int:
    """Sync every fixture of the event with the rule and rate what is pending (the task behind
    publishing an event); idempotent. Returns the number of matches rated."""
    game = Event.objects.filter(pk=event_id).values_list("game", flat=True).first()
    if game is None:
        return 0
    lock_game(game)
    sync_fixtures(Fixture.objects.filter(round__event_id=event_id).values_list("pk", flat=True))
    return rate_pending(game)


# --- inputs: friendly tables --------------------------------------------------------------------


def seat_players(seats: Sequence[dict[str, Any]]) -> list[Player]:
    """League players for a table's seats, in seat order: accounts (bot accounts too) and
    built-in bots, each keyed by its seat's level (`bot_level`, default `basic`)."""
    ordered = sorted(seats, key=lambda s: s["seat"])
    users = get_user_model().objects.in_bulk([s["user_id"] for s in ordered if s.get("user_id")])
    players: list[Player] = []
    for seat in ordered:
        if seat.get("user_id"):
            players.append(player_for_user(users[seat["user_id"]]))
        else:
            level = seat.get("bot_level") or DEFAULT_BOT_LEVEL
            taken = {p.pk for p in players}  # a match rates each seat's player once
            bot = next(
                b
                for b in (builtin_bot(n, level) for n in seat_bot_names(seat.get("bot") or ""))
                if b is not None and b.pk not in taken
            )
            players.append(bot)
    return players


def guests_among(user_ids: Iterable[int | None]) -> bool:
    """Whether any of these accounts is a guest (accounts/guests.py); one query, none for none."""
    ids = [pk for pk in user_ids if pk]
    return bool(ids) and get_user_model().objects.filter(pk__in=ids, is_guest=True).exists()


def record_friendly_match(
    *,
    table_ref: str,
    result: dict[str, Any],
    seats: Sequence[dict[str, Any]],
    rated: bool,
    finished_at: datetime,
    forfeited_seats: Sequence[int] | None = None,
) -> RatedMatch | None:
    """Note a finished friendly table for rating and rate it after commit.

    For tables that are no fixture's (`league.finished_tables` decides: fixtures are rated
    through their `Result`). Ignored: unrated tables, and tables at which a guest sat.
    Receiving the same table twice changes nothing. A table with an account the ratings do not
    trust yet is noted as not counting (`eligibility`), for good.
    """
    if not rated or not table_ref:
        return None
    if RatedMatch.objects.filter(table_ref=table_ref, fixture__isnull=True).exists():
        return None
    if guests_among(s.get("user_id") for s in seats):
        return None  # a table at which a guest sat is never rated (docs/accounts.md, "Guests")
    game = result["game"]
    if forfeited_seats is None:
        forfeited_seats = result.get("forfeited") or []
    forfeited = sorted(forfeited_seats)
    payouts = list(result["totals"]["payouts"])
    with transaction.atomic():
        players = [p.pk for p in seat_players(seats)]
        accounts = [s["user_id"] for s in seats if s.get("user_id")]
        counts = counts_for_ratings(result, players) and not unvouched_accounts(
            accounts, finished_at
        )
        try:
            with transaction.atomic():
                match = RatedMatch.objects.create(
                    game=game,
                    finished_at=finished_at,
                    table_ref=table_ref,
                    players=players,
                    payouts=payouts,
                    forfeited_seats=forfeited,
                    ranks=finishing_ranks(payouts, forfeited),
                    counts=counts,
                )
        except IntegrityError:  # the same table announced twice, concurrently
            return None
        queue.rate_matches(game)
    return match


# --- rating ---------------------------------------------------------------------------------------


def rewind(game: str, first: RatedMatch) -> None:
    """Undo the ratings of `first` and every later match of the game (they become pending),
    putting each player back to their rating just before. Hold the game's lock."""
    later = RatedMatch.objects.filter(game=game).filter(from_match(first))
    changes = RatingHistory.objects.filter(game=game).filter(from_match(first, field="match"))
    affected = set(changes.values_list("player_id", flat=True))
    changes.delete()
    later.update(rated_at=None)
    if not affected:
        return
    last_change = RatingHistory.objects.filter(game=game, player_id=OuterRef("player_id"))
    ratings = list(
        Rating.objects.filter(game=game, player_id__in=affected).annotate(
            last_id=Subquery(last_change.order_by("-at", "-match_id").values("pk")[:1])
        )
    )
    lasts = RatingHistory.objects.in_bulk([r.last_id for r in ratings if r.last_id])
    gone, kept = [], []
    for rating in ratings:
        last = lasts.get(rating.last_id)
        if last is None:
            gone.append(rating.pk)
            continue
        rating.mu, rating.sigma, rating.ordinal = last.mu, last.sigma, last.ordinal
        rating.games, rating.last_played_at = last.games, last.at
        kept.append(rating)
    Rating.objects.filter(pk__in=gone).delete()
    met = opponents_met(game, [r.player_id for r in kept])
    for rating in kept:
        rating.opponents = met.get(rating.player_id, 0)
    Rating.objects.bulk_update(
        kept, ["mu", "sigma", "ordinal", "games", "opponents", "last_played_at"]
    )


def opponents_met(game: str, player_ids: Sequence[int]) -> dict[int, int]:
    """How many distinct players each of these has met in the game's rated history (one
    aggregate query): the other half of the provisional rule (`established`)."""
    if not player_ids:
        return {}
    # Distinct players of each player's matches: themselves once, plus everyone they met.
    rows = (
        RatingHistory.objects.filter(game=game, player_id__in=player_ids)
        .values("player_id")
        .annotate(n=Count("match__changes__player", distinct=True))
        .values_list("player_id", "n")
    )
    return {player_id: n - 1 for player_id, n in rows}


def weights_from(game: str, first: RatedMatch) -> dict[int, float]:
    """The repeat weight (`compute.repeat_weights`) of every counting friendly match of the game
    from `first` on, counted against the earlier ones within the window: two queries.

    Friendly tables only: an event's organizer seats its players, and a club's weekly league
    is the same people by design. The accounts at a table are its players who are not
    built-in bots (a player never becomes or stops being one), so a recompute, which rates the
    same matches in the same order, finds the same weights.
    """
    window = repeat_window()
    rows = list(
        RatedMatch.objects.filter(
            game=game,
            fixture__isnull=True,
            counts=True,
            finished_at__gte=first.finished_at - window,
        )
        .order_by("finished_at", "id")
        .values_list("pk", "finished_at", "players")
    )
    if not rows:
        return {}
    bots = set(Player.objects.exclude(bot_level="").values_list("pk", flat=True))
    meetings = [(at, frozenset(p for p in players if p not in bots)) for _, at, players in rows]
    return {pk: w for (pk, _, _), w in zip(rows, repeat_weights(meetings, window))}


def rate_pending(game: str) -> int:
    """Rate the game's pending matches in finish order; returns how many were rated.

    Hold the game's lock (`lock_game`) in the same transaction. Each match is claimed with a
    conditional UPDATE on (not yet rated, same revision), so a match whose input changed since
    it was read, or that someone else rated, is skipped rather than rated twice or stale. The
    claim records the match's repeat weight (`weights_from`), for the history's readers.
    """
    pending = list(
        RatedMatch.objects.filter(game=game, rated_at__isnull=True).order_by("finished_at", "id")
    )
    if not pending:
        return 0
    if fair_play.hold_flagged(game, pending):
        # Held matches that were rated already wait too: the game rewinds to the first of them.
        pending = list(
            RatedMatch.objects.filter(game=game, rated_at__isnull=True).order_by(
                "finished_at", "id"
            )
        )
    later = RatingHistory.objects.filter(game=game).filter(from_match(pending[0], field="match"))
    if later.exists():
        rewind(game, pending[0])
        pending = list(
            RatedMatch.objects.filter(game=game, rated_at__isnull=True).order_by(
                "finished_at", "id"
            )
        )
    weights = weights_from(game, pending[0])
    ids = {p for match in pending if match.counts for p in match.players}
    ratings = {r.player_id: r for r in Rating.objects.filter(game=game, player_id__in=ids)}
    states = {pid: RatingState(mu=r.mu, sigma=r.sigma, games=r.games) for pid, r in ratings.items()}
    last_at: dict[int, datetime] = {}
    history: list[RatingHistory] = []
    now = timezone.now()
    rated = 0
    for match in pending:
        weight = weights.get(match.pk, 1.0)
        claimed = RatedMatch.objects.filter(
            pk=match.pk, rated_at__isnull=True, revision=match.revision
        ).update(rated_at=now, weight=weight)
        if not claimed:
            continue
        rated += 1
        if not match.counts or match.review in fair_play.NOT_RATED:
            continue
        before = [states.get(p) or initial_state() for p in match.players]
        after = rate_match(before, match.ranks, weight)
        for seat, player_id in enumerate(match.players):
            states[player_id] = after[seat]
            last_at[player_id] = match.finished_at
            history.append(
                RatingHistory(
                    match=match,
                    player_id=player_id,
                    game=game,
                    at=match.finished_at,
                    seat=seat,
                    rank=match.ranks[seat],
                    payout=match.payouts[seat],
                    mu=after[seat].mu,
                    sigma=after[seat].sigma,
                    ordinal=after[seat].ordinal,
                    ordinal_before=before[seat].ordinal,
                    games=after[seat].games,
                )
            )
    RatingHistory.objects.bulk_create(history, batch_size=1000)
    met = opponents_met(game, list(last_at))
    new, changed = [], []
    for player_id, at in last_at.items():
        state = states[player_id]
        rating = ratings.get(player_id) or Rating(player_id=player_id, game=game)
        rating.mu, rating.sigma, rating.ordinal = state.mu, state.sigma, state.ordinal
        rating.games, rating.last_played_at = state.games, at
        rating.opponents = met.get(player_id, 0)
        (changed if rating.pk else new).append(rating)
    Rating.objects.bulk_create(new, batch_size=1000)
    Rating.objects.bulk_update(
        changed,
        ["mu", "sigma", "ordinal", "games", "opponents", "last_played_at"],
        batch_size=1000,
    )
    return rated


def sweep_ratings(grace_seconds: float = 60.0) -> int:
    """Rate what a lost task left behind (a broker that was down, a worker that died): counting
    results of `rated_fixtures` whose RatedMatch does not reflect them, and matches still
    pending, older than `grace_seconds` (younger ones may have their task on the way); and take
    out the matches of fixtures the rule no longer admits (an organizer's role taken away).
    Idempotent; returns the number of matches rated. Run by Celery beat every minute, after
    the finished tables whose task was lost are counted (`league.finished_tables.catch_up`)."""
    cutoff = timezone.now() - timedelta(seconds=grace_seconds)
    current = dict(
        Result.objects.filter(
            current=True, entered_at__lte=cutoff, fixture__in=rated_fixtures()
        ).values_list("fixture_id", "pk")
    )
    synced = dict(
        RatedMatch.objects.filter(fixture_id__in=current).values_list("fixture_id", "result_id")
    )
    stale = [f for f, r in current.items() if synced.get(f) != r]
    stale += (
        RatedMatch.objects.filter(fixture__isnull=False)
        .exclude(fixture__in=rated_fixtures())
        .values_list("fixture_id", flat=True)
    )
    behind: dict[str, list[int]] = {}
    for fixture_id, game in Fixture.objects.filter(pk__in=stale).values_list(
        "pk", "round__event__game"
    ):
        behind.setdefault(game, []).append(fixture_id)
    pending = RatedMatch.objects.filter(rated_at__isnull=True, finished_at__lte=cutoff)
    games = set(behind) | set(pending.values_list("game", flat=True).distinct())
    rated = 0
    for game in sorted(games):
        with transaction.atomic():
            lock_game(game)
            sync_fixtures(behind.get(game, []))
            rated += rate_pending(game)
    return rated


@transaction.atomic
def rate_game(game: str) -> int:
    """Rate whatever of the game is pending (the task behind friendly tables); idempotent."""
    lock_game(game)
    return rate_pending(game)


def rated_games() -> list[str]:
    """Every game with a rated match or an event result."""
    games = set(RatedMatch.objects.values_list("game", flat=True).distinct())
    games |= set(
        Event.objects.filter(round_set__fixtures__results__current=True)
        .values_list("game", flat=True)
        .distinct()
    )
    return sorted(games)


@transaction.atomic
def recompute(game: str) -> int:
    """Rebuild a game's ratings from history: forget all ratings, re-read every fixture's
    counting result through the same rule (`rated_fixtures`) and rate every match again in
    finish order. Returns the matches rated."""
    lock_game(game)
    RatingHistory.objects.filter(game=game).delete()
    Rating.objects.filter(game=game).delete()
    RatedMatch.objects.filter(game=game).update(rated_at=None)
    fixtures = Fixture.objects.filter(round__event__game=game).filter(
        Q(results__current=True) | Q(rated_match__isnull=False)
    )
    sync_fixtures(fixtures.values_list("pk", flat=True).distinct())
    return rate_pending(game)


# --- ratings at entry (league.services.players stamps the entry) -------------------------------


def rating_then(game: str) -> Subquery:
    """For an Entry queryset: the player's rating in `game` when they entered (from history)."""
    return Subquery(
        RatingHistory.objects.filter(
            player_id=OuterRef("player_id"), game=game, at__lte=OuterRef("created_at")
        )
        .order_by("-at", "-match_id")
        .values("ordinal")[:1]
    )
