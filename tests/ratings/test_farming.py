"""Farming a rating with a second account (issue "Trust II").

The audit: mallory made a second account, sat both at a rated friendly table with a bot, and
had the second account resign after one deal — ten times: from 0 to the top of the board. Now a
friendly table counts only when every account at it has a verified e-mail address or is old and
seasoned (league.ratings.eligibility), and the same accounts' tables within the window weigh 1,
1/2, 1/4, … (league.ratings.compute.repeat_weight).

ann is an honest player with a verified address who beats the bots now and then.
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from allauth.account.models import EmailAddress
from django.core.management import call_command
from django.utils import timezone

from gameplay.models import Seat, Table
from league.models import Player, RatedMatch, Rating, RatingHistory
from league.ratings.eligibility import unvouched_accounts
from tests.league.conftest import play_round
from tests.ratings.conftest import T0, expected_ratings, fixture_matches, later

pytestmark = pytest.mark.django_db

GAME = "saichugen"
# The second account resigns after the first deal: a forfeit, the bot plays its seat out.
RESIGNED = {"forfeited": [1], "deals": 2}


def farm(friendly, main, second, times: int = 10, start=T0, bot: str = "Bot A") -> None:
    """The audit's farm: main and second at a rated table with a bot, second resigning."""
    for n in range(times):
        friendly([main, second, bot], [6, -4, -2], at=later(start, 10 * n), **RESIGNED)


def board() -> list[int]:
    """Player ids of the game's whole board, best first (provisional players too)."""
    return list(Rating.objects.filter(game=GAME).values_list("player_id", flat=True))


def player(user) -> Player:
    return Player.objects.get(user=user)


def weights() -> list[float]:
    return list(RatedMatch.objects.order_by("finished_at", "id").values_list("weight", flat=True))


@pytest.fixture
def ann(friendly, users):
    """An honest player on top of the board: three wins against the bots, days apart."""
    (ann,) = users(1, prefix="ann")
    for day in range(3):
        friendly([ann, "Bot A", "Bot B"], [4, -2, -2], at=later(T0, -60 * 24 * (30 - 10 * day)))
    return ann


def seasoned(user, tables: int, *, days: int = 8, resigned: bool = False) -> None:
    """Make `user` `days` old, with `tables` finished tables behind it (held, or resigned)."""
    type(user).objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days))
    for _ in range(tables):
        table = Table.objects.create(
            game=GAME, status=Table.Status.FINISHED, finished_at=timezone.now() - timedelta(1)
        )
        held = {"resigned_user": user} if resigned else {"user": user}
        Seat.objects.create(table=table, number=0, name=user.username, **held)


# --- the cheap door: new accounts ----------------------------------------------------------------


def test_the_audits_farm_with_two_new_accounts_rates_nobody(friendly, users, ann):
    mallory, second = users(2, prefix="mallory", verified=False)
    top = board()
    farm(friendly, mallory, second)
    assert RatedMatch.objects.filter(counts=False).count() == 10
    assert board() == top  # nobody moved: not mallory, not her second account, not the bot
    assert board()[0] == player(ann).pk


def test_one_new_account_at_the_table_is_enough_to_keep_it_out(friendly, users):
    verified, new = users(1, prefix="v") + users(1, prefix="n", verified=False)
    friendly([verified, new, "Bot A"], [6, -4, -2])
    assert RatedMatch.objects.get().counts is False
    assert not Rating.objects.exists()


def test_a_verified_or_seasoned_account_counts_fully(friendly, users):
    verified, old, young, quitter, green = users(1, prefix="v") + users(
        4, prefix="u", verified=False
    )
    seasoned(old, 10)
    seasoned(young, 10, days=6)  # young: ten tables in six days
    seasoned(quitter, 10, resigned=True)  # resigned every one of them
    seasoned(green, 9)  # one table short
    now = timezone.now()
    ids = [u.pk for u in (verified, old, young, quitter, green)]
    assert unvouched_accounts(ids, now) == {young.pk, quitter.pk, green.pk}
    friendly([verified, old, "Bot A"], [6, -4, -2], at=now)
    match = RatedMatch.objects.get()
    assert match.counts and match.weight == 1
    assert Rating.objects.get(player__user=old).games == 1


def test_bots_hold_no_account_and_need_nothing(friendly, users):
    (ann,) = users(1)
    friendly([ann, "Bot A", "Bot B"], [4, -2, -2])
    friendly(["Bot A", "Bot B", "Bot C"], [4, -2, -2])
    assert RatedMatch.objects.filter(counts=True).count() == 2


