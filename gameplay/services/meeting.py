"""What quick pairing (`seeks`) and challenges share: checking a game, a pace and a flag, the
seats of a table made for people who met, and the live messages that tell them.

A refusal is the lobby's `LobbyError` (its status and a translated message), so the API and the
pages answer it as they answer the lobby's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from gameplay import paces
from gameplay.models import Table
from gameplay.services import live
from gameplay.services.create import SeatSpec, create_table
from gameplay.services.lobby import LobbyError, bot_names
from games import bots as bot_registry
from games import registry

FILL_LEVEL = bot_registry.DEFAULT_LEVEL  # the bots that fill a table of people: `basic`
_shuffle = random.SystemRandom().shuffle


def account(user: Any) -> Any:
    """The logged-in user, or `LobbyError(403)`."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise LobbyError(403, gettext("Log in to play with people."))
    return user


def checked_game(game: Any) -> int:
    """The number of seats of `game`, or `LobbyError(400)` naming the games."""
    try:
        if not isinstance(game, str):
            raise KeyError(game)
        return registry.get_game(game).seats
    except KeyError:
        names = ", ".join(registry.game_names())
        raise LobbyError(
            400,
            gettext("Unknown game %(game)r (games: %(names)s).") % {"game": game, "names": names},
        ) from None


def checked_pace(pace: Any, *, turn_based: bool = False) -> paces.Pace:
    """The live pace called `pace` (or any pace, a turn-based one too, with `turn_based`: a
    challenge), or `LobbyError(400)` naming the paces."""
    found = paces.PACES.find(pace) if isinstance(pace, str) else None
    if found is None or (found.turn_based and not turn_based) or found.seconds <= 0:
        offered = paces.friendly_paces() if turn_based else paces.live_paces()
        names = ", ".join(p.name for p in offered)
        raise LobbyError(400, gettext("pace must be one of: %(paces)s.") % {"paces": names})
    return found


def checked_bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise LobbyError(400, gettext("%(field)s must be true or false.") % {"field": field})
    return value


def people_table(
    game: str,
    people: list[Any],
    *,
    seconds_per_move: int,
    rated: bool,
    bots: bool = True,
) -> Table:
    """A lobby table for `people` (users) in random seats; the other seats get `basic` bots
    (`bots`) or stay open (the table then waits for them). Everyone deals once, the default
    rules; it plays at once when every seat is taken. Call inside the transaction that decided
    who meets."""
    n_seats = registry.get_game(game).seats
    others = n_seats - len(people)
    specs = [SeatSpec(p.get_username(), user_id=p.pk) for p in people]
    if bots:
        specs += [
            SeatSpec(name, bot=name, bot_level=FILL_LEVEL) for name in bot_names(FILL_LEVEL, others)
        ]
    else:
        specs += [SeatSpec("") for _ in range(others)]
    _shuffle(specs)
    return create_table(
        game,
        specs,
        n_deals=n_seats,
        seconds_per_move=seconds_per_move,
        pace=paces.pace_of_seconds(seconds_per_move),
        rated=rated,
        origin=Table.Origin.LOBBY,
    )


def tell_started(table: Table, user_ids: list[int]) -> None:
    """After commit: each of these people's pages goes to the table (`table_started`)."""
    message = {"type": "table_started", "table": table.id, "url": table.get_absolute_url()}
    for user_id in user_ids:
        live.to_user(user_id, message)


def in_language_of(user: Any, words: Callable[[], str]) -> str:
    """`words()` translated in the user's profile language (their notices reach them there)."""
    language = getattr(user, "language", "") or settings.LANGUAGE_CODE
    with translation.override(language):
        return str(words())


def notice(user: Any, words: Callable[[], str], url: str = "") -> None:
    """After commit: a short notice on the user's open pages, in their language."""
    live.to_user(user.pk, {"type": "notice", "text": in_language_of(user, words), "url": url})
