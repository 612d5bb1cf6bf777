"""Bot accounts and built-in bots, modelled apart (lobby-api.md "Accounts", docs/accounts.md).

robo is a bot account (a program with an account): it carries the bot mark everywhere but is
entered and seated like a person. "Bot 1", "Bot A" are built-in bots: no account, keyed by
their level, seated as bot seats.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import Client

from gameplay.models import Seat as TableSeat
from league.errors import LeagueError
from league.models import Player
from league.profile import services as profile_services
from league.ratings.services import seat_players
from league.services import events as event_services
from league.services import players
from league.services import rounds as round_services
from league.services.standings import standings_rows

pytestmark = pytest.mark.django_db
User = get_user_model()


def account(name: str, *, bot: bool = False) -> tuple:
    user = User.objects.create_user(name, password="pw", is_bot_account=bot)
    return user, players.player_for_user(user)


def sign_up(client: Client, username: str, **extra: str):
    data = {"username": username, "email": "", "password1": "a long pass phrase"}
    data["password2"] = data["password1"]
    return client.post("/accounts/signup/", {**data, **extra})


def people_event(organizer, names_and_bots, **fields):
    """A published Saichugen event whose entrants all have accounts (so tables open online)."""
    event = event_services.create_event(
        organizer, name="Online cup", game="saichugen", rounds=1, deals_per_match=1, **fields
    )
    event_services.publish_event(event, by=organizer)
    event.refresh_from_db()
    entrants = []
    for name, bot in names_and_bots:
        _user, player = account(name, bot=bot)
        event_services.add_entry(event, player, by=organizer, checked_in=True)
        entrants.append(player)
    return event, entrants


# --- the two kinds -------------------------------------------------------------------------------


def test_a_bot_account_signed_up_as_such_has_the_mark_but_is_no_builtin_bot():
    sign_up(Client(), "robo", is_bot_account="on")
    player = Player.objects.get(user__username="robo")
    assert player.is_bot and player.is_bot_account
    assert not player.is_builtin_bot and player.bot_level == ""
    page = Client().get(player.get_absolute_url()).content.decode()
    assert 'title="bot account"' in page and "built-in bot" not in page


def test_builtin_bots_are_keyed_by_level_and_never_have_an_account():
    basic = players.bot_player("Bot A")
    assert (basic.is_builtin_bot, basic.bot_level, basic.user_id) == (True, "basic", None)
    random_bot = players.bot_player("Bot A", level="random")
    assert random_bot != basic and random_bot.bot_level == "random"
    assert random_bot.name == "Bot A [bot]"  # the name "Bot A" is the basic bot's
    assert players.bot_player("Bot A") == basic  # found again, not made twice
    user = User.objects.create_user("someone", password="pw")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(pk=basic.pk).update(user=user)


def test_a_bot_account_holding_a_bot_name_is_skipped_by_the_builtin_bots():
    user = User.objects.create_user("robo", password="pw", is_bot_account=True)
    Player.objects.create(name="Bot 1", user=user, is_bot=True)
    first, second = players.bot_players(2)
    assert [first.name, second.name] == ["Bot 2", "Bot 3"]
    assert Player.objects.get(name="Bot 1").user == user


def test_the_seats_of_a_friendly_table_map_to_bots_of_their_level():
    ann, _ = account("ann")
    seats = [
        {"seat": 0, "user_id": ann.pk, "bot": None},
        {"seat": 1, "user_id": None, "bot": "Bot A", "bot_level": "random"},
        {"seat": 2, "user_id": None, "bot": "Bot A", "bot_level": "basic"},
    ]
    person, rand, basic = seat_players(seats)
    assert person.user == ann
    assert (rand.bot_level, basic.bot_level) == ("random", "basic")
    assert seat_players(seats) == [person, rand, basic]  # the same players every time
    # A seat that names no level (an older announcement) is a basic bot.
    legacy = seat_players([{"seat": 0, "user_id": None, "bot": "Bot A"}])
    assert legacy[0].bot_level == "basic"


def test_two_bot_seats_of_one_table_are_two_players():
    same = [{"seat": n, "user_id": None, "bot": "Bot", "bot_level": "basic"} for n in range(3)]
    assert len({p.pk for p in seat_players(same)}) == 3


# --- seated as a person --------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_bot_account_is_entered_and_seated_as_a_person_and_marked_in_the_standings(alice):
    event, (_ana, robo, _cid, _dan) = people_event(
        alice, [("ana", False), ("robo", True), ("cid", False), ("dan", False)], leftover="bot"
    )
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    robo_seat = TableSeat.objects.get(user=robo.user)
    assert robo_seat.bot == "" and robo_seat.bot_level == ""  # its program plays the seat
    builtin = TableSeat.objects.filter(table_id__in=round_.fixtures.values("table_ref"))
    builtin = builtin.exclude(bot="")
    assert builtin.count() == 2 and set(builtin.values_list("bot_level", flat=True)) == {"basic"}
    bots = Player.objects.filter(seats__fixture__round=round_, bot_level="basic")
    assert bots.count() == 2 and not bots.filter(user__isnull=False).exists()
    rows = {r["player"]: r for r in standings_rows(event)}
    assert rows["robo"]["is_bot"] and not rows["ana"]["is_bot"]
    client = Client()
    standings = client.get(f"/events/{event.slug}/standings/").content.decode()
    # Robo, an entrant; the built-in bots join the standings with their first results.
    assert standings.count('title="bot"') == 1
    entries = client.get(event.get_absolute_url()).content.decode()
    assert entries.count('title="bot account"') == 1


# --- when the mark may change ---------------------------------------------------------------------


def profile_of(user, **changes):
    fields = {
        "name": user.player.name,
        "club": "",
        "country": "",
        "language": "en",
        "is_bot_account": user.is_bot_account,
    }
    return profile_services.update_profile(user, **{**fields, **changes})


def test_the_mark_follows_the_account_until_its_first_rated_game():
    user, player = account("robo")
    profile_of(user, is_bot_account=True)
    player.refresh_from_db()
    assert player.is_bot and User.objects.get(pk=user.pk).is_bot_account
    profile_of(user, is_bot_account=False)
    player.refresh_from_db()
    assert not player.is_bot


def test_the_mark_cannot_change_after_a_rated_game(monkeypatch):
    user, player = account("robo", bot=True)
    monkeypatch.setattr(profile_services, "has_rated_game", lambda p: p == player)
    with pytest.raises(LeagueError, match="cannot change any more"):
        profile_of(user, is_bot_account=False)
    player.refresh_from_db()
    assert player.is_bot and User.objects.get(pk=user.pk).is_bot_account


def test_after_a_rated_game_the_profile_shows_the_mark_fixed_and_a_post_keeps_it(monkeypatch):
    user, player = account("robo", bot=True)
    monkeypatch.setattr(profile_services, "has_rated_game", lambda p: p == player)
    client = Client()
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert "cannot change any more" in page
    fields = {"name": "robo", "club": "", "country": "", "language": "en"}
    client.post("/accounts/profile/", fields)  # the box unticked: a disabled field ignores it
    assert User.objects.get(pk=user.pk).is_bot_account
    player.refresh_from_db()
    assert player.is_bot


def test_an_account_entered_where_bot_accounts_are_refused_cannot_become_one(alice):
    event = event_services.create_event(
        alice, name="People only", game="saichugen", allow_bot_accounts=False
    )
    user, player = account("ana")
    event_services.add_entry(event, player, by=alice)
    with pytest.raises(LeagueError, match="People only"):
        profile_of(user, is_bot_account=True)
    assert not User.objects.get(pk=user.pk).is_bot_account
