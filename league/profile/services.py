"""Profile writes: a player's name, club and country, the account's language, bot mark, token.

Every function acts on the given user's own account only, so authorization is the caller
having that user (the profile view passes `request.user`).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from accounts.guests import guest_name_problem, is_guest
from league.errors import LeagueError
from league.models import Entry, Player, RatingHistory
from league.services.players import (
    bot_word_problem,
    country_code,
    lookalike,
    lookalike_problem,
    player_for_user,
    typed_name,
)
from league.services.standings import touch_standings

NAME_MAX_LENGTH = Player._meta.get_field("name").max_length


def name_problem(name: str, *, player: Player | None = None, bot: bool = False) -> str | None:
    """Why `name` cannot be this player's (or a newcomer's) name, or None when it is free.

    Names are unique without regard to case (lobby-api.md; a database index says so too), and
    may not look like another player's (`players.lookalike`; one's own look-alike is no other).
    A name held by a player without an account stays theirs: only an organizer's invitation
    hands it over (league.services.claims). A person's new name may not carry the word "bot"
    (`players.bot_word_problem`); a bot account's (`bot`) may. `name` is tidied already
    (`typed_name`).
    """
    if len(name) > NAME_MAX_LENGTH:
        return _("A name has at most %(n)d characters.") % {"n": NAME_MAX_LENGTH}
    renamed = player is None or name.casefold() != player.name.casefold()
    if renamed and not bot and (problem := bot_word_problem(name)):
        return problem
    if renamed and (problem := guest_name_problem(name)):
        return problem
    holders = Player.objects.filter(name__iexact=name)
    if player is not None:
        holders = holders.exclude(pk=player.pk)
    holder = holders.first()
    if holder is None:
        similar = lookalike(name, exclude=player)
        return lookalike_problem(name, similar) if similar is not None else None
    if holder.user_id is None and not holder.is_builtin_bot and holder.deleted_at is None:
        return _(
            "A player called %(name)s already exists without an account. The name can be "
            "claimed only through an invitation from an organizer of their events."
        ) % {"name": holder.name}
    return _("The name %(name)s is taken.") % {"name": holder.name}


def clean_country(code: str) -> str:
    """An ISO 3166 two-letter code in capitals ("it" → "IT"), or "" for none: the players'
    rule (`players.country_code`), "XX" refused."""
    return country_code(code)


def has_rated_game(player: Player) -> bool:
    """Whether any rated match (event or friendly table) counted for this player."""
    return RatingHistory.objects.filter(player=player).exists()


def check_bot_mark_may_change(player: Player, is_bot_account: bool) -> None:
    """The bot mark is chosen at sign-up or before the first rated game, never after (the
    ratings of the people it played must not change meaning); and an account entered in an
    event that refuses bot accounts cannot become one."""
    if has_rated_game(player):
        raise LeagueError(
            _("The bot mark cannot change any more: this account has played a rated game.")
        )
    if is_bot_account:
        refusing = (
            Entry.objects.filter(player=player, event__allow_bot_accounts=False)
            .order_by("event__name")
            .values_list("event__name", flat=True)
        )
        names = list(refusing[:5])
        if names:
            raise LeagueError(
                _(
                    "You have entered events that do not allow bot accounts (%(events)s): "
                    "this account cannot become a bot account."
                )
                % {"events": ", ".join(names)}
            )


def update_profile(
    user: Any,
    *,
    name: str,
    club: str,
    country: str,
    language: str,
    is_bot_account: bool,
) -> Player:
    """Change the user's own profile, all of it or (on a LeagueError) none of it."""
    name, club = typed_name(name), typed_name(club)
    if not name:
        raise LeagueError(_("A player needs a name."))
    country = clean_country(country)
    if language not in get_user_model().Language.values:
        raise LeagueError(_("Choose one of the languages offered."))
    player = player_for_user(user)
    try:
        with transaction.atomic():
            # Lock the account's row: two saves of one profile apply one after the other, and
            # the bot mark is checked against the rated games as they stand under the lock.
            account = get_user_model().objects.select_for_update().get(pk=user.pk)
            player = Player.objects.select_for_update().get(pk=player.pk)
            problem = name_problem(name, player=player, bot=is_bot_account)
            if problem:
                raise LeagueError(problem)
            mark_changes = is_bot_account != account.is_bot_account
            if mark_changes:
                check_bot_mark_may_change(player, is_bot_account)
            player.name, player.club, player.country = name, club, country
            player.is_bot = is_bot_account  # the bot mark shown wherever the player is
            player.save(update_fields=["name", "club", "country", "is_bot"])
            account.language, account.is_bot_account = language, is_bot_account
            account.save(update_fields=["language", "is_bot_account"])
            if mark_changes:
                for event_id in Entry.objects.filter(player=player).values_list(
                    "event_id", flat=True
                ):
                    touch_standings(event_id)  # the standings show the mark
    except IntegrityError:
        # Another player took the same name (same case) between the check and the write.
        raise LeagueError(_("The name %(name)s is taken.") % {"name": name}) from None
    user.language, user.is_bot_account = language, is_bot_account
    return player


def check_not_guest(user: Any) -> None:
    """A guest has no API token (nor anything else a program would keep): they sign up first."""
    if is_guest(user):
        raise LeagueError(_("Guests have no API token: sign up to keep your account."))


def personal_token(user: Any) -> Token:
    """The account's API token (the same one `POST /api/token/` answers), made on first use."""
    check_not_guest(user)
    # get_or_create re-reads the row when a parallel first call inserted it first.
    token, _created = Token.objects.get_or_create(user=user)
    return token


def replace_token(user: Any) -> Token:
    """A new API token for the account; the old key stops working at once."""
    check_not_guest(user)
    with transaction.atomic():
        # Lock the account: two replacements at once would both delete, then both insert, and
        # the second insert would break the one-token-per-user rule.
        get_user_model().objects.select_for_update().get(pk=user.pk)
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)
