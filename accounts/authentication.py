"""API authentication and throttling: HTTP Basic under the log-in lockout, and rate limits.

Throttles key anonymous clients by `client_address` (DRF's own `get_ident` believes any
X-Forwarded-For a client sends). Rates come from `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`,
read when a request is checked, so a changed setting applies at once. Counts live in the
default cache: shared by every process with REDIS_URL, per process without.

REST_FRAMEWORK names these classes, and DRF imports them while `rest_framework.views` loads:
this module must not import DRF's views (accounts/api.py holds the token view).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions, throttling
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.settings import api_settings

from accounts.client_address import request_client_address
from accounts.lockout import cooloff_seconds, lockout_message


class LockedOut(exceptions.Throttled):
    """429 + Retry-After for a locked pair of user name and address (see accounts.lockout)."""

    def __init__(self) -> None:
        super().__init__(wait=cooloff_seconds(), detail=lockout_message())


def locked_out(request: Request) -> bool:
    """Whether the last `authenticate(request=...)` was refused (or just tripped) by axes."""
    return bool(getattr(request, "axes_locked_out", False))


class BasicAuthentication(authentication.BasicAuthentication):
    """DRF's HTTP Basic, answering 429 instead of 401 while the pair is locked out."""

    def authenticate_credentials(
        self, userid: str, password: str, request: Any = None
    ) -> tuple[Any, None]:
        if "\x00" in userid or "\x00" in password:
            # No account has one, and the database refuses to look one up (a 500).
            raise exceptions.AuthenticationFailed(_("Invalid username/password."))
        try:
            return super().authenticate_credentials(userid, password, request)
        except exceptions.AuthenticationFailed:
            if request is not None and locked_out(request):
                raise LockedOut() from None
            raise


# --- throttles ------------------------------------------------------------------------------


class RateFromSettings:
    """The rate of `scope`, read per request (DRF binds the rates dict at import)."""

    scope: str

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]

    def get_ident(self, request: Request) -> str:
        return request_client_address(request) or ""


class AnonWriteThrottle(RateFromSettings, throttling.AnonRateThrottle):
    """Writes by anonymous clients, per address (`anon_write`)."""

    scope = "anon_write"

    def allow_request(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or super().allow_request(request, view)


class UserWriteThrottle(RateFromSettings, throttling.UserRateThrottle):
    """Writes by a logged-in user, per account wherever it writes from (`user_write`)."""

    scope = "user_write"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not request.user.is_authenticated:
            return None  # AnonWriteThrottle's
        return super().get_cache_key(request, view)

    def allow_request(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or super().allow_request(request, view)


class TokenThrottle(RateFromSettings, throttling.SimpleRateThrottle):
    """Requests for a token, per address, right or wrong (`token`)."""

    scope = "token"

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
