"""lobby-api.md "Ratings": a finished lobby table updates the ratings of everyone at it, bots
included, when it is rated, had a clock, and every human seat was taken by its own account;
random bots make a table casual; a resigned seat's forfeit counts against its person.

Here ana and ben have verified e-mail addresses, so the ratings trust their tables
(league.ratings.eligibility); the audit's farmer, two brand-new accounts, has none.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.utils import timezone

from gameplay import api as gameplay
from league.models import RatedMatch, Rating

from .conftest import create, join, leave, make_user, play_out

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "three_five_eight"


def verified(user: Any) -> Any:
    EmailAddress.objects.create(user=user, email=f"{user}@example.org", verified=True)
    return user


@pytest.fixture
def ana(ana: Any) -> Any:
    return verified(ana)


@pytest.fixture
def ben(ben: Any) -> Any:
    return verified(ben)


def ratings_of(game: str) -> dict[str, int]:
    """Player name -> rated games, for the game."""
    return dict(Rating.objects.filter(game=game).values_list("player__name", "games"))


@pytest.mark.usefixtures("match_cache")
def test_a_rated_lobby_table_of_accounts_with_a_clock_updates_everyones_rating(ana, ben):
    made = create(ana, game=GAME, bots=1, deals=1)  # rated, 30 s clock by default
    join(ben, made["table"])
    finished = play_out(made["table"])
    assert finished.status == "finished" and finished.rated
    match = RatedMatch.objects.get(table_ref=finished.id)
    assert match.rated_at is not None
    rated = ratings_of(GAME)
    assert (rated.pop("ana"), rated.pop("ben"), list(rated.values())) == (1, 1, [1])  # + the bot


def test_a_brand_new_account_at_the_table_keeps_it_out_of_the_ratings(ana):
    """The audit's second account: new, no verified address, no tables behind it."""
    second = make_user("mallory")
    made = create(ana, game=GAME, bots=1, deals=1)
    join(second, made["table"])
    finished = play_out(made["table"])
    assert finished.status == "finished" and finished.rated
    assert RatedMatch.objects.get(table_ref=finished.id).counts is False
    assert ratings_of(GAME) == {}


def test_random_bots_make_the_table_casual_and_nobody_is_rated(ana):
    made = create(ana, game="saichugen", bots=2, bot_level="random", rated=True, deals=1)
    leave(ana, made["table"])  # resign: the bots play it out at once
    assert not RatedMatch.objects.filter(table_ref=made["table"]).exists()
    assert ratings_of("saichugen") == {}


def test_a_casual_table_is_not_rated(ana):
    made = create(ana, game="saichugen", bots=2, rated=False, deals=1)
    leave(ana, made["table"])
    assert not RatedMatch.objects.exists()


def test_resigning_counts_as_a_forfeit_against_the_person_who_resigned(ana):
    made = create(ana, game="saichugen", bots=2, deals=1)
    leave(ana, made["table"])  # the basic bot plays ana's seat out, with the others
    match = RatedMatch.objects.get(table_ref=made["table"])
    assert match.forfeited_seats == [0]
    assert match.ranks[0] == max(match.ranks)  # a forfeit finishes last
    rated = ratings_of("saichugen")
    assert rated.pop("ana") == 1 and list(rated.values()) == [1, 1]  # and the two bots


def test_the_sweep_announces_a_resigned_seat_as_its_persons(ana):
    made = create(ana, game="saichugen", bots=2, deals=1)
    leave(ana, made["table"])
    now = timezone.now()
    [announced] = gameplay.finished_rated_tables(now - timedelta(hours=1), now)
    assert announced["seats"][0] == {"seat": 0, "user_id": ana.pk, "bot": None, "bot_level": None}
    # The bots are announced with their level: each level is rated as its own player.
    assert {s["bot_level"] for s in announced["seats"][1:]} == {"basic"}
    assert announced["forfeited_seats"] == [0]
    assert announced["result"]["forfeited"] == [0]


def test_each_bot_level_is_rated_as_its_own_player(ana, settings):
    settings.GAMEPLAY_BOT_SECONDS = {"strong": 0.01}  # the strong bots search, briefly
    for level in ("basic", "strong"):
        made = create(ana, game=GAME, bots=2, bot_level=level, deals=1)
        leave(ana, made["table"])  # the bots play it out
    rated = Rating.objects.filter(game=GAME, player__is_bot=True)
    by_level = {
        (r.player.name, r.player.bot_level, r.games) for r in rated.select_related("player")
    }
    assert by_level == {
        ("Basic bot 1", "basic", 1),
        ("Basic bot 2", "basic", 1),
        ("Strong bot 1", "strong", 1),
        ("Strong bot 2", "strong", 1),
    }


@pytest.mark.usefixtures("match_cache")
def test_a_rated_table_of_four_is_one_match_among_its_four_seats(ana, ben):
    """tables-of-four.md: ratings count the table as one match of four by total payout."""
    made = create(ana, game=GAME, seats=4, bots=2, deals=4)
    join(ben, made["table"])
    finished = play_out(made["table"])
    assert finished.status == "finished" and finished.rated
    match = RatedMatch.objects.get(table_ref=finished.id)
    assert match.rated_at is not None
    rated = ratings_of(GAME)
    assert (rated.pop("ana"), rated.pop("ben"), sorted(rated.values())) == (1, 1, [1, 1])
