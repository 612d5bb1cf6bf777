"""Creating a table: its seats, its secret seed, the first deal, and the first bot's move.

A table whose seats are all taken deals at once. A lobby table may have open seats (a `SeatSpec`
with neither a user nor a bot): it is created `waiting`, with no seed and no deal, so nothing
about its cards exists yet, and `deal_waiting` deals it when its last seat is taken.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from gameplay import clock
from gameplay.models import Seat, Table, default_connect_grace
from gameplay.runtime import cache, runner
from gameplay.services import lobby_live, table_context, turns
from gameplay.services.after_commit import after_commit
from games import Match, VariantError, bots, registry


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat when a table is created: a user, or a bot with a name and a level
    (`bot_level` "" = the default level, `basic`); neither = an open seat (a waiting lobby
    table), which `reserved_for` may keep for one account."""

    name: str
    user_id: int | None = None
    bot: str = ""
    bot_level: str = ""
    reserved_for: int | None = None

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.bot


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


def check_rules(
    game: str,
    *,
    variant: dict[str, Any] | None,
    n_deals: int,
    dealer: int,
    seats: int | None = None,
) -> dict[str, Any]:
    """What dealing would check, without dealing, at a table of `seats` (None: the game's
    own number): the full variant, or `VariantError`."""
    spec = registry.get_game(game)
    try:
        engine = spec.engine_for(seats)
    except KeyError as exc:
        raise VariantError(str(exc.args[0])) from None
    resolved = engine.resolve_variant(variant)
    n = engine.SEATS
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise VariantError(f"dealer must be a seat from 0 to {n - 1}")
    if isinstance(n_deals, bool) or not isinstance(n_deals, int) or n_deals < 1:
        raise VariantError("the number of deals must be a positive integer")
    return resolved


def _first_deal(
    table: Table,
    names: list[str],
    bot_numbers: set[int],
    seed: str,
    now: datetime,
    unseen: set[int],
) -> tuple[Match, bool]:
    """Deal `table`'s match from `seed` and set the fields of its start on the (unsaved) row;
    the match, and whether a bot acts first. `unseen`: the seats whose player has not
    connected yet, whose clock waits for them up to the table's connect grace."""
    match = registry.start_match(
        table.game,
        dealer=table.dealer,
        variant=table.variant,
        n_deals=table.n_deals,
        seed=seed,
        deals=table.deals,
        players=names,
        seats=len(names),  # a three-player game at a table of four (games/core/four.py)
    )
    to_act = match.to_act()
    bots_first = bool(bot_numbers & set(to_act))
    table.seed = seed
    table.status = Table.Status.PLAYING
    table.seq = 0
    table.state = match.dump()
    table.dealt_at = now
    grace_until = now + timedelta(seconds=table.connect_grace)
    starts_by = clock.clock_starts_by(to_act, unseen, grace_until, now)
    table.deadline = clock.next_deadline(
        [], to_act, None, now, table.seconds_per_move, starts_by=starts_by
    )
    table.bot_due = now + timedelta(seconds=runner.bot_delay()) if bots_first else None
    return match, bots_first


