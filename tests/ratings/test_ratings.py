"""Ratings follow every finished match: event fixtures, corrections, friendly tables."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from gameplay import api as gameplay
from games import catalogue
from league.models import Bye, Entry, Fixture, Player, RatedMatch, Rating, RatingHistory
from league.ratings import services
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.players import stamp_rating_at_entry
from league.services.results import record_result
from tests.league.conftest import record_for
from tests.ratings.conftest import T0, expected_ratings, fixture_matches, later, places

SHEETS = [{"deals": [{"scores": scores}]} for scores in ([20, 20, 35], [35, 20, 20], [20, 35, 20])]


def sheet_payouts(sheet: dict) -> list[int]:
    scored = catalogue.score_sheet("saichugen", {}, sheet, n_seats=3)
    return scored["totals"]["payouts"]


pytestmark = pytest.mark.django_db


def ratings_of(game: str) -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.filter(game=game)}


def history_of(game: str) -> list[tuple]:
    return list(
        RatingHistory.objects.filter(game=game)
        .order_by("at", "match_id", "seat")
        .values_list("match_id", "player_id", "seat", "rank", "mu", "sigma", "ordinal", "games")
    )


@pytest.fixture
def played(make_event, alice, django_capture_on_commit_callbacks):
    """A six-player Saichugen event with two rounds played, ratings updated after each result."""
    event = make_event("saichugen", players=6)
    with django_capture_on_commit_callbacks(execute=True):
        play_rounds(event, alice, 2)
    return event


def play_rounds(event, by, n: int) -> None:
    from tests.league.conftest import play_round

    for i in range(n):
        play_round(event, by, seed=i)


# --- event fixtures -------------------------------------------------------------------------------


def test_ratings_after_an_event_equal_openskills_own_computation(played):
    assert RatedMatch.objects.filter(game="saichugen").count() == 4
    assert ratings_of("saichugen") == expected_ratings(fixture_matches("saichugen"))
    rating = Rating.objects.filter(game="saichugen").first()
    assert rating.ordinal == rating.mu - 3 * rating.sigma


def test_every_match_leaves_a_history_row_per_player(played):
    rows = RatingHistory.objects.filter(game="saichugen")
    assert rows.count() == 4 * 3
    for player_id, (mu, sigma, games) in ratings_of("saichugen").items():
        last = rows.filter(player_id=player_id).order_by("at", "match_id").last()
        assert (last.mu, last.sigma, last.games) == (mu, sigma, games)


def test_recomputing_gives_the_same_numbers_as_the_incremental_updates(played, friendly, bob):
    friendly([bob, "Bot A", "Bot B"], [3, 0, -3])
    incremental, history = ratings_of("saichugen"), history_of("saichugen")
    call_command("recompute_ratings", "--game", "saichugen", stdout=StringIO())
    assert ratings_of("saichugen") == incremental
    assert [row[1:] for row in history_of("saichugen")] == [row[1:] for row in history]
    call_command("recompute_ratings", stdout=StringIO())
    assert ratings_of("saichugen") == incremental


def test_rating_again_changes_nothing(played):
    before = ratings_of("saichugen")
    assert services.rate_game("saichugen") == 0
    result = RatedMatch.objects.filter(game="saichugen").first().result
    assert services.rate_result(result.pk) == 0
    assert ratings_of("saichugen") == before
    assert RatingHistory.objects.filter(game="saichugen").count() == 12


def test_a_corrected_result_recomputes_the_ratings_from_that_match_on(
    played, alice, django_capture_on_commit_callbacks
):
    first_round = played.round_set.get(number=1)
    fixture = first_round.fixtures.order_by("number").first()
    old = RatedMatch.objects.get(fixture=fixture)
    old_ranks, before = old.ranks, ratings_of("saichugen")
    sheet = next(s for s in SHEETS if places(sheet_payouts(s)) != old_ranks)
    with django_capture_on_commit_callbacks(execute=True):
        corrected = record_result(
            fixture, by=alice, sheet=sheet, correction=True, reason="wrong sheet"
        )
    match = RatedMatch.objects.get(fixture=fixture)
    assert match.result_id == corrected.pk
    assert match.finished_at == old.finished_at  # re-rated in its original place
    assert match.ranks != old_ranks
    assert ratings_of("saichugen") != before
    assert ratings_of("saichugen") == expected_ratings(fixture_matches("saichugen"))
    payouts = corrected.scored["totals"]["payouts"]
    rows = RatingHistory.objects.filter(match=match).order_by("seat")
    assert [r.payout for r in rows] == payouts


def test_byes_change_no_rating(make_event, alice, django_capture_on_commit_callbacks):
    event = make_event("saichugen", players=7)
    with django_capture_on_commit_callbacks(execute=True):
        play_rounds(event, alice, 1)
    bye = Bye.objects.get(round__event=event)
    assert not Rating.objects.filter(player=bye.player).exists()
    assert Rating.objects.filter(game="saichugen").count() == 6


def forfeit_record(fixture, deals_done: int) -> dict:
    """The fixture's record cut short in deal `deals_done` (0 = during the first deal)."""
    record = record_for(fixture)
    del record["deals"][deals_done + 1 :]
    del record["deals"][deals_done]["actions"][5:]
    return record


