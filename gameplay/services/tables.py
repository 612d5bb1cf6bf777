"""Tables: create them, apply actions, time out clocks, build what each seat may see.

`play_action` is the one way an action reaches a table, for people, bots and clocks alike:
authorize, check the idempotency id, validate with the engine, claim the next seq with a
conditional UPDATE, append to the log, commit, and only then notify (transaction.on_commit).

Why a conditional UPDATE (`UPDATE table SET seq = N+1 ... WHERE id = T AND seq = N`) and not a
lock: it is race-safe on PostgreSQL (the second writer blocks on the row, then re-checks the
WHERE clause against the committed row and updates nothing) and on SQLite (writers are
serialized), while `select_for_update` is a no-op on SQLite.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import threading
from collections import OrderedDict
from contextlib import nullcontext
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connections, models, transaction
from django.utils import timezone

from gameplay import clock
from gameplay.engines import IllegalAction, Match, registry
from gameplay.models import Action, Seat, Table
from gameplay.services.errors import TableError

logger = logging.getLogger(__name__)

PLAYING = Table.Status.PLAYING
FINISHED = Table.Status.FINISHED


def bot_delay() -> float:
    """Seconds a bot waits before moving (so people can follow the play)."""
    return float(getattr(settings, "GAMEPLAY_BOT_DELAY", 0.8))


# ------------------------------------------------------------------ seats (immutable per table)
@dataclass(frozen=True)
class SeatInfo:
    number: int
    name: str
    user_id: int | None
    bot: str


_seats_cache: dict[str, tuple[SeatInfo, ...]] = {}


def seats_of(table_id: str) -> tuple[SeatInfo, ...]:
    """A table's seats; cached per process because they never change after creation."""
    seats = _seats_cache.get(table_id)
    if seats is None:
        seats = tuple(
            SeatInfo(n, name, user_id, bot)
            for n, name, user_id, bot in Seat.objects.filter(table_id=table_id)
            .order_by("number")
            .values_list("number", "name", "user_id", "bot")
        )
        if len(_seats_cache) > 10_000:
            _seats_cache.clear()
        _seats_cache[table_id] = seats
    return seats


def bot_seats(table_id: str) -> set[int]:
    return {s.number for s in seats_of(table_id) if s.bot}


# ------------------------------------------------------------------ engine state cache
# A process-local cache of live matches: (table id) -> (seq, match, table snapshot). An entry is
# *taken* by the writer (exclusive: the engine mutates in place) and put back after commit, so a
# rolled-back transaction can never leave a changed match behind. Readers get a clone. The
# snapshot (the table row's fields at that seq, when known) lets `play_action` skip reading the
# row: its conditional UPDATE checks the seq anyway.
_CACHE_SIZE = 4096
_cache: OrderedDict[str, tuple[int, Match, _Snapshot | None]] = OrderedDict()
_cache_lock = threading.Lock()


def _take_cached(table_id: str, seq: int) -> Match | None:
    with _cache_lock:
        item = _cache.pop(table_id, None)
    return item[1] if item is not None and item[0] == seq else None


def _take_live(table_id: str, seq: int) -> tuple[int, Match, _Snapshot] | None:
    """Take the cached match at `seq` or before it, with its seq and table snapshot (None: not
    cached as such)."""
    with _cache_lock:
        item = _cache.get(table_id)
        if item is None or item[0] > seq or item[2] is None:
            return None
        del _cache[table_id]
    return item[0], item[1], item[2]


def _peek_cached(table_id: str, seq: int) -> Match | None:
    with _cache_lock:
        item = _cache.get(table_id)
        if item is None or item[0] != seq:
            return None
        return item[1].clone()