def create_table(
    game: str,
    seats: list[SeatSpec],
    *,
    variant: dict[str, Any] | None = None,
    n_deals: int = 1,
    seed: int | str | None = None,
    dealer: int = 0,
    seconds_per_move: int = 0,
    pace: str = "",
    on_timeout: str = Table.OnTimeout.DEFAULT_ACTION,
    allow_spectators: bool = True,
    rated: bool = False,
    origin: str = Table.Origin.OPERATOR,
    private: bool = False,
    rematch_of: str | None = None,
    connect_grace: int | None = None,
    deals: list[dict[str, Any]] | None = None,
    embargoed: bool = False,
    context: dict[str, Any] | None = None,
    chat: bool | None = None,
) -> Table:
    """Create a table and deal (or, with an open seat, leave it `waiting`, undealt); bots to
    act first are queued after commit. `connect_grace`: seconds after the deal by which every
    seat's clock runs even if its player never connected (None: `GAMEPLAY_CONNECT_GRACE`).
    `deals`: explicit deals (card codes, each may carry its `salt`), dealt before the seed's
    (`gameplay.services.duplicate_tables.normalised_deals` checks them). `embargoed`: a duplicate
    table, never open to spectators, its record withheld until released (docs/tables.md).
    `context`: where the table belongs, shown by its header (`table_context.checked`).
    `chat`: the table's chat is on (docs/chat.md); None: on at the lobby's (friendly) tables,
    off at others (an event's, the operator's); never at an embargoed table.
    `pace`: the name of the pace `seconds_per_move` was chosen by (`gameplay/paces.py`), or "".

    Raises `VariantError` (bad game, variant, seat count or match length) or `ValueError`
    (also for an unknown bot level).
    """
    spec = registry.get_game(game)  # KeyError for an unknown game
    if len(seats) not in spec.table_sizes:
        sizes = " or ".join(str(n) for n in spec.table_sizes)
        raise ValueError(f"{game} needs {sizes} seats, not {len(seats)}")
    if on_timeout not in Table.OnTimeout.values:
        raise ValueError(f"on_timeout must be one of {Table.OnTimeout.values}")
    if origin not in Table.Origin.values:
        raise ValueError(f"origin must be one of {Table.Origin.values}")
    context = table_context.checked(context)
    if connect_grace is None:
        # By the day, a clock of days runs from the deal: no wait for a first connection.
        turn_based = isinstance(seconds_per_move, int) and clock.is_turn_based(seconds_per_move)
        connect_grace = 0 if turn_based else default_connect_grace()
    if isinstance(connect_grace, bool) or not isinstance(connect_grace, int) or connect_grace < 0:
        raise ValueError("connect_grace must be a whole number of seconds, 0 or more")
    levels = [seat_level(game, n, s) for n, s in enumerate(seats)]
    waiting = any(s.is_open for s in seats)
    if waiting and seed is not None:
        raise ValueError("a table with open seats draws its own seed when it deals")
    if waiting and (deals is not None or embargoed):
        raise ValueError("a table with open seats cannot have explicit deals or an embargo")
    if waiting:
        check_rules(game, variant=variant, n_deals=n_deals, dealer=dealer, seats=len(seats))
    now = timezone.now()
    table = Table(
        game=game,
        variant=variant,
        n_deals=n_deals,
        seed="",
        dealer=dealer,
        status=Table.Status.WAITING,
        seq=0,
        seconds_per_move=seconds_per_move,
        pace=pace,
        on_timeout=on_timeout,
        # An embargoed table has no spectators: nobody but its players sees its deals.
        allow_spectators=allow_spectators and not embargoed,
        embargoed=embargoed,
        deals=deals,
        rated=rated,
        origin=origin,
        private=private,
        rematch_of_id=rematch_of,
        connect_grace=connect_grace,
        context=context,
        # A duplicate table's players never talk during play.
        chat=(origin == Table.Origin.LOBBY if chat is None else chat) and not embargoed,
    )
    match, bots_first = None, False
    if not waiting:
        # 128 random bits: the cards of later deals must not be found by trying seeds against
        # the deals already revealed. An operator's explicit seed is predictable to whoever
        # knows it.
        drawn = str(seed if seed is not None else secrets.token_hex(16))
        bot_numbers = {n for n, s in enumerate(seats) if s.bot}
        people = {n for n, s in enumerate(seats) if not s.bot}  # nobody has connected yet
        match, bots_first = _first_deal(
            table, [s.name for s in seats], bot_numbers, drawn, now, people
        )
    with transaction.atomic():
        table.save(force_insert=True)
        Seat.objects.bulk_create(
            Seat(
                table=table,
                number=n,
                user_id=s.user_id,
                bot=s.bot,
                bot_level=level,
                name=s.name,
                reserved_for_id=s.reserved_for,
            )
            for n, (s, level) in enumerate(zip(seats, levels, strict=True))
        )
        if match is not None:
            table_id, dealt = table.id, match
            snap = cache.Snapshot.of(table)

            def dealt_now() -> None:
                # By the day: the first turn is told (and moved past a vacation) first.
                cache.put(table_id, 0, dealt, turns.mark_turns(snap, dealt))

            transaction.on_commit(dealt_now)
            if bots_first:
                transaction.on_commit(lambda: runner.schedule_bot(table_id, 0))
    return table


def deal_waiting(table: Table) -> Match:
    """Deal a waiting table whose seats are now all taken, from a fresh secret seed: it is
    `playing` at seq 0. Call it inside the transaction that locked the table's row
    (`select_for_update`) and filled its last seat; after commit every seat and spectator gets
    its first state (as a `final` state at seq 0: they were sent the waiting one) and a bot to
    act first is queued."""
    assert table.status == Table.Status.WAITING, table.status
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    assert all(not s.is_open for s in seats), "deal_waiting needs every seat taken"
    now = timezone.now()
    match, bots_first = _first_deal(
        table,
        [s.name for s in seats],
        {s.number for s in seats if s.bot},
        secrets.token_hex(16),
        now,
        {s.number for s in seats if not s.bot and s.connected_at is None},
    )
    table.updated_at = now
    table.save(
        update_fields=[
            "seed",
            "status",
            "seq",
            "state",
            "deadline",
            "dealt_at",
            "bot_due",
            "seats_rev",
            "updated_at",
        ]
    )
    snap = cache.Snapshot.of(table)
    table_id = table.id

    def started() -> None:
        cache.put(table_id, 0, match.clone(), snap)
        after_commit(snap, match, bots_first, final=True)

    transaction.on_commit(started)
    # After the table is in the cache: every person seated goes to it (their waiting pages).
    lobby_live.table_started(table_id, [s.user_id for s in seats])
    return match
