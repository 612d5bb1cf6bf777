"""Farmed ratings held for review, and the moderator's decision (league.fairplay.review).

The audit (issue "Fair play"): one person with two accounts at a rated friendly table with a
bot, the second resigning after one deal, ten times. With verified addresses the eligibility
rule lets such tables count; the flags hold them so that nobody's rating moves until a
moderator has looked.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from league.errors import LeagueError
from league.fairplay import review
from league.fairplay.networks import network_digest
from league.models import ClientNetwork, FairPlayFlag, Player, RatedMatch, Rating
from league.profile.deletion import _delete
from tests.ratings.conftest import T0, expected_ratings, later

pytestmark = pytest.mark.django_db

GAME = "saichugen"
RESIGNED = {"forfeited": [1], "deals": 2}


def farm(friendly, main, second, times: int, start=T0) -> None:
    for n in range(times):
        friendly([main, second, "Bot A"], [6, -4, -2], at=later(start, 10 * n), **RESIGNED)


def pid(user) -> int:
    return Player.objects.get(user=user).pk


def ratings() -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}


def reviews() -> list[str]:
    return list(RatedMatch.objects.order_by("finished_at", "id").values_list("review", flat=True))


@pytest.fixture
def decide(django_capture_on_commit_callbacks):
    """A moderator's decision as the page makes it: the rating it queues runs after commit."""

    def run(flag_id: int, **kwargs) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            review.decide(flag_id, **kwargs)

    return run


@pytest.fixture
def decide_all(decide):
    def run(moderator, decision: str, reason: str) -> None:
        for flag in FairPlayFlag.objects.filter(decision=""):
            decide(flag.pk, by=moderator, decision=decision, reason=reason)

    return run


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_user("mod", password="pw", is_staff=True)


@pytest.fixture
def ann(friendly, users):
    """An honest player against the bots, a month before."""
    (ann,) = users(1, prefix="ann")
    friendly([ann, "Bot A", "Bot B"], [4, -2, -2], at=later(T0, -60 * 24 * 30))
    return ann


def test_the_audits_farm_is_held_and_moves_nobody(friendly, users, ann):
    mallory, second = users(2, prefix="mallory")
    before = ratings()
    farm(friendly, mallory, second, times=10)
    assert reviews() == [""] + ["held"] * 10
    assert ratings() == before  # not mallory, not her second account, not the bot
    flags = {(f.kind, f.player_a_id, f.player_b_id) for f in FairPlayFlag.objects.all()}
    low, high = sorted([pid(mallory), pid(second)])
    # Made a moment apart (as the audit's were): "together" names the link beside the play.
    assert flags == {("feeding", low, high), ("repeated", low, high), ("together", low, high)}
    feeding = FairPlayFlag.objects.get(kind="feeding")
    assert feeding.evidence == {"from": pid(second), "to": pid(mallory), "tables": 10}
    assert feeding.matches.count() == 10


def test_the_first_tables_rated_before_the_pattern_showed_are_taken_back(friendly, users, ann):
    mallory, second = users(2, prefix="mallory")
    before = ratings()
    farm(friendly, mallory, second, times=2)
    assert pid(mallory) in ratings()  # two tables are no pattern yet
    farm(friendly, mallory, second, times=1, start=later(T0, 30))
    assert reviews() == ["", "held", "held", "held"]
    assert ratings() == before


def test_voiding_rates_as_if_the_matches_never_were_and_a_recompute_agrees(
    friendly, users, ann, moderator, decide_all
):
    mallory, second = users(2, prefix="mallory")
    before = ratings()
    farm(friendly, mallory, second, times=4)
    decide_all(moderator, "voided", "one person, two accounts")
    flag = FairPlayFlag.objects.get(kind="feeding")
    assert (flag.decision, flag.decided_by, flag.reason) == (
        "voided",
        moderator,
        "one person, two accounts",
    )
    assert reviews() == [""] + ["voided"] * 4
    assert ratings() == before
    call_command("recompute_ratings", "--game", GAME, stdout=StringIO())
    assert ratings() == before
    assert reviews() == [""] + ["voided"] * 4  # a recompute does not flag them again


