"""Fan-out of table changes to the consumers, through the channel layer.

Every seat has its own group (and spectators one), and each gets its own `state` payload: no
message that travels through the layer to one receiver carries another seat's cards. The
messages are sent after commit; a consumer that misses one notices the gap in `seq` and re-reads
the table (the layer is not trusted for delivery).
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

STATE_EVENT = "table.state"


def group_name(table_id: str, seat: int | None) -> str:
    """The channel-layer group of one seat of a table (`None`: its spectators)."""
    return f"table.{table_id}.{'spectators' if seat is None else seat}"


def send_states(
    table_id: str, seq: int, payloads: dict[int | None, dict[str, Any]], *, final: bool = False
) -> None:
    """Send each receiver group its own state at `seq`. `final` marks a change that kept the
    seq (a forfeit), so consumers that already sent `seq` send it again."""
    layer = get_channel_layer()
    if layer is None:
        return
    messages = [
        (group_name(table_id, seat), {"type": STATE_EVENT, "seq": seq, "final": final, "state": p})
        for seat, p in payloads.items()
    ]

    async def fan_out() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    async_to_sync(fan_out)()