def test_an_address_verified_later_counts_from_the_next_table_on_never_backwards(friendly, users):
    mallory, second = users(2, prefix="mallory", verified=False)
    farm(friendly, mallory, second, times=3)
    for user in (mallory, second):
        EmailAddress.objects.create(user=user, email=f"{user}@example.org", verified=True)
    friendly([mallory, second, "Bot A"], [6, -4, -2], at=later(T0, 60), **RESIGNED)
    assert list(RatedMatch.objects.order_by("finished_at").values_list("counts", flat=True)) == [
        False,
        False,
        False,
        True,
    ]
    stored = {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert stored[player(mallory).pk][2] == 1
    call_command("recompute_ratings", "--game", GAME, stdout=StringIO())
    assert {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()} == stored


def test_brand_new_accounts_count_in_an_organizers_event_but_not_at_a_friendly_table(
    make_event, alice, friendly, users, django_capture_on_commit_callbacks
):
    """The organizer who runs a rated event vouches for whom it seats, and a club's players
    meet again and again by design: neither rule applies to event matches."""
    event = make_event(GAME, players=3)
    newcomers = users(3, prefix="club", verified=False)
    for entrant, user in zip(Player.objects.filter(entries__event=event), newcomers):
        Player.objects.filter(pk=entrant.pk).update(user=user)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event, alice, seed=0)
        play_round(event, alice, seed=1)  # the same three again, minutes later
    matches = RatedMatch.objects.filter(fixture__round__event=event)
    assert [(m.counts, m.weight) for m in matches] == [(True, 1.0), (True, 1.0)]
    event_ratings = {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert event_ratings == expected_ratings(fixture_matches(GAME))
    friendly([*newcomers[:2], "Bot A"], [6, -4, -2])
    assert RatedMatch.objects.get(fixture__isnull=True).counts is False


# --- repeated tables of the same accounts ---------------------------------------------------------


def test_ten_tables_of_the_same_two_verified_accounts_weigh_less_and_less(
    friendly, users, ann, without_fair_play_flags
):
    mallory, second = users(2, prefix="mallory")
    farm(friendly, mallory, second, bot="Bot C")
    assert weights()[3:] == [0.5**k for k in range(10)]  # after ann's three
    ids = [player(mallory).pk, player(second).pk, Player.objects.get(name="Bot C").pk]
    farmed = expected_ratings([(ids, [6, -4, -2], 0.5**k) for k in range(10)])
    unweighted = expected_ratings([(ids, [6, -4, -2])] * 10)
    two_tables = expected_ratings([(ids, [6, -4, -2])] * 2)
    rating = Rating.objects.get(player__user=mallory)
    assert (rating.mu, rating.sigma, rating.games) == farmed[ids[0]]

    def ordinal(state: tuple[float, float, int]) -> float:
        return state[0] - 3 * state[1]

    # Ten tables are worth less than two: far from what they were worth before (about 22).
    assert rating.ordinal < ordinal(two_tables[ids[0]]) < ordinal(unweighted[ids[0]]) / 3
    assert board()[0] == player(ann).pk


def test_the_weight_starts_again_once_the_window_has_passed(friendly, users, settings):
    settings.RATING_REPEAT_WINDOW_DAYS = 7
    mallory, second = users(2, prefix="mallory")
    farm(friendly, mallory, second, times=3)
    farm(friendly, mallory, second, times=2, start=later(T0, 60 * 24 * 7 + 15))
    # A sliding window: the fourth table is less than 7 days after the third only, the fifth
    # after the fourth only.
    assert weights() == [1, 0.5, 0.25, 0.5, 0.5]
    farm(friendly, mallory, second, times=1, start=later(T0, 60 * 24 * 14 + 30))
    assert weights()[-1] == 1


def test_other_company_is_another_meeting_and_bots_are_not_company(friendly, users):
    ann, ben, cid = users(3)
    friendly([ann, ben, "Bot A"], [6, -4, -2], at=T0)
    friendly([ann, ben, "Bot B"], [6, -4, -2], at=later(T0, 1))  # another bot: the same people
    friendly([ann, ben, cid], [6, -4, -2], at=later(T0, 2))  # a third person: another set
    friendly([ann, "Bot A", "Bot B"], [6, -4, -2], at=later(T0, 3))  # alone against bots
    friendly([ann, "Bot A", "Bot B"], [6, -4, -2], at=later(T0, 4))
    assert weights() == [1, 0.5, 1, 1, 1]


def test_a_table_told_late_reweighs_the_later_ones_as_a_recompute_does(friendly, users):
    mallory, second = users(2, prefix="mallory")
    friendly([mallory, second, "Bot A"], [6, -4, -2], at=later(T0, 0))
    friendly([mallory, second, "Bot A"], [-4, 6, -2], at=later(T0, 20))
    friendly([mallory, second, "Bot A"], [-2, -4, 6], at=later(T0, 10))  # finished earlier
    ids = [player(mallory).pk, player(second).pk, Player.objects.get(name="Bot A").pk]
    in_order = [([6, -4, -2], 1), ([-2, -4, 6], 0.5), ([-4, 6, -2], 0.25)]
    expected = expected_ratings([(ids, payouts, weight) for payouts, weight in in_order])
    stored = {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert stored == expected
    history = list(RatingHistory.objects.order_by("at", "match_id", "seat").values_list())
    call_command("recompute_ratings", "--game", GAME, stdout=StringIO())
    assert {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()} == stored
    again = list(RatingHistory.objects.order_by("at", "match_id", "seat").values_list())
    assert [row[1:] for row in again] == [row[1:] for row in history]
    assert weights() == [1, 0.5, 0.25]
