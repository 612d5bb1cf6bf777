"""Finding and making players: the one place that knows how players and bot players are named.

Entries (`enter_player`), round plans (bot seats) and the ratings (the seats of a friendly
table) all come here, so a player is found or made, and a bot named, the same way everywhere.
The rule for bots: a bot takes a name only if no person has it, and otherwise the next one on
its list, because any organizer may enter a person called "Bot 2" and that must not stop every
event (or table) from filling its bot seats.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import count
from typing import Any

from django.db import IntegrityError, transaction

from league.errors import LeagueError
from league.models import Entry, Event, Player, Rating

BOT_PREFIX = "Bot"


def player_by_id(player_id: int) -> Player:
    """The player with this id, or a LeagueError (an id out of range is simply not there)."""
    player = Player.objects.filter(pk=player_id).first() if 0 < player_id < 2**63 else None
    if player is None:
        raise LeagueError(f"there is no player {player_id}")
    return player


def player_named(name: str | None) -> tuple[Player, bool]:
    """The player called `name` (surrounding blanks ignored), made if nobody has the name yet;
    and whether it was made. The caller decides whether an existing player may be used."""
    name = (name or "").strip()
    if not name:
        raise LeagueError("a player needs a name")
    # get_or_create re-reads the row if another process creates it at the same moment.
    return Player.objects.get_or_create(name=name)


def player_for_user(user: Any) -> Player:
    """The league player of a user account, made on first use (named after the account, with
    "-2", "-3", … if a player has that name already)."""
    for _ in range(5):
        player = Player.objects.filter(user=user).first()
        if player:
            return player
        name, n = user.get_username(), 2
        while Player.objects.filter(name=name).exists():
            name, n = f"{user.get_username()}-{n}", n + 1
        try:
            # A savepoint: two tables of this account may finish at once, and the loser of the
            # race (on the user or on the name) looks again instead of failing its caller.
            with transaction.atomic():
                return Player.objects.create(name=name, user=user)
        except IntegrityError:
            continue
    raise IntegrityError(f"could not make a player for {user.get_username()!r}")


# --- bots -------------------------------------------------------------------------------------


def bots_named(candidates: Iterable[str], wanted: int) -> list[Player]:
    """`wanted` distinct bot players, taking the candidate names in order and skipping any a
    person has; each is made on first use. `candidates` must not run out (pass an endless one).
    """
    bots: list[Player] = []
    names = iter(candidates)
    while len(bots) < wanted:
        # get_or_create re-reads the row if another process creates it at the same moment.
        player, _ = Player.objects.get_or_create(name=next(names), defaults={"is_bot": True})
        if player.is_bot:
            bots.append(player)
    return bots


def numbered_bot_names() -> Iterator[str]:
    """The names of the bots that fill a round's leftover seats: "Bot 1", "Bot 2", …"""
    return (f"{BOT_PREFIX} {n}" for n in count(1))


def seat_bot_names(name: str) -> Iterator[str]:
    """A table seat's bot ("Bot A"): its own name, then "<name> [bot]", "<name> [bot 3]", …"""
    name = name.strip() or BOT_PREFIX
    yield name
    yield f"{name} [bot]"
    for n in count(3):
        yield f"{name} [bot {n}]"


def bot_players(wanted: int) -> list[Player]:
    """`wanted` distinct bot players for a round's bot seats ("Bot 1", "Bot 2", …)."""
    return bots_named(numbered_bot_names(), wanted)


def bot_player(name: str) -> Player:
    """The bot player for a table seat's bot called `name` (see `seat_bot_names`)."""
    return bots_named(seat_bot_names(name), 1)[0]


# --- the rating a player enters with ------------------------------------------------------------


def stamp_rating_at_entry(entry: Entry) -> float | None:
    """Store the player's current rating in the event's game as the entry's rating at entry
    (the displayed ordinal; None while unrated). Call it right after creating the entry.

    Here rather than in league.ratings: entering is a service the ratings build on (they read
    who played), so the entry reads the stored rating itself instead of importing the ratings.
    """
    game = Event.objects.filter(pk=entry.event_id).values_list("game", flat=True).get()
    ordinal = (
        Rating.objects.filter(player_id=entry.player_id, game=game)
        .values_list("ordinal", flat=True)
        .first()
    )
    if ordinal is not None:
        Entry.objects.filter(pk=entry.pk, rating_at_entry__isnull=True).update(
            rating_at_entry=ordinal
        )
        entry.rating_at_entry = ordinal
    return ordinal
