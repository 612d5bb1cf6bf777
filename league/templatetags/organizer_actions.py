"""`{% can event "action" target as ok %}`: whether the page may show an organizer's button or
form — the rule the service refuses by (`league.services.actions`), so a page never offers what
the server would refuse (a closed event shows no Generate, Add, Withdraw, Edit or Correct).

`ok` is true or false; `ok.reason` says why not, to the event's organizers only (a page may
show it in the button's place). The event's state and whether the account manages it are read
once per request and event, however many rows ask (the entries page asks per entry).
"""

from __future__ import annotations

from typing import Any

from django import template

from league.models import Event
from league.services import actions
from league.services.permissions import can_manage

register = template.Library()


def _memo(context: Any, event: Event) -> dict[str, Any]:
    """The event's facts and the account's right to manage it, kept on the request."""
    user = context.get("user")
    request = context.get("request")
    store = getattr(request, "_organizer_actions", None) if request is not None else None
    if store is None:
        store = {}
        if request is not None:
            request._organizer_actions = store
    key = (event.pk, getattr(user, "pk", None))
    if key not in store:
        store[key] = {"facts": actions.Facts(event), "manager": can_manage(user, event)}
    return store[key]


@register.simple_tag(takes_context=True)
def can(context: Any, event: Event, action: str, target: Any = None) -> actions.Allowed:
    """Whether the account may do `action` (on `target`: a round, an entry, a fixture) now."""
    return actions.may(context.get("user"), event, action, target, **_memo(context, event))