def _put_cached(table_id: str, seq: int, match: Match, snap: _Snapshot | None = None) -> None:
    with _cache_lock:
        current = _cache.get(table_id)
        if current is not None and current[0] > seq:
            return
        _cache[table_id] = (seq, match, snap)
        _cache.move_to_end(table_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def forget_cached(table_id: str | None = None) -> None:
    """Drop cached matches (tests simulate a server restart with this)."""
    with _cache_lock:
        if table_id is None:
            _cache.clear()
            _seats_cache.clear()
        else:
            _cache.pop(table_id, None)


def new_match(table: Table) -> Match:
    """The match of a table before any action: dealt from its seed."""
    return registry.start_match(
        table.game,
        dealer=table.dealer,
        variant=table.variant,
        n_deals=table.n_deals,
        seed=table.seed,
        players=[s.name for s in seats_of(table.id)],
    )


def rebuild_match(table: Table, upto: int | None = None) -> Match:
    """The match after the first `upto` actions (all when None), replayed from the log alone."""
    match = new_match(table)
    actions = Action.objects.filter(table_id=table.id).order_by("seq")
    if upto is not None:
        actions = actions.filter(seq__lte=upto)
    for seat, action in actions.values_list("seat", "action"):
        match.apply(seat, action)
    return match


def load_match(table: Table, *, take: bool = False) -> Match:
    """The match at `table.seq`: from the process cache, the state column, or the log."""
    match = _take_cached(table.id, table.seq) if take else _peek_cached(table.id, table.seq)
    if match is not None:
        return match
    row = Table.objects.filter(pk=table.id).values_list("seq", "state").first()
    if row is not None and row[0] == table.seq and row[1] is not None:
        match = registry.load_match(row[1])
        if not take:
            # The row and the state agree on seq, so the writers can start from here. Only a
            # claim moves a row on from seq N (and a forfeit, which the claim checks), and
            # `_put_cached` never replaces a later seq.
            _put_cached(table.id, table.seq, match.clone(), _Snapshot.of(table))
        return match
    # The cached state belongs to a later seq (or is missing): the log up to seq is immutable.
    return rebuild_match(table, table.seq)


def _get_table(table_id: str) -> Table:
    try:
        return Table.objects.defer("state", "record").get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("forbidden", "no such table") from None


# ------------------------------------------------------------------ creating tables
@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat when a table is created: a user, or a bot with a name."""

    name: str
    user_id: int | None = None
    bot: str = ""


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

    Raises `VariantError` (bad game, variant, seat count or match length) or `ValueError`.
    """
    spec = registry.get_game(game)  # KeyError for an unknown game
    if len(seats) != spec.seats:
        raise ValueError(f"{game} needs {spec.seats} seats, not {len(seats)}")
    if on_timeout not in Table.OnTimeout.values:
        raise ValueError(f"on_timeout must be one of {Table.OnTimeout.values}")
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
    bots = {n for n, s in enumerate(seats) if s.bot}
    with transaction.atomic():
        table = Table.objects.create(
            game=game,
            variant=variant,
            n_deals=n_deals,
            seed=seed,
            dealer=dealer,
            status=PLAYING,
            seq=0,
            state=match.dump(),
            seconds_per_move=seconds_per_move,
            on_timeout=on_timeout,
            deadline=clock.next_deadline([], to_act, None, now, seconds_per_move),
            bot_due=now + timedelta(seconds=bot_delay()) if bots & set(to_act) else None,
            allow_spectators=allow_spectators,
            rated=rated,
        )
        Seat.objects.bulk_create(
            Seat(table=table, number=n, user_id=s.user_id, bot=s.bot, name=s.name)
            for n, s in enumerate(seats)
        )
        table_id = table.id
        snap = _Snapshot.of(table)
        transaction.on_commit(lambda: _put_cached(table_id, 0, match, snap))
        if bots & set(to_act):
            transaction.on_commit(lambda: _schedule_bot(table_id, 0))
    return table


# ------------------------------------------------------------------ playing
@dataclass(frozen=True)
class Played:
    """What `play_action` did: `applied` (a new seq), or `duplicate` (the id was known)."""

    seq: int
    applied: bool
    duplicate: bool = False


def play_action(
    table_id: str,
    seat: int | None,
    action: Any,
    seq: Any,
    *,
    client_id: str | None = None,
    kind: str = Action.Kind.PLAYER,
    due_by: datetime | None = None,
) -> Played:
    """Apply `seat`'s action at `seq`, or raise `TableError` and change nothing.

    The checks answer in the protocol's order: forbidden, id already applied (acknowledged,
    `duplicate`), stale, not_your_turn, illegal. `due_by` (clock timeouts): act only if the
    table's deadline has passed by then, else return without applying.
    """
    if seat is None:
        raise TableError("forbidden", "spectators cannot act")
    if due_by is None:
        played = _play_cached(table_id, seat, action, seq, client_id, kind)
        if played is not None:
            return played
    try:
        with transaction.atomic():
            return _play(table_id, seat, action, seq, client_id, kind, due_by)
    except IntegrityError:
        # Two requests with the same id raced past the id check: the loser's insert failed on
        # the unique (table, seat, client_id) constraint and its transaction was rolled back.
        if client_id is not None:
            applied = Action.objects.filter(table_id=table_id, seat=seat, client_id=client_id)
            if applied.exists():
                return Played(_get_table(table_id).seq, applied=False, duplicate=True)
        raise


def _play(
    table_id: str,
    seat: int,
    action: Any,
    seq: Any,
    client_id: str | None,
    kind: str,
    due_by: datetime | None,
) -> Played:
    table = _get_table(table_id)
    if (
        client_id is not None
        and Action.objects.filter(table_id=table_id, seat=seat, client_id=client_id).exists()
    ):
        return Played(table.seq, applied=False, duplicate=True)
    if seq != table.seq:
        raise TableError("stale", f"the table is at seq {table.seq}, not {seq}")
    if due_by is not None and (table.deadline is None or table.deadline > due_by):
        return Played(table.seq, applied=False)
    if table.status != PLAYING:
        raise TableError("not_your_turn", "the match is over")
    match = load_match(table, take=True)
    old_to_act = match.to_act()
    if seat not in old_to_act:
        _put_cached(table_id, table.seq, match, _Snapshot.of(table))
        waiting = " or ".join(str(s) for s in old_to_act)
        raise TableError("not_your_turn", f"not your turn (waiting for seat {waiting})")
    deal_no = match.deal_no
    try:
        match.apply(seat, action)
    except IllegalAction as exc:
        # unchanged: the engine checks before it acts
        _put_cached(table_id, table.seq, match, _Snapshot.of(table))
        raise TableError("illegal", str(exc)) from None
    logged = {k: v for k, v in match.log[deal_no][2][-1].items() if k != "seat"}

    now = timezone.now()
    new_seq = table.seq + 1
    to_act = match.to_act()
    fields: dict[str, Any] = {
        "seq": new_seq,
        "state": match.dump(),
        "updated_at": now,
        "deadline": clock.next_deadline(
            old_to_act, to_act, table.deadline, now, table.seconds_per_move, actor=seat
        ),
        "bot_due": None,
    }
    bots_due = bool(bot_seats(table_id) & set(to_act))
    if bots_due:
        fields["bot_due"] = now + timedelta(seconds=bot_delay())
    if match.finished:
        fields.update(
            status=FINISHED,
            result=match.result(),
            record=match.export(),
            finished_at=now,
            deadline=None,
        )
    # The claim: exactly one writer moves the table from seq N to N+1.
    claimed = Table.objects.filter(pk=table_id, seq=table.seq, status=PLAYING).update(**fields)
    if not claimed:
        raise TableError("stale", "another action was applied first")
    Action.objects.create(
        table_id=table_id, seq=new_seq, seat=seat, action=logged, client_id=client_id, kind=kind
    )
    for name, value in fields.items():
        setattr(table, name, value)
    snapshot = _Snapshot.of(table)
    transaction.on_commit(lambda: _after_commit(snapshot, match, bots_due))
    return Played(new_seq, applied=True)


def _play_cached(
    table_id: str, seat: int, action: Any, seq: Any, client_id: str | None, kind: str
) -> Played | None:
    """The common case in one statement: the match at `seq` is in this process's cache (with
    the table fields it was committed with), it is `seat`'s turn and the action is legal.

    Nothing is read: the claim (`UPDATE ... WHERE seq = N AND status = 'playing'`) is what
    decides, as in `_play`, and the id check is left to the unique (table, seat, id)
    constraint, which rolls the claim back. `None` hands the request to `_play` (not cached,
    not this seat's turn, illegal, or the claim lost): it reads the row and answers in the
    protocol's check order.
    """
    if isinstance(seq, bool) or not isinstance(seq, int):
        return None
    live = _take_live(table_id, seq)
    if live is None:
        return None
    cached_seq, match, snap = live
    if cached_seq < seq:
        # Another process moved the table since (a table's seats may sit on different server
        # processes): catch the cached match up from the log rather than load the whole state.
        caught_up = _catch_up(table_id, seq, cached_seq, match, snap)
        if caught_up is None:
            return None
        snap = caught_up
    old_to_act = match.to_act()
    if snap.status != PLAYING or seat not in old_to_act:
        _put_cached(table_id, seq, match, snap)
        return None
    deal_no = match.deal_no
    try:
        match.apply(seat, action)
    except IllegalAction:
        _put_cached(table_id, seq, match, snap)  # unchanged: the engine checks before it acts
        return None
    logged = {k: v for k, v in match.log[deal_no][2][-1].items() if k != "seat"}
    now = timezone.now()
    new_seq = seq + 1
    to_act = match.to_act()
    deadline = clock.next_deadline(
        old_to_act, to_act, snap.deadline, now, snap.seconds_per_move, actor=seat
    )
    bots_due = bool(bot_seats(table_id) & set(to_act))
    fields: dict[str, Any] = {
        "seq": new_seq,
        "state": _state_text(match),
        "updated_at": now,
        "deadline": deadline,
        "bot_due": now + timedelta(seconds=bot_delay()) if bots_due else None,
    }
    result = finished_at = None
    status = PLAYING
    if match.finished:
        status, result, finished_at, deadline = FINISHED, match.result(), now, None
        fields.update(
            status=status, result=result, record=match.export(), finished_at=now, deadline=None
        )
    action_row = {
        "seq": new_seq,
        "seat": seat,
        "action": logged,
        "client_id": client_id,
        "kind": kind,
        "created_at": now,
    }
    try:
        claimed = _claim(table_id, seq, fields, action_row)
    except IntegrityError:
        # The id was applied before (the unique constraint): nothing of this was kept.
        if client_id is not None and (
            Action.objects.filter(table_id=table_id, seat=seat, client_id=client_id).exists()
        ):
            return Played(_get_table(table_id).seq, applied=False, duplicate=True)
        raise
    if not claimed:
        return None  # another writer moved the table: `_play` reads it and answers
    new_snap = replace(
        snap,
        seq=new_seq,
        status=status,
        deadline=deadline,
        result=result,
        finished_at=finished_at,
    )
    transaction.on_commit(lambda: _after_commit(new_snap, match, bots_due))
    return Played(new_seq, applied=True)


_CATCH_UP_LIMIT = 32  # actions; beyond that loading the state column is as cheap


def _catch_up(
    table_id: str, seq: int, cached_seq: int, match: Match, snap: _Snapshot
) -> _Snapshot | None:
    """Bring `match` (taken from the cache at `cached_seq`) to the table's current seq with the
    actions logged since, if that is `seq`; its snapshot from the row. One statement on
    PostgreSQL (one consistent view of the row and the log: an action row is committed with the
    claim that wrote its seq). `None`: not done; the entry is back in the cache, unchanged, or
    dropped if it was changed."""
    conn = connections[Table.objects.db]
    if conn.vendor != "postgresql" or seq - cached_seq > _CATCH_UP_LIMIT:
        _put_cached(table_id, cached_seq, match, snap)
        return None
    q = conn.ops.quote_name
    t, a = Table._meta, Action._meta

    def col(meta: Any, name: str) -> str:
        return q(meta.get_field(name).column)

    sql = (
        f"SELECT t.{col(t, 'seq')}, t.{col(t, 'status')}, t.{col(t, 'deadline')}, "
        f"a.{col(a, 'seq')}, a.{col(a, 'seat')}, a.{col(a, 'action')} "
        f"FROM {q(t.db_table)} t LEFT JOIN {q(a.db_table)} a "
        f"ON a.{col(a, 'table')} = t.{col(t, 'id')} AND a.{col(a, 'seq')} > %s "
        f"WHERE t.{col(t, 'id')} = %s ORDER BY a.{col(a, 'seq')}"
    )
    with conn.cursor() as cursor:
        cursor.execute(sql, [cached_seq, table_id])
        rows = cursor.fetchall()
    if (
        not rows
        or rows[0][0] != seq
        or rows[0][1] != PLAYING
        or [r[3] for r in rows] != list(range(cached_seq + 1, seq + 1))
    ):
        _put_cached(table_id, cached_seq, match, snap)  # a stale client, or the match is over
        return None
    try:
        for _, _, _, _, seat, action in rows:
            match.apply(seat, json.loads(action) if isinstance(action, str) else action)
    except Exception:
        logger.exception("table %s: could not catch up from seq %s", table_id, cached_seq)
        return None  # the match is dropped from the cache; the full path loads the state
    return replace(snap, seq=seq, status=PLAYING, deadline=rows[0][2])


@dataclass(frozen=True)
class _JsonText:
    """A JSON column value already serialized (the state dump is the biggest value written)."""

    text: str


def _state_text(match: Match) -> _JsonText:
    """`json.dumps(match.dump())` without `dump()`'s copy through JSON: the same text."""
    state = {k: getattr(match, k) for k in (*match.COMMON, *match.STATE)}
    return _JsonText(json.dumps({"game": match.GAME, "state": state}))


_claim_sql: dict[tuple[str, ...], tuple[str, tuple[bool, ...]]] = {}


def _claim_statement(table_fields: tuple[str, ...]) -> tuple[str, tuple[bool, ...]]:
    """The PostgreSQL claim-and-append statement for these table fields (cached), and which of
    its parameters are JSON."""
    cached = _claim_sql.get(table_fields)
    if cached is not None:
        return cached
    q = connections[Table.objects.db].ops.quote_name
    table_meta, action_meta = Table._meta, Action._meta
    is_json: list[bool] = []
    sets = []
    for name in table_fields:
        field = table_meta.get_field(name)
        json_field = isinstance(field, models.JSONField)
        sets.append(f"{q(field.column)} = %s{'::jsonb' if json_field else ''}")
        is_json.append(json_field)
    pk, seq_col, status_col = (q(table_meta.get_field(f).column) for f in ("id", "seq", "status"))
    is_json += [False, False, False]
    columns, values = [], []
    for name in _ACTION_COLUMNS:
        field = action_meta.get_field(name)
        json_field = isinstance(field, models.JSONField)
        columns.append(q(field.column))
        values.append("%s::jsonb" if json_field else "%s")
        is_json.append(json_field)
    sql = (
        f"WITH claimed AS (UPDATE {q(table_meta.db_table)} SET {', '.join(sets)} "
        f"WHERE {pk} = %s AND {seq_col} = %s AND {status_col} = %s RETURNING {pk}) "
        f"INSERT INTO {q(action_meta.db_table)} "
        f"({q(action_meta.get_field('table').column)}, {', '.join(columns)}) "
        f"SELECT {pk}, {', '.join(values)} FROM claimed"
    )
    _claim_sql[table_fields] = (sql, tuple(is_json))
    return _claim_sql[table_fields]


_ACTION_COLUMNS = ("seq", "seat", "action", "client_id", "kind", "created_at")


def _json_param(value: Any) -> str | None:
    if value is None:
        return None
    return value.text if isinstance(value, _JsonText) else json.dumps(value)


def _claim(table_id: str, seq: int, fields: dict[str, Any], action_row: dict[str, Any]) -> bool:
    """Move the table from `seq` to `seq + 1` (if it is still there and playing) and append the
    action, atomically. On PostgreSQL one statement (a data-modifying CTE: the INSERT takes the
    row the UPDATE claimed, so a lost claim inserts nothing), committed by itself outside a
    transaction; elsewhere (SQLite) the same two statements as `_play` in a transaction."""
    conn = connections[Table.objects.db]
    if conn.vendor != "postgresql":
        values = {
            k: json.loads(v.text) if isinstance(v, _JsonText) else v for k, v in fields.items()
        }
        with transaction.atomic():
            claimed = Table.objects.filter(pk=table_id, seq=seq, status=PLAYING).update(**values)
            if claimed:
                Action.objects.create(table_id=table_id, **action_row)
        return bool(claimed)
    sql, is_json = _claim_statement(tuple(fields))
    raw = [*fields.values(), table_id, seq, PLAYING, *(action_row[k] for k in _ACTION_COLUMNS)]
    params = [_json_param(v) if j else v for v, j in zip(raw, is_json, strict=True)]
    # In a caller's transaction: a savepoint, so a duplicate id does not break it.
    savepoint = transaction.atomic() if conn.in_atomic_block else nullcontext()
    with savepoint, conn.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount == 1


# ------------------------------------------------------------------ after commit
@dataclass(frozen=True)
class _Snapshot:
    """The table fields a state message needs, taken inside the transaction."""

    id: str
    game: str
    seq: int
    status: str
    deadline: datetime | None
    seconds_per_move: int
    allow_spectators: bool
    rated: bool
    result: dict[str, Any] | None
    finished_at: datetime | None
    forfeited_seats: list[int]

    @classmethod
    def of(cls, table: Table) -> _Snapshot:
        return cls(
            table.id,
            table.game,
            table.seq,
            table.status,
            table.deadline,
            table.seconds_per_move,
            table.allow_spectators,
            table.rated,
            table.result,
            table.finished_at,
            list(table.forfeited_seats or []),
        )


def _after_commit(snap: _Snapshot, match: Match, bots_due: bool, final: bool = False) -> None:
    """Side effects of a committed change: per-seat states, the end-of-match signal, bots."""
    from gameplay.services import notify

    now = timezone.now()
    payloads = {
        seat.number: state_payload(snap, match, seat.number, now) for seat in seats_of(snap.id)
    }
    if snap.allow_spectators:
        payloads[None] = state_payload(snap, match, None, now)
    if not final:
        _put_cached(snap.id, snap.seq, match, snap)
    try:
        notify.send_states(snap.id, snap.seq, payloads, final=final)
    except Exception:  # the change is committed; consumers re-read on the next gap or sync
        logger.exception("could not notify table %s at seq %s", snap.id, snap.seq)
    if snap.status == FINISHED:
        _announce_finished(snap)
    elif bots_due:
        _schedule_bot(snap.id, snap.seq)


def _announce_finished(snap: _Snapshot) -> None:
    from gameplay.api import match_finished

    seats = [
        {"seat": s.number, "user_id": s.user_id, "bot": s.bot or None} for s in seats_of(snap.id)
    ]
    for receiver, response in match_finished.send_robust(
        sender=None,
        table_ref=snap.id,
        result=snap.result,
        seats=seats,
        rated=snap.rated,
        finished_at=snap.finished_at,
        forfeited_seats=snap.forfeited_seats,
    ):
        if isinstance(response, Exception):
            logger.error(
                "match_finished receiver %r failed for table %s",
                receiver,
                snap.id,
                exc_info=(type(response), response, response.__traceback__),
            )


def _schedule_bot(table_id: str, seq: int) -> None:
    from gameplay.services import runner

    runner.schedule_bot(table_id, seq)


# ------------------------------------------------------------------ what a seat sees
def state_payload(
    snap: _Snapshot, match: Match, seat: int | None, now: datetime | None = None
) -> dict[str, Any]:
    """The protocol's `state` message for one receiver (`seat=None`: a spectator).

    It carries the deal's `commitment` (the same for every receiver and every state of the
    deal: the match computes it once a deal), never its salt, which only the record reveals.
    """
    finished = snap.status == FINISHED
    to_act = [] if finished else match.to_act()
    payload = {
        "type": "state",
        "table": snap.id,
        "seq": snap.seq,
        "seat": seat,
        "game": snap.game,
        "status": snap.status,
        "to_act": to_act,
        "legal": match.legal(seat) if seat is not None and seat in to_act else [],
        "view": match.view(seat),
        "clock": clock.clock_view(
            to_act,
            snap.deadline,
            snap.seconds_per_move,
            match.SEATS,
            now or timezone.now(),
        ),
        "result": snap.result if finished else None,
        "players": [s.name for s in seats_of(snap.id)],
    }
    commitment = match.commitment()
    if commitment is not None:  # None only for an explicit deal without a salt: no table has one
        payload["commitment"] = commitment
    return payload


def states_since(table_id: str, seat: int | None, after_seq: int) -> list[dict[str, Any]]:
    """The state messages a receiver that last saw `after_seq` is missing, up to now.

    When it has seen the current seq (or nothing yet), that is just the current state; after a
    gap, one state per missed seq, replayed from the log (the log up to now is immutable).
    """
    table = _get_table(table_id)
    snap = _Snapshot.of(table)
    if after_seq < 0 or after_seq >= table.seq - 1:
        return [state_payload(snap, load_match(table), seat)]
    match = new_match(table)
    out = []
    actions = Action.objects.filter(table_id=table_id, seq__lte=table.seq).order_by("seq")
    for step, (a_seat, action) in enumerate(actions.values_list("seat", "action"), start=1):
        match.apply(a_seat, action)
        if step <= after_seq:
            continue
        if step == table.seq:
            out.append(state_payload(snap, match, seat))
        else:
            past = _Snapshot(
                table.id,
                table.game,
                step,
                PLAYING,
                None,
                table.seconds_per_move,
                table.allow_spectators,
                table.rated,
                None,
                None,
                [],
            )
            out.append(state_payload(past, match, seat))
    return out


@dataclass(frozen=True)
class Identity:
    """Who a connection is at a table: a seat number, or a spectator (`seat=None`)."""

    seat: int | None


def identify(table_id: str, token: str | None, user: Any) -> Identity | None:
    """Authenticate a connection: a seat token, else the session user's seat, else a spectator
    when the table allows it; `None` = refuse (also for a wrong token or an unknown table)."""
    table = Table.objects.filter(pk=table_id).values("allow_spectators").first()
    if table is None:
        return None
    if token is not None:
        number = (
            Seat.objects.filter(table_id=table_id, token=token)
            .values_list("number", flat=True)
            .first()
        )
        return None if number is None else Identity(number)
    if user is not None and getattr(user, "is_authenticated", False):
        number = (
            Seat.objects.filter(table_id=table_id, user_id=user.pk)
            .values_list("number", flat=True)
            .first()
        )
        if number is not None:
            return Identity(number)
    return Identity(None) if table["allow_spectators"] else None


# ------------------------------------------------------------------ clocks and bots
def default_action(match: Match, seat: int, rng: random.Random) -> dict[str, Any]:
    """What a seat that ran out of time does: pass when it may, else what the bot would do."""
    from gameplay import bots

    legal = match.legal(seat)
    if {"act": "pass"} in legal:
        return {"act": "pass"}
    return bots.choose_action(match.GAME, match.view(seat), legal, rng)


def apply_timeouts(table_id: str, now: datetime | None = None) -> int:
    """Apply every timeout due at a table (idempotent: each is claimed on its seq)."""
    now = now or timezone.now()
    applied = 0
    for _ in range(8):  # at most one per seat of the decision
        table = _get_table(table_id)
        if table.status != PLAYING or table.deadline is None or table.deadline > now:
            break
        match = load_match(table)
        to_act = match.to_act()
        if not to_act:
            break
        seat = to_act[0]
        if table.on_timeout == Table.OnTimeout.FORFEIT:
            applied += forfeit(table_id, seat, table.seq, now)
            break
        action = default_action(match, seat, random.Random(f"{table.seed}/{table.seq}/{seat}"))
        try:
            played = play_action(
                table_id, seat, action, table.seq, kind=Action.Kind.TIMEOUT, due_by=now
            )
        except TableError:
            break  # someone acted (or another sweeper claimed it) first
        if not played.applied:
            break
        applied += 1
    return applied


def forfeit(table_id: str, seat: int, seq: int, now: datetime) -> int:
    """End the match: `seat` forfeits on time. Claimed on `seq` like an action (idempotent)."""
    with transaction.atomic():
        table = _get_table(table_id)
        if table.seq != seq:
            return 0
        match = load_match(table)
        result = match.result()
        result["forfeited"] = [seat]
        claimed = Table.objects.filter(
            pk=table_id, seq=seq, status=PLAYING, deadline__lte=now
        ).update(
            status=FINISHED,
            result=result,
            record=match.export(),
            forfeited_seats=[seat],
            deadline=None,
            bot_due=None,
            finished_at=now,
            updated_at=now,
        )
        if not claimed:
            return 0
        table.status, table.result, table.finished_at = FINISHED, result, now
        table.forfeited_seats, table.deadline = [seat], None
        snap = _Snapshot.of(table)
        transaction.on_commit(lambda: _after_commit(snap, match, False, final=True))
    return 1


def sweep_clocks(
    now: datetime | None = None, limit: int = 500, bot_grace: float | None = None
) -> int:
    """Apply due timeouts at every table, and re-queue bot moves that are long overdue.

    Run by Celery beat at scale and by a background task in the embedded server; safe to run
    in several places at once (every change is claimed on its seq).
    """
    now = now or timezone.now()
    applied = 0
    due = Table.objects.filter(status=PLAYING, deadline__lte=now).order_by("deadline")
    for table_id in due.values_list("id", flat=True)[:limit]:
        applied += apply_timeouts(table_id, now)
    if bot_grace is None:
        bot_grace = float(getattr(settings, "GAMEPLAY_BOT_REQUEUE_AFTER", 30))
    grace = timedelta(seconds=bot_grace)
    stuck = Table.objects.filter(status=PLAYING, bot_due__lte=now - grace)
    for table_id, seq in stuck.values_list("id", "seq")[:limit]:
        # Claim the re-queue on seq so two sweepers do not both kick the same bot.
        if Table.objects.filter(pk=table_id, seq=seq, bot_due__lte=now - grace).update(bot_due=now):
            _schedule_bot(table_id, seq)
    return applied


def play_bot(table_id: str, seq: int) -> bool:
    """Let the first bot seat due at `seq` move (the bot task). False when the table moved on."""
    from gameplay import bots

    table = _get_table(table_id)
    if table.status != PLAYING or table.seq != seq:
        return False
    match = load_match(table)
    mine = bot_seats(table_id)
    for seat in match.to_act():
        if seat in mine:
            rng = random.Random(f"{table.seed}/{seq}/{seat}")
            action = bots.choose_action(match.GAME, match.view(seat), match.legal(seat), rng)
            try:
                return play_action(table_id, seat, action, seq, kind=Action.Kind.BOT).applied
            except TableError as exc:
                if exc.code == "illegal":
                    logger.error("bot at %s seat %s chose %r: %s", table_id, seat, action, exc)
                return False
    return False


# ------------------------------------------------------------------ reading
def table_record(table_id: str) -> dict[str, Any]:
    """The table's game record (`mediana.record/1`), finished or not."""
    table = Table.objects.get(pk=table_id)
    if table.record is not None:
        return table.record
    return load_match(table).export()