def test_clearing_counts_the_matches_at_their_repeat_weights_exactly(
    friendly, users, ann, moderator, decide_all
):
    mallory, second = users(2, prefix="mallory")
    farm(friendly, mallory, second, times=4)
    decide_all(moderator, "cleared", "brothers, checked")
    assert reviews() == [""] + ["cleared"] * 4
    bot = Player.objects.get(name="Bot A").pk
    bot_b = Player.objects.get(name="Bot B").pk
    ids = [pid(mallory), pid(second), bot]
    expected = expected_ratings(
        [([pid(ann), bot, bot_b], [4, -2, -2])] + [(ids, [6, -4, -2], 0.5**k) for k in range(4)]
    )
    assert ratings() == expected
    # Cleared is cleared: more of the same later is judged afresh, the cleared ones are not.
    farm(friendly, mallory, second, times=3, start=later(T0, 60))
    assert reviews() == [""] + ["cleared"] * 4 + ["held"] * 3


def test_a_match_another_open_flag_names_stays_held_until_that_one_is_decided(
    friendly, users, ann, moderator, decide, decide_all
):
    mallory, second = users(2, prefix="mallory")
    farm(friendly, mallory, second, times=5)
    feeding = FairPlayFlag.objects.get(kind="feeding")
    decide(feeding.pk, by=moderator, decision="cleared", reason="checked")
    assert reviews() == [""] + ["held"] * 5  # "repeated" and "together" are still open
    decide_all(moderator, "cleared", "checked")
    assert reviews() == [""] + ["cleared"] * 5


def test_only_a_moderator_decides_with_a_reason_and_only_once(
    friendly, users, ann, moderator, decide, decide_all
):
    mallory, second = users(2, prefix="mallory")
    farm(friendly, mallory, second, times=3)
    flag = FairPlayFlag.objects.get(kind="feeding")
    for by, decision, reason in [
        (mallory, "cleared", "I am innocent"),  # a player
        (moderator, "cleared", "  "),  # no reason
        (moderator, "forgotten", "why not"),  # no such decision
    ]:
        with pytest.raises(LeagueError):
            decide(flag.pk, by=by, decision=decision, reason=reason)
    flag.refresh_from_db()
    assert flag.decision == "" and reviews() == ["", "held", "held", "held"]
    decide_all(moderator, "voided", "farm")
    with pytest.raises(LeagueError):
        decide(flag.pk, by=moderator, decision="cleared", reason="changed my mind")
    assert reviews() == ["", "voided", "voided", "voided"]


def test_a_network_is_stored_as_a_keyed_hash_of_its_network_never_the_address(
    client, users, settings
):
    (ann,) = users(1, prefix="ann")
    client.post(
        "/accounts/login/",
        {"login": "ann0", "password": "pw"},
        REMOTE_ADDR="203.0.113.5",
    )
    (row,) = ClientNetwork.objects.filter(player__user=ann)
    assert row.digest == network_digest("203.0.113.77")  # the same /24
    assert row.digest != network_digest("203.0.114.5")
    assert "203.0.113" not in row.digest
    assert network_digest("2001:db8::1") == network_digest("2001:db8::ffff")  # the same /64
    settings.SECRET_KEY = "another key" * 5
    assert network_digest("203.0.113.5") != row.digest  # keyed: not a plain hash of the network


def test_a_deleted_account_keeps_its_flags_and_networks_for_the_moderators(friendly, users):
    mallory, second = users(2, prefix="mallory")
    farm(friendly, mallory, second, times=3)
    second_player = pid(second)
    ClientNetwork.objects.create(player_id=second_player, digest=network_digest("203.0.113.5"))
    _delete(second)
    player = Player.objects.get(pk=second_player)
    assert player.user is None and player.deleted_at is not None
    assert (
        FairPlayFlag.objects.filter(player_b=player).exists()
        or FairPlayFlag.objects.filter(player_a=player).exists()
    )
    assert ClientNetwork.objects.filter(player=player).count() == 1
