"""The endpoints a browser's push.js calls: keep this browser's push subscription, or forget it.
JSON in, JSON out; the session and its CSRF token (the `X-CSRFToken` header) authorize them."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.errors import LeagueError
from league.services import web_push

MAX_BODY = 4096  # a subscription is a few hundred bytes


def _body(request: HttpRequest) -> dict:
    if len(request.body) > MAX_BODY:
        raise LeagueError(_("The browser sent a subscription this site cannot read."))
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise LeagueError(_("The browser sent a subscription this site cannot read.")) from None
    if not isinstance(data, dict):
        raise LeagueError(_("The browser sent a subscription this site cannot read."))
    return data


@require_POST
@login_required
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """Keep the subscription this browser just made (`PushSubscription.toJSON()`)."""
    try:
        web_push.subscribe(request.user, _body(request))
    except (LeagueError, PermissionDenied) as error:
        return JsonResponse({"error": str(error)}, status=400)
    return JsonResponse({"ok": True, "text": _("Push notices are on for this device.")})


@require_POST
@login_required
def push_unsubscribe(request: HttpRequest) -> JsonResponse:
    """Forget this browser's subscription (`{"endpoint": ...}`)."""
    try:
        endpoint = str(_body(request).get("endpoint") or "")
        web_push.unsubscribe(request.user, endpoint)
    except (LeagueError, PermissionDenied) as error:
        return JsonResponse({"error": str(error)}, status=400)
    return JsonResponse({"ok": True, "text": _("Push notices are off for this device.")})
