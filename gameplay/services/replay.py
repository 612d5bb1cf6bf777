"""A finished table's replay: its record replayed through the engine, labels translated.

The engines compute the steps (`games/core/replay.py`); this module reads the table's
record, says who may see it (`may_replay`: whoever may read the record) and turns the label
templates into the reader's language. One deal is served at a time, so a long match costs
one deal's views per request (docs/tables.md, "Replay").
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from gameplay.models import Table
from gameplay.services import identity, matches
from games.core import replay


def may_replay(table: Table, token: str | None, user: Any) -> bool:
    """A table's replay is shown to whoever may read its record: its players, and everyone when
    it allowed spectators; never before the end (the record holds every hand)."""
    if table.status != Table.Status.FINISHED:
        return False
    return identity.identify(table.id, token, user) is not None


def record_of(table: Table) -> dict[str, Any]:
    """The finished table's record (kept on the row at the end; rebuilt from the log if not)."""
    if table.record is not None:
        return table.record
    return matches.table_record(table.id)


def _label(template_params: Any) -> list[dict[str, Any]]:
    template, params = template_params
    return replay.label_parts(gettext(template), params)


def _translated(deal: dict[str, Any]) -> dict[str, Any]:
    deal["start"]["label"] = _label(deal["start"]["label"])
    for step in deal["steps"]:
        step["label"] = _label(step["label"])
    return deal


def summary(table: Table, *, deal: int | None = None) -> dict[str, Any]:
    """The replay's summary (`replay.replay_summary`), with deal `deal`'s steps when given.
    `IndexError` for a deal the record does not have."""
    data = replay.replay_summary(record_of(table), n_deals=table.n_deals, deal=deal)
    if "steps" in data:
        _translated(data["steps"])
    return data


def deal_steps(table: Table, deal: int) -> dict[str, Any]:
    """One deal's steps, labels translated; `IndexError` for a deal the record does not have."""
    return _translated(replay.deal_steps(record_of(table), deal, n_deals=table.n_deals))
