"""Creating a table: its seats, its secret seed, the first deal, and the first bot's move."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from gameplay import bots, clock
from gameplay.engines import registry
from gameplay.models import Seat, Table
from gameplay.services import cache, runner


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat when a table is created: a user, or a bot with a name and a level
    (`bot_level` "" = the default level, `basic`)."""

    name: str
    user_id: int | None = None
    bot: str = ""
    bot_level: str = ""


def seat_level(game: str, n: int, spec: SeatSpec) -> str:
    """The bot level stored for a seat ("" for a person's); `ValueError` for a level the game
    has no bot of, or a level on a seat that is not a bot."""
    if not spec.bot:
        if spec.bot_level:
            raise ValueError(f"seat {n} is not a bot seat and cannot have a bot level")
        return ""
    level = spec.bot_level or bots.DEFAULT_LEVEL
    known = bots.levels(game)
    if level not in known:
        raise ValueError(f"seat {n}: {game} has no {level!r} bot (bot levels: {', '.join(known)})")
    return level


def create_table(
    game: str,
    seats: list[SeatSpec],
    *,
    variant: dict[str, Any] | None = None,
    n_deals: int = 1,
    seed: int | str | None = None,
    dealer: int = 0,
    seconds_per_move: int = 0,
    on_timeout: str = Table.OnTimeout.DEFAULT_ACTION,
    allow_spectators: bool = True,
    rated: bool = False,
) -> Table:
    """Create a table and deal; bots to act first are queued after commit.

    Raises `VariantError` (bad game, variant, seat count or match length) or `ValueError`
    (also for an unknown bot level).
    """
    spec = registry.get_game(game)  # KeyError for an unknown game
    if len(seats) != spec.seats:
        raise ValueError(f"{game} needs {spec.seats} seats, not {len(seats)}")
    if on_timeout not in Table.OnTimeout.values:
        raise ValueError(f"on_timeout must be one of {Table.OnTimeout.values}")
    levels = [seat_level(game, n, s) for n, s in enumerate(seats)]
    # 128 random bits: the cards of later deals must not be found by trying seeds against the
    # deals already revealed. An operator's explicit seed is predictable to whoever knows it.
    seed = str(seed if seed is not None else secrets.token_hex(16))
    match = registry.start_match(
        game,
        dealer=dealer,
        variant=variant,
        n_deals=n_deals,
        seed=seed,
        players=[s.name for s in seats],
    )
    now = timezone.now()
    to_act = match.to_act()
    bots_first = bool({n for n, s in enumerate(seats) if s.bot} & set(to_act))
    with transaction.atomic():
        table = Table.objects.create(
            game=game,
            variant=variant,
            n_deals=n_deals,
            seed=seed,
            dealer=dealer,
            status=Table.Status.PLAYING,
            seq=0,
            state=match.dump(),
            seconds_per_move=seconds_per_move,
            on_timeout=on_timeout,
            deadline=clock.next_deadline([], to_act, None, now, seconds_per_move),
            bot_due=now + timedelta(seconds=runner.bot_delay()) if bots_first else None,
            allow_spectators=allow_spectators,
            rated=rated,
        )
        Seat.objects.bulk_create(
            Seat(
                table=table,
                number=n,
                user_id=s.user_id,
                bot=s.bot,
                bot_level=level,
                name=s.name,
            )
            for n, (s, level) in enumerate(zip(seats, levels, strict=True))
        )
        table_id = table.id
        snap = cache.Snapshot.of(table)
        transaction.on_commit(lambda: cache.put(table_id, 0, match, snap))
        if bots_first:
            transaction.on_commit(lambda: runner.schedule_bot(table_id, 0))
    return table
