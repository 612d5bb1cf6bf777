"""Which accounts a rated friendly table trusts (docs/ratings.md, "Which matches count").

A second account costs nothing, so one person holding two seats of a rated table (one account
resigning to the other, again and again) could farm a rating. A friendly table counts only when
every account at it — a person's or a bot account, which anyone may sign up for — is vouched for:
a verified e-mail address (allauth's `EmailAddress`), or an account older than
`RATING_ACCOUNT_MIN_DAYS` that has held its seat to the end at `RATING_ACCOUNT_MIN_GAMES` finished
tables. Built-in bots hold no account and need nothing. Event matches never ask: the organizer
who runs a rated event (`rated_events`) vouches for the people it seats.

Decided once, when the table is noted (`record_friendly_match` stores it in `RatedMatch.counts`),
from the accounts as they are then; a recompute re-rates the stored decision, so the ratings keep
equalling it. An address verified later counts from the next table on, never backwards: otherwise
a verification would rewrite every rating since, and a farmer could bank tables and verify once.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model

from gameplay import api as gameplay


def account_min_days() -> int:
    """How old an account without a verified address must be (`RATING_ACCOUNT_MIN_DAYS`)."""
    return int(getattr(settings, "RATING_ACCOUNT_MIN_DAYS", 7))


def account_min_games() -> int:
    """How many tables it must have played to their end as well (`RATING_ACCOUNT_MIN_GAMES`)."""
    return int(getattr(settings, "RATING_ACCOUNT_MIN_GAMES", 10))


def unvouched_accounts(user_ids: Collection[int], at: datetime) -> set[int]:
    """The accounts among `user_ids` that cannot yet make a table finished `at` count: neither a
    verified address nor old and seasoned enough. At most three queries."""
    rest = set(user_ids) - set(
        EmailAddress.objects.filter(user_id__in=user_ids, verified=True).values_list(
            "user_id", flat=True
        )
    )
    if not rest:
        return set()
    joined_by = at - timedelta(days=account_min_days())
    old = set(
        get_user_model()
        .objects.filter(pk__in=rest, date_joined__lte=joined_by)
        .values_list("pk", flat=True)
    )
    played = gameplay.tables_played_to_the_end(old, before=at) if old else {}
    return {u for u in rest if u not in old or played.get(u, 0) < account_min_games()}
