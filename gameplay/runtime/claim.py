"""The move path's two hand-written statements: the claim (with the log insert) and the
catch-up read.

Why a conditional UPDATE (`UPDATE table SET seq = N+1 ... WHERE id = T AND seq = N`) and not a
lock: it is race-safe on PostgreSQL (the second writer blocks on the row, then re-checks the
WHERE clause against the committed row and updates nothing) and on SQLite (writers are
serialized), while `select_for_update` is a no-op on SQLite. On PostgreSQL the claim and the
log insert are one statement, written here instead of through the ORM because a move is the
server's hottest path (docs/performance.md, "Tables"). The claim also returns the table's
spectator count as of the claim (`watchers.py` argues why that count is safe to act on).
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from django.db import connections, models, transaction

from gameplay.models import Action, Table
from games import Match

PLAYING = Table.Status.PLAYING


@dataclass(frozen=True)
class JsonText:
    """A JSON column value already serialized (the state dump is the biggest value written)."""

    text: str


@dataclass(frozen=True)
class Claimed:
    """A claim that won: `watchers` is the table's spectator count as of the claim (an
    increment committed before it is counted; one after it waited for the claim's commit)."""

    watchers: int


def state_text(match: Match) -> JsonText:
    """The state column's value, `match.dump()`, as JSON text without `dump()`'s copy through
    JSON, and without serializing the log's finished deals again on every move
    (`Match.dump_text`): the same JSON value, keys in another order (PostgreSQL keeps jsonb,
    which has no order; elsewhere the value is parsed and written by the ORM)."""
    return JsonText(match.dump_text())


_ACTION_COLUMNS = ("seq", "seat", "action", "client_id", "kind", "created_at")
_claim_sql: dict[tuple[str, ...], tuple[str, tuple[bool, ...]]] = {}


def _claim_statement(table_fields: tuple[str, ...]) -> tuple[str, tuple[bool, ...]]:
    """The PostgreSQL claim-and-append statement for these table fields (built once per set of
    fields), and which of its parameters are JSON."""
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
    pk, seq_col, status_col, rev_col, watchers_col = (
        q(table_meta.get_field(f).column) for f in ("id", "seq", "status", "seats_rev", "watchers")
    )
    is_json += [False, False, False, False]
    columns, values = [], []
    for name in _ACTION_COLUMNS:
        field = action_meta.get_field(name)
        json_field = isinstance(field, models.JSONField)
        columns.append(q(field.column))
        values.append("%s::jsonb" if json_field else "%s")
        is_json.append(json_field)
    sql = (
        f"WITH claimed AS (UPDATE {q(table_meta.db_table)} SET {', '.join(sets)} "
        f"WHERE {pk} = %s AND {seq_col} = %s AND {status_col} = %s AND {rev_col} = %s "
        f"RETURNING {pk}, {watchers_col}) "
        f"INSERT INTO {q(action_meta.db_table)} "
        f"({q(action_meta.get_field('table').column)}, {', '.join(columns)}) "
        f"SELECT {pk}, {', '.join(values)} FROM claimed "
        f"RETURNING (SELECT {watchers_col} FROM claimed)"
    )
    _claim_sql[table_fields] = (sql, tuple(is_json))
    return _claim_sql[table_fields]


def _json_param(value: Any) -> str | None:
    if value is None:
        return None
    return value.text if isinstance(value, JsonText) else json.dumps(value)


def claim(
    table_id: str, seq: int, fields: dict[str, Any], action_row: dict[str, Any], *, seats_rev: int
) -> Claimed | None:
    """Move the table from `seq` to `seq + 1` (if it is still there, playing, and its seats are
    still at `seats_rev`) and append the action, atomically, with the table's spectator count
    as of the claim; None when another writer moved it first, or the seats changed (a
    resignation) since the caller's snapshot.

    On PostgreSQL one statement (a data-modifying CTE: the INSERT takes the row the UPDATE
    claimed, so a lost claim inserts nothing; it returns the count the UPDATE saw), committed
    by itself; elsewhere (SQLite) the same two statements and a read of the count in a
    transaction that holds the write lock. An id already applied fails the unique (table,
    seat, client_id) constraint: `IntegrityError`, and nothing of this is kept.
    """
    conn = connections[Table.objects.db]
    if conn.vendor != "postgresql":
        values = {
            k: json.loads(v.text) if isinstance(v, JsonText) else v for k, v in fields.items()
        }
        with transaction.atomic():
            claimed = Table.objects.filter(
                pk=table_id, seq=seq, status=PLAYING, seats_rev=seats_rev
            ).update(**values)
            if not claimed:
                return None
            Action.objects.create(table_id=table_id, **action_row)
            # After this transaction's own UPDATE: no increment can commit in between.
            rows = Table.objects.filter(pk=table_id).values_list("watchers", flat=True)
            return Claimed(rows[0])
    sql, is_json = _claim_statement(tuple(fields))
    raw = [
        *fields.values(),
        table_id,
        seq,
        PLAYING,
        seats_rev,
        *(action_row[k] for k in _ACTION_COLUMNS),
    ]
    params = [_json_param(v) if j else v for v, j in zip(raw, is_json, strict=True)]
    # In a caller's transaction: a savepoint, so a duplicate id does not break it.
    savepoint = transaction.atomic() if conn.in_atomic_block else nullcontext()
    with savepoint, conn.cursor() as cursor:
        cursor.execute(sql, params)
        # The driver's fetchone, not Django's wrapper of it (which builds an error-translating
        # wrapper per call, dearer than the row): the row is in hand, nothing can fail here.
        row = cursor.cursor.fetchone()
    return None if row is None else Claimed(row[0])


def log_since(table_id: str, after_seq: int) -> list[tuple[Any, ...]] | None:
    """The row's (seq, status, deadline) with each action logged after `after_seq` (seq, seat,
    action), in seq order: one statement, so one consistent view of the row and the log (an
    action row is committed with the claim that wrote its seq). `None` where that is not one
    statement (SQLite): the caller loads the state instead."""
    conn = connections[Table.objects.db]
    if conn.vendor != "postgresql":
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
        cursor.execute(sql, [after_seq, table_id])
        return cursor.fetchall()
