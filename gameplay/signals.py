"""The one event gameplay announces to the rest of the site (re-exported by `gameplay.api`).

`match_finished` is sent after the database commit when a table's match ends: sender=None,
table_ref=str, result=score_record-shaped dict, seats=[{"seat": n, "user_id": int|None,
"bot": str|None, "bot_level": str|None}], rated=bool, finished_at=datetime,
forfeited_seats=[n, ...]. Receivers run with `send_robust`: one that fails is logged and the
others still hear of it.
"""

from __future__ import annotations

from django.dispatch import Signal

match_finished = Signal()