def test_a_forfeit_counts_only_once_a_deal_was_completed(
    make_event, alice, django_capture_on_commit_callbacks
):
    event = make_event("saichugen", players=6, deals_per_match=2)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    early, late = round_.fixtures.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        record_result(early, by=alice, record=forfeit_record(early, 0), forfeited_seats=[0])
        record_result(late, by=alice, record=forfeit_record(late, 1), forfeited_seats=[0])
    assert not RatedMatch.objects.get(fixture=early).counts
    assert not RatingHistory.objects.filter(match__fixture=early).exists()
    counted = RatedMatch.objects.get(fixture=late)
    assert counted.counts
    assert counted.ranks[0] == 3  # the forfeiter finishes last
    assert RatingHistory.objects.filter(match=counted).count() == 3


# --- friendly tables ------------------------------------------------------------------------------


def test_a_rated_friendly_table_rates_people_and_bots(friendly, users):
    ann, ben = users(2)
    friendly([ann, ben, "Mediana bot"], [4, -2, -2], at=T0)
    friendly(["Mediana bot", ann, ben], [2, 2, -4], at=later(T0, 8 * 24 * 60))  # no repeat
    ann_p, ben_p = Player.objects.get(user=ann), Player.objects.get(user=ben)
    bot = Player.objects.get(name="Mediana bot")
    assert bot.is_bot
    expected = expected_ratings(
        [([ann_p.pk, ben_p.pk, bot.pk], [4, -2, -2]), ([bot.pk, ann_p.pk, ben_p.pk], [2, 2, -4])]
    )
    assert ratings_of("saichugen") == expected


def test_the_same_table_announced_twice_is_rated_once(friendly, users):
    ann, ben = users(2)
    friendly([ann, ben, "Bot A"], [4, -2, -2], ref="t-1")
    friendly([ann, ben, "Bot A"], [4, -2, -2], ref="t-1")
    assert RatedMatch.objects.count() == 1
    assert Rating.objects.get(player__user=ann).games == 1


def test_unrated_tables_and_event_tables_are_not_rated_as_friendlies(friendly, users, played):
    ann, ben = users(2)
    before = ratings_of("saichugen")
    friendly([ann, ben, "Bot A"], [4, -2, -2], rated=False)
    fixture = Fixture.objects.filter(round__event=played).first()
    Fixture.objects.filter(pk=fixture.pk).update(table_ref="online-7")
    friendly([ann, ben, "Bot A"], [4, -2, -2], ref="online-7")
    assert ratings_of("saichugen") == before
    assert not RatedMatch.objects.filter(fixture__isnull=True).exists()


def test_a_persons_name_never_becomes_a_bot(friendly, users):
    (ann,) = users(1)
    person = Player.objects.create(name="Rocco")
    friendly([ann, "Rocco", "Bot B"], [4, -2, -2])
    person.refresh_from_db()
    assert not person.is_bot
    assert not Rating.objects.filter(player=person).exists()
    assert Player.objects.get(name="Rocco [bot]").is_bot


def test_a_match_arriving_late_is_rated_in_its_place(friendly, users):
    ann, ben, cid = users(3)
    friendly([ann, ben, "Bot A"], [4, -2, -2], at=later(T0, 10))
    friendly([ann, cid, "Bot A"], [-4, 2, 2], at=later(T0, 20))
    friendly([ben, cid, "Bot A"], [0, 3, -3], at=later(T0, 15))  # finished earlier, told later
    incremental = ratings_of("saichugen")
    ids = {u: Player.objects.get(user=u).pk for u in (ann, ben, cid)}
    bot = Player.objects.get(name="Bot A").pk
    assert incremental == expected_ratings(
        [
            ([ids[ann], ids[ben], bot], [4, -2, -2]),
            ([ids[ben], ids[cid], bot], [0, 3, -3]),
            ([ids[ann], ids[cid], bot], [-4, 2, 2]),
        ]
    )
    call_command("recompute_ratings", "--game", "saichugen", stdout=StringIO())
    assert ratings_of("saichugen") == incremental


def test_a_friendly_forfeit_in_the_first_deal_is_not_rated(friendly, users):
    ann, ben = users(2)
    friendly([ann, ben, "Bot A"], [0, 0, 0], complete=False, forfeited=[1])
    assert RatedMatch.objects.get().counts is False
    assert not Rating.objects.exists()
    friendly([ann, ben, "Bot A"], [2, 2, -4], deals=2, complete=False, forfeited=[1])
    history = {h.seat: h.rank for h in RatingHistory.objects.all()}
    assert history == {0: 1, 1: 3, 2: 2}


