"""django-csp's middleware, naming the page's own socket address in `connect-src`.

CSP Level 3 lets 'self' match ws:/wss: on the page's host, and current browsers do so; Safari
before 16 and Chrome before 71 did not, and refused the table's WebSocket. The host is the
request's validated one (ALLOWED_HOSTS), so nothing a client sends reaches the header unchecked.
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """CONTENT_SECURITY_POLICY, plus `connect-src ws(s)://<this host>` for the table socket."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:  # answered 400 already; its page loads nothing
            return parts
        socket = f"{'wss' if request.is_secure() else 'ws'}://{host}"
        update = dict(parts.update or {})  # a view's own @csp_update, kept
        sources = update.get("connect-src") or []
        update["connect-src"] = [*([sources] if isinstance(sources, str) else sources), socket]
        parts.update = update
        return parts
