"""Rated results held for review, and a moderator's decision on them (docs/fair-play.md).

`hold_flagged` runs inside the rating of a game (`league.ratings.services.rate_pending`, under
the game's lock): it reads the game's recent rated friendly matches, finds the farming patterns
(`farming.find_flags`), files each as a `FairPlayFlag` and holds its matches that nobody decided
yet, so they change nobody's rating. A held match that was already rated is rewound by the
rating that follows, like a corrected result. `decide` is the moderator's answer: clear (the
matches count again) or void (they never count), with its reason, and the game re-rated from the
first of them; the ratings then equal a recomputation without the voided matches.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from league import queue
from league.errors import LeagueError
from league.fairplay.farming import Account, Match, Thresholds, find_flags
from league.models import ClientNetwork, FairPlayFlag, Player, RatedMatch

# A match with one of these does not change the ratings (read by rate_pending).
NOT_RATED = (RatedMatch.Review.HELD, RatedMatch.Review.VOIDED)


def thresholds() -> Thresholds:
    """The flags' thresholds, from settings `FAIR_PLAY_*` where set."""
    base = Thresholds()
    return Thresholds(
        window=timedelta(days=getattr(settings, "FAIR_PLAY_WINDOW_DAYS", base.window.days)),
        repeated_tables=getattr(settings, "FAIR_PLAY_REPEATED_TABLES", base.repeated_tables),
        repeated_share=getattr(settings, "FAIR_PLAY_REPEATED_SHARE", base.repeated_share),
        feeding_tables=getattr(settings, "FAIR_PLAY_FEEDING_TABLES", base.feeding_tables),
        together=timedelta(
            minutes=getattr(
                settings, "FAIR_PLAY_TOGETHER_MINUTES", base.together.total_seconds() // 60
            )
        ),
    )


def _inputs(
    game: str, since: datetime
) -> tuple[list[Match], dict[int, Account], dict[int, RatedMatch]]:
    """The game's counting friendly matches finished since `since` that nobody decided on
    (cleared or voided matches are out of the flags' reach), and what is known of their
    accounts. Three queries."""
    rows = list(
        RatedMatch.objects.filter(
            game=game, fixture__isnull=True, counts=True, finished_at__gte=since
        ).filter(review__in=["", RatedMatch.Review.HELD])
    )
    ids = {p for m in rows for p in m.players}
    people = dict(Player.objects.filter(pk__in=ids, bot_level="").values_list("pk", "created_at"))
    networks: dict[int, set[str]] = {}
    for player_id, digest in ClientNetwork.objects.filter(player_id__in=people).values_list(
        "player_id", "digest"
    ):
        networks.setdefault(player_id, set()).add(digest)
    matches = [
        Match(
            id=m.pk,
            at=m.finished_at,
            players=tuple(p if p in people else None for p in m.players),
            forfeited=frozenset(m.forfeited_seats),
            winners=frozenset(s for s, rank in enumerate(m.ranks) if rank == 1),
        )
        for m in rows
    ]
    accounts = {
        p: Account(created_at=at, networks=frozenset(networks.get(p, ())))
        for p, at in people.items()
    }
    return matches, accounts, {m.pk: m for m in rows}


def hold_flagged(game: str, pending: Iterable[RatedMatch]) -> int:
    """File the flags the game's recent matches show (around the `pending` ones) and hold their
    undecided matches; returns how many matches were newly held. Hold the game's lock."""
    pending = list(pending)
    if not any(m.counts and m.fixture_id is None for m in pending):
        return 0
    limits = thresholds()
    since = min(m.finished_at for m in pending) - 2 * limits.window
    matches, accounts, rows = _inputs(game, since)
    held = 0
    for flag in find_flags(matches, accounts, limits):
        low, high = flag.pair
        row, _created = FairPlayFlag.objects.get_or_create(
            game=game,
            kind=flag.kind,
            player_a_id=low,
            player_b_id=high,
            decision=FairPlayFlag.Decision.OPEN,
            defaults={"evidence": flag.evidence},
        )
        if row.evidence != flag.evidence:
            FairPlayFlag.objects.filter(pk=row.pk).update(evidence=flag.evidence)
        row.matches.add(*flag.matches)
        fresh = [i for i in flag.matches if rows[i].review == ""]
        for i in fresh:
            rows[i].review = RatedMatch.Review.HELD
        held += RatedMatch.objects.filter(pk__in=fresh, review="").update(
            review=RatedMatch.Review.HELD, rated_at=None, revision=F("revision") + 1
        )
    return held


def decide(flag_id: int, *, by, decision: str, reason: str) -> FairPlayFlag:
    """A moderator clears a flag (its matches count) or voids it (they never count), with a
    reason; the game is re-rated from the first match whose standing changed. Staff only."""
    if not (getattr(by, "is_authenticated", False) and by.is_staff):
        raise LeagueError(_("Only moderators decide on fair-play flags."))
    if decision not in (FairPlayFlag.Decision.CLEARED, FairPlayFlag.Decision.VOIDED):
        raise LeagueError(_("Choose to clear or to void."))
    reason = (reason or "").strip()
    if not reason:
        raise LeagueError(_("Say why: the reason is kept with the decision."))
    with transaction.atomic():
        flag = FairPlayFlag.objects.select_for_update().filter(pk=flag_id).first()
        if flag is None:
            raise LeagueError(_("There is no such flag."))
        if flag.decision != FairPlayFlag.Decision.OPEN:
            raise LeagueError(_("This flag was decided already."))
        flag.decision, flag.reason = decision, reason[:500]
        flag.decided_by, flag.decided_at = by, timezone.now()
        flag.save(update_fields=["decision", "reason", "decided_by", "decided_at"])
        matches = flag.matches.all()
        if decision == FairPlayFlag.Decision.VOIDED:
            changed = matches.exclude(review=RatedMatch.Review.VOIDED)
            target = RatedMatch.Review.VOIDED
        else:
            # A match another open flag also names stays held until that one is decided too.
            others = FairPlayFlag.objects.filter(decision=FairPlayFlag.Decision.OPEN).exclude(
                pk=flag.pk
            )
            changed = matches.filter(review=RatedMatch.Review.HELD).exclude(flags__in=others)
            target = RatedMatch.Review.CLEARED
        changed.update(review=target, rated_at=None, revision=F("revision") + 1)
        queue.rate_matches(flag.game)
    return flag
