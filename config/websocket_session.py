"""Sessions and users for WebSockets, without a wrapper around every frame sent.

Channels' `AuthMiddlewareStack` puts the session and the user in the scope, and its session
middleware also wraps `send` to save the session and set its cookie; it does both only on
`http.response.start`, which a WebSocket never sends, yet the wrapper runs on every frame
(~5 µs each for a connection without a session cookie, as a bot's: measured in process). Here the
scope is filled the same way and the frames go to the server's own `send`. A WebSocket consumer
that changes the session must save it itself (as it must under Channels' stack too).
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware


class WebSocketSessionMiddleware(SessionMiddleware):
    """Channels' `SessionMiddleware` that hands the inner application the unwrapped `send`."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def WebSocketAuthMiddlewareStack(inner: Any) -> Any:
    """`AuthMiddlewareStack` for WebSockets: cookies, the session and the user in the scope."""
    return CookieMiddleware(WebSocketSessionMiddleware(AuthMiddleware(inner)))
