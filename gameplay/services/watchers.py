"""Who watches a table: a count of its spectator connections, so that a move nobody watches
builds, serializes and publishes no spectators' state.

`Table.watchers` counts the spectator connections open now, in every server process. A
spectator connection adds itself (`watch`, one committed UPDATE) *before* it joins the
spectators' group and reads its first state, and takes itself off (`unwatch`) when it closes.
The claim of a move (`claim.py`) returns the count as of the claim, and `after_commit` builds the
spectators' state only when it is above 0. Every other change (a forfeit, a table that starts, a
resignation, a seat taken in the lobby) does not know the count and sends the spectators their
state as before.

Why no spectator misses a state (docs/tables.md, "Watchers"). The increment and the claim are
both UPDATEs of the table's row, so the database orders them: on PostgreSQL the second blocks
on the row lock until the first commits and then sees its row; on SQLite writers are serialized
(the claim's transaction holds the write lock from its UPDATE on, from its start with BEGIN
IMMEDIATE, and reads the count after that UPDATE). Take a spectator S and a move claimed at
seq N:

- S's increment committed before the claim: the claim counts S (count >= 1), so the state at N
  is published to the spectators' group. S either joined the group before that publish (and
  gets it there) or after (and then reads its first state after the claim committed, so that
  read has N): the join-then-read rule every connection already follows (consumers/table.py).
- S's increment came after the claim: it waited for the claim's transaction to commit, and S
  joins and reads only after its increment returned, so its first read already has N. Nothing
  needs to be sent to it, and a count of 0 sends nothing.

So a state is skipped only for spectators whose first read includes it. A decrement only comes
when the connection is going away. The count is never below 0 (`GREATEST`, and the column's
CHECK); a process that dies with spectators connected leaves it too high, which costs only the
saving (those tables build the spectators' state as before until they end). Nothing resets it
at start: with several processes one's start cannot know the others' spectators, and a count
too low would lose states, so only the connection that added itself takes itself off.
"""

from __future__ import annotations

from django.db.models import F, Value
from django.db.models.functions import Greatest

from gameplay.models import Table


def watch(table_id: str) -> None:
    """Count one more spectator connection at the table: call (and let it commit) before the
    connection joins the spectators' group and reads its first state."""
    Table.objects.filter(pk=table_id).update(watchers=F("watchers") + 1)


def unwatch(table_id: str) -> None:
    """Count one spectator connection fewer (once per `watch`, when the connection closes);
    never below 0."""
    Table.objects.filter(pk=table_id).update(watchers=Greatest(F("watchers") - 1, Value(0)))


def count(table_id: str) -> int:
    """The table's spectator connections as counted now (0 for an unknown table)."""
    counted = Table.objects.filter(pk=table_id).values_list("watchers", flat=True).first()
    return counted or 0
