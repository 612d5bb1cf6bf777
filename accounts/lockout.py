"""Log-in lockouts (django-axes): by the pair of user name and client address.

After `AXES_FAILURE_LIMIT` failures of one user name from one address, that pair is refused for
`AXES_COOLOFF_TIME`, whatever password comes next; nobody elsewhere can lock the owner out, and
the owner elsewhere still logs in. Every log-in path goes through `authenticate(request, ...)`,
where axes' backend refuses a locked pair before any password is checked: the log-in form (any
view using Django's AuthenticationForm), HTTP Basic on the API and `POST /api/token/`. So the
answer to a locked pair is the same for a right and a wrong password.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def cooloff_seconds() -> int:
    """How long a locked pair waits: each refused attempt starts the cool-off again (axes'
    AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT), so this is exact for every refusal."""
    return max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds()))


def lockout_message() -> str:
    return _(
        "Too many failed log-in attempts for this user name from your address. "
        "Try again in %(minutes)d minutes."
    ) % {"minutes": math.ceil(cooloff_seconds() / 60)}


def lockout_username(request: Any, credentials: dict[str, Any] | None) -> str | None:
    """AXES_USERNAME_CALLABLE: the user name as typed, without regard to case (names are
    unique without regard to case), so `Alice` and `alice` share one count of failures."""
    field = settings.AXES_USERNAME_FORM_FIELD
    if credentials:
        name = credentials.get(field)
    else:
        form = getattr(request, "data", request.POST)
        name = form.get(field, form.get("login"))  # `login`: allauth's form's name for it
    return name.casefold() if isinstance(name, str) else name


def lockout_response(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: 429 with Retry-After; a page for the log-in form, JSON for the API.

    axes calls it as (request, response, credentials), or (request, credentials) from its
    async middleware; neither is needed here.
    """
    message = lockout_message()
    if request.path.startswith("/api/") or request.headers.get("x-requested-with"):
        response: HttpResponse = JsonResponse({"detail": message}, status=429)
    else:
        response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(cooloff_seconds())
    return response