def test_each_game_has_its_own_rating(friendly, users):
    ann, ben, cid, dan = users(4)
    friendly([ann, ben, cid], [4, -2, -2], game="saichugen")
    friendly([ann, ben, cid, dan], [36, 36, -36, -36], game="mediatore")
    assert set(Rating.objects.filter(player__user=ann).values_list("game", flat=True)) == {
        "saichugen",
        "mediatore",
    }
    # Mediatore ranks individuals by payout: the two winners share first place.
    ranks = dict(RatingHistory.objects.filter(game="mediatore").values_list("seat", "rank"))
    assert ranks == {0: 1, 1: 1, 2: 3, 3: 3}


# --- rating at entry ------------------------------------------------------------------------------


def test_an_entry_gets_the_rating_the_player_had_when_entering(friendly, users, alice, client):
    (ann,) = users(1)
    friendly([ann, "Bot A", "Bot B"], [4, -2, -2])
    player = Player.objects.get(user=ann)
    event = event_services.create_event(
        alice, name="Spring cup", game="saichugen", rounds=2, deals_per_match=1
    )
    event_services.publish_event(event, by=alice)
    entry = event_services.add_entry(event, player, by=alice)
    rating = Rating.objects.get(player=player, game="saichugen")
    # Until add_entry stamps it, the event page shows the rating of that moment from history.
    page = client.get(event.get_absolute_url()).content.decode()
    assert f"{rating.ordinal:.2f}" in page
    assert stamp_rating_at_entry(entry) == rating.ordinal
    assert Entry.objects.get(pk=entry.pk).rating_at_entry == rating.ordinal
    friendly([ann, "Bot A", "Bot B"], [4, -2, -2])
    stamp_rating_at_entry(entry)  # stamps once: later matches do not move it
    assert Entry.objects.get(pk=entry.pk).rating_at_entry == rating.ordinal


@pytest.mark.django_db(transaction=True)
def test_a_real_rated_bot_table_is_rated_when_gameplay_announces_it():
    ref = gameplay.start_table(
        "three_five_eight", seats=["Bot A", "Bot B", "Bot C"], n_deals=1, seed=3, rated=True
    )
    assert gameplay.table_result(ref) is not None
    match = RatedMatch.objects.get(table_ref=ref)
    assert match.rated_at is not None
    bots = Player.objects.filter(name__in=["Bot A", "Bot B", "Bot C"], is_bot=True)
    assert Rating.objects.filter(player__in=bots, game="three_five_eight").count() == 3
    unrated = gameplay.start_table(
        "three_five_eight", seats=["Bot A", "Bot B", "Bot C"], n_deals=1, seed=4
    )
    assert gameplay.table_result(unrated) is not None
    assert not RatedMatch.objects.filter(table_ref=unrated).exists()


def test_a_rating_whose_task_was_lost_is_made_by_the_sweep(make_event, alice):
    # No on_commit callbacks run in this test: exactly what a lost task leaves behind.
    event = make_event("saichugen", players=6)
    play_rounds(event, alice, 1)
    assert not RatingHistory.objects.exists()
    assert services.sweep_ratings(grace_seconds=3600) == 0  # too recent: its task may still come
    assert services.sweep_ratings(grace_seconds=0) == 2  # both tables of the round
    assert ratings_of("saichugen") == expected_ratings(fixture_matches("saichugen"))
    assert services.sweep_ratings(grace_seconds=0) == 0
    fixture = Fixture.objects.filter(round__event=event).first()
    record_result(fixture, by=alice, record=record_for(fixture, 9), correction=True, reason="typo")
    assert services.sweep_ratings(grace_seconds=0) >= 1  # the correction, and what followed it
    assert ratings_of("saichugen") == expected_ratings(fixture_matches("saichugen"))


@pytest.mark.django_db(transaction=True)
def test_a_rated_table_whose_announcement_failed_is_rated_by_the_sweep(monkeypatch):
    """The table's task was lost (its process died): the next sweep notes the table from
    gameplay's own list and rates it, once."""
    from league import finished_tables, queue

    monkeypatch.setattr(queue, "finish_table", lambda table_ref: None)
    ref = gameplay.start_table(
        "three_five_eight", seats=["Bot A", "Bot B", "Bot C"], n_deals=1, seed=3, rated=True
    )
    assert gameplay.table_result(ref) is not None
    assert not RatedMatch.objects.filter(table_ref=ref).exists()
    finished_tables.sweep(grace_seconds=0)
    services.sweep_ratings(grace_seconds=0)
    assert RatedMatch.objects.get(table_ref=ref).rated_at is not None
    bots = Player.objects.filter(name__in=["Bot A", "Bot B", "Bot C"], is_bot=True)
    assert Rating.objects.filter(player__in=bots, game="three_five_eight", games=1).count() == 3
    finished_tables.sweep(grace_seconds=0)
    services.sweep_ratings(grace_seconds=0)
    assert RatedMatch.objects.filter(table_ref=ref).count() == 1
    assert Rating.objects.filter(player__in=bots, games=1).count() == 3
