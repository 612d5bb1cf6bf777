"""Finding and making players: the one place that knows how players and bot players are named.

Entries (`enter_player`), round plans (bot seats) and the ratings (the seats of a friendly
table) all come here, so a player is found or made, and a bot named, the same way everywhere.
Names are unique without regard to case (a database index), so every lookup by name is too;
and no new or renamed player may look like another (`lookalike`: the same confusable skeleton,
accounts.skeleton, kept on the player). A name is typed by the rule of `accounts.names` and
kept in NFC, so "Zoë" typed with a combining diaeresis finds the player "Zoë". A country is an
ISO 3166 code (`country_code`). An import finds and makes its players all at once
(`holders_of`, `make_players`): a fixed number of queries for any number of rows.

Built-in bots (`Player.is_builtin_bot`: a `bot_level`, no account) are keyed by their level and a
name that names no game (one player per bot across games, with a rating in each). A bot takes a
name only if no one else has it — a person, a bot account, or a built-in bot of another level —
and otherwise the next one on its list, because any organizer may enter a person called "Bot 2"
and that must not stop every event (or table) from filling its bot seats. Bot accounts are
accounts like any other here: `player_for_user` gives their player the bot mark.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import count
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext as _
from django_countries import countries

from accounts import names
from accounts.guests import guest_name_problem
from accounts.skeleton import name_skeleton
from games.core.bots.registry import DEFAULT_LEVEL
from league.errors import LeagueError
from league.models import Entry, Event, Player, Rating

BOT_PREFIX = "Bot"
# The level of the bots that fill an event's leftover seats (and of a seat that names none).
DEFAULT_BOT_LEVEL = DEFAULT_LEVEL
# The built-in bots as a filter (`Player.is_builtin_bot`); the constraint keeps them accountless.
BUILTIN_BOTS = ~Q(bot_level="")


def player_by_id(player_id: int) -> Player:
    """The player with this id, or a LeagueError (an id out of range is simply not there)."""
    player = Player.objects.filter(pk=player_id).first() if 0 < player_id < 2**63 else None
    if player is None:
        raise LeagueError(f"there is no player {player_id}")
    return player


def typed_name(text: str | None) -> str:
    """A name (a player's, a club's, an event's) as typed, tidied (NFC, no surrounding blanks);
    a LeagueError for a line break, a tab or an invisible character (accounts.names)."""
    text = names.tidy(text or "")
    problem = names.text_problem(text)
    if problem:
        raise LeagueError(problem)
    return text


def lookalike(name: str, *, exclude: Player | None = None) -> Player | None:
    """Another player whose name looks like `name` (the same `name_skeleton`: "ana" spelt
    with a Cyrillic a, and "ana"), or None; `exclude` is the player being renamed. One query.

    An account that has no player yet (staff, an account made in the admin or by a command)
    counts too: it gets its player under its user name on first use, so a look-alike taken
    before would push the owner aside ("organizer-2") and pass for them. Its name is held by
    an unsaved stand-in player. (Few accounts have no player: their skeletons are made here.)"""
    skeleton = name_skeleton(name)
    holders = Player.objects.filter(name_skeleton=skeleton)
    if exclude is not None:
        holders = holders.exclude(pk=exclude.pk)
    holder = holders.order_by("pk").first()
    if holder is not None:
        return holder
    accounts = get_user_model().objects.filter(player__isnull=True)
    if exclude is not None and exclude.user_id is not None:
        accounts = accounts.exclude(pk=exclude.user_id)
    folded = name.casefold()
    for username in accounts.order_by("pk").values_list("username", flat=True):
        if username.casefold() == folded or name_skeleton(username) == skeleton:
            return Player(name=username)
    return None


@dataclass(frozen=True)
class Holders:
    """Who holds a list of names: the players of the same name (in any case) and, for the
    others, a player or an account whose name looks like it (as `lookalike`)."""

    same: dict[str, Player]  # by the name's `.lower()`, as the unique index compares names
    similar: dict[str, Player]  # by the name as given


def holders_of(wanted: Collection[str]) -> Holders:
    """`lookalike` for many names (tidied) at once: two queries whatever their number."""
    lowered = {name.lower() for name in wanted}
    skeletons = {name: name_skeleton(name) for name in wanted}
    found = (
        Player.objects.annotate(lname=Lower("name"))
        .filter(Q(lname__in=lowered) | Q(name_skeleton__in=set(skeletons.values())))
        .order_by("pk")
    )
    same: dict[str, Player] = {}
    by_skeleton: dict[str, Player] = {}
    for player in found:
        if player.name.lower() in lowered:  # in Python: SQLite's lower() knows only ASCII
            same.setdefault(player.name.lower(), player)
        by_skeleton.setdefault(player.name_skeleton, player)
    others = [name for name in wanted if name.lower() not in same]
    similar = {n: by_skeleton[skeletons[n]] for n in others if skeletons[n] in by_skeleton}
    if len(similar) < len(others):
        # Accounts without a player yet hold their user names (as in `lookalike`).
        accounts = get_user_model().objects.filter(player__isnull=True).order_by("-pk")
        held: dict[str, str] = {}
        for username in accounts.values_list("username", flat=True):
            held[username.casefold()] = held[name_skeleton(username)] = username
        for name in others:
            username = held.get(name.casefold()) or held.get(skeletons[name])
            if name not in similar and username is not None:
                similar[name] = Player(name=username)
    return Holders(same=same, similar=similar)


@dataclass(frozen=True)
class NewPlayer:
    """A player to make (`make_players`): name tidied, country a code (`country_code`)."""

    name: str
    club: str = ""
    country: str = ""


def make_players(new: Sequence[NewPlayer]) -> list[Player]:
    """Make these players at once (the caller has checked that nobody holds or resembles their
    names: `holders_of`), in the caller's transaction; a LeagueError if another process took
    one of the names meanwhile (nothing is made)."""
    made = [
        Player(
            name=names.nfc(p.name),
            name_skeleton=name_skeleton(p.name),
            club=p.club,
            country=p.country,
        )
        for p in new
    ]
    try:
        with transaction.atomic():  # a savepoint: a name taken at this moment undoes them all
            return Player.objects.bulk_create(made)
    except IntegrityError:
        raise LeagueError(_("A name was taken by another player just now: try again.")) from None


def country_problem(text: str | None) -> str | None:
    """Why `text` is no country (an ISO 3166 code such as IT, in any case), or None."""
    code = (text or "").strip().upper()
    if not code or (len(code) == 2 and countries.alpha2(code) == code):
        return None
    return _(
        "%(country)s is not a country: give its two-letter ISO 3166 code, such as IT, DE or JP."
    ) % {"country": (text or "").strip()}


def country_code(text: str | None) -> str:
    """A country as kept: its ISO 3166 code in capitals ("it" → "IT"), or "" for none; a
    LeagueError for anything else ("XX", "Italy")."""
    problem = country_problem(text)
    if problem:
        raise LeagueError(problem)
    return (text or "").strip().upper()


def lookalike_problem(name: str, holder: Player) -> str:
    return _("The name %(name)s is too similar to an existing player's name (%(other)s).") % {
        "name": name,
        "other": holder.name,
    }


# A person's name may not pass for a bot's: the word "bot" (in any look-alike spelling, "B0t",
# "B\u043et" with a Cyrillic o) is kept for the bots, whose names all carry it ("Bot 1", "Strong
# bot 2", "Bot Bianca", "Ana [bot]").
BOT_WORD = re.compile(r"(?<![^\W_])bot(?![^\W_])")


def bot_word_problem(name: str) -> str | None:
    """Why a person may not be called `name` (it passes for a bot), or None."""
    if BOT_WORD.search(name_skeleton(name)):
        return _("Names with the word “bot” are kept for the bots.")
    return None


def player_named(name: str | None) -> tuple[Player, bool]:
    """The player called `name` (surrounding blanks ignored), made if nobody has the name yet;
    and whether it was made. The caller decides whether an existing player may be used. A new
    name that looks like another player's is refused (it would pass for them)."""
    name = typed_name(name)
    if not name:
        raise LeagueError("a player needs a name")
    for _attempt in range(3):
        player = Player.objects.filter(name__iexact=name).first()
        if player is not None:
            return player, False
        holder = lookalike(name)
        if holder is not None:
            raise LeagueError(lookalike_problem(name, holder))
        if problem := bot_word_problem(name):
            raise LeagueError(problem)
        if problem := guest_name_problem(name):
            raise LeagueError(problem)
        try:
            # A savepoint: another process may take the name (in any case) at the same moment,
            # and then its player is the one meant.
            with transaction.atomic():
                return Player.objects.create(name=name), True
        except IntegrityError:
            continue
    raise LeagueError(f"could not find or make a player called {name!r}")


def player_for_user(user: Any) -> Player:
    """The league player of a user account, made on first use (named after the account, with
    "-2", "-3", … if a player has that name already, in any case); a bot account's player
    carries the bot mark."""
    for _attempt in range(5):
        player = Player.objects.filter(user=user).first()
        if player:
            return player
        base = names.tidy(user.get_username())  # an account made in the admin may hold NFD
        name, n = base, 2
        while _held(name):
            name, n = f"{base}-{n}", n + 1
        try:
            # A savepoint: two tables of this account may finish at once, and the loser of the
            # race (on the user or on the name) looks again instead of failing its caller.
            with transaction.atomic():
                return Player.objects.create(
                    name=name, user=user, is_bot=bool(getattr(user, "is_bot_account", False))
                )
        except IntegrityError:
            continue
    raise IntegrityError(f"could not make a player for {user.get_username()!r}")


def _held(name: str) -> bool:
    """Whether a player has `name` (in any case) or one that looks like it."""
    same = Q(name__iexact=name) | Q(name_skeleton=name_skeleton(name))
    return Player.objects.filter(same).exists()


# --- bots -------------------------------------------------------------------------------------


def builtin_bot(name: str, level: str) -> Player | None:
    """The built-in bot called `name` at `level`, made on first use; None when someone else
    holds the name (in any case) or one that looks like it: a person, a bot account, a bot of
    another level."""
    for _attempt in range(3):
        player = Player.objects.filter(name__iexact=name).first()
        if player is not None:
            return player if player.bot_level == level else None
        if lookalike(name) is not None:
            return None
        try:
            # A savepoint: another process may make the same bot (or take the name) at once.
            with transaction.atomic():
                return Player.objects.create(name=name, is_bot=True, bot_level=level)
        except IntegrityError:
            continue
    return None


def bots_named(
    candidates: Iterable[str], wanted: int, level: str = DEFAULT_BOT_LEVEL
) -> list[Player]:
    """`wanted` distinct built-in bots at `level`, taking the candidate names in order and
    skipping any that someone else holds; each is made on first use. `candidates` must not run
    out (pass an endless one)."""
    bots: list[Player] = []
    names = iter(candidates)
    while len(bots) < wanted:
        player = builtin_bot(next(names), level)
        if player is not None and player not in bots:
            bots.append(player)
    return bots


def numbered_bot_names(level: str = DEFAULT_BOT_LEVEL) -> Iterator[str]:
    """The names of the bots that fill a round's leftover seats: "Bot 1", "Bot 2", … at the
    default level (the names existing data has), "Strong bot 1", "Random bot 1", … at another:
    each level is its own rated player, and one never takes another's name."""
    prefix = BOT_PREFIX if level == DEFAULT_BOT_LEVEL else f"{level.capitalize()} bot"
    return (f"{prefix} {n}" for n in count(1))


def seat_bot_names(name: str) -> Iterator[str]:
    """A table seat's bot ("Bot A"): its own name, then "<name> [bot]", "<name> [bot 3]", …"""
    name = name.strip() or BOT_PREFIX
    yield name
    yield f"{name} [bot]"
    for n in count(3):
        yield f"{name} [bot {n}]"


def bot_players(wanted: int, level: str = DEFAULT_BOT_LEVEL) -> list[Player]:
    """`wanted` distinct built-in bots at `level` for a round's bot seats ("Bot 1", "Bot 2",
    … at basic: `numbered_bot_names`)."""
    return bots_named(numbered_bot_names(level), wanted, level)


def bot_player(name: str, level: str = DEFAULT_BOT_LEVEL) -> Player:
    """The built-in bot at `level` for a table seat's bot called `name` (`seat_bot_names`)."""
    return bots_named(seat_bot_names(name), 1, level)[0]


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


def ratings_at_entry(game: str, player_ids: Iterable[int]) -> dict[int, float]:
    """`stamp_rating_at_entry` for many players at once: each rated player's current ordinal in
    `game` (the unrated are left out). One query."""
    rows = Rating.objects.filter(player_id__in=list(player_ids), game=game)
    return dict(rows.values_list("player_id", "ordinal"))
