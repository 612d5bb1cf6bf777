"""Finished tables of people are judged once for the collusion analytics, and staff alone read
the suspect pairs with their evidence."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from league.fairplay import collusion, judging
from league.models import JudgedTable, Player, RatedMatch, Rating, RatingHistory
from tests.gameplay.conftest import make_table, make_users
from tests.replay.conftest import play_out

pytestmark = pytest.mark.django_db

URL = "/admin/league/judgedtable/"


def test_a_finished_table_of_two_people_is_judged_once_for_their_seats_only():
    ana, ben, cleo = make_users("ana", "ben", "cleo")
    pa = Player.objects.create(name="ana", user=ana)
    pb = Player.objects.create(name="ben", user=ben)
    shared = play_out(make_table("schieberamsch", people=[ana, ben], bots=["b1"]))
    alone = play_out(make_table("schieberamsch", people=[cleo], bots=["b1", "b2"]))
    sides = play_out(make_table("mediatore", people=[ana, ben], bots=["b1", "b2"]))
    assert judging.sweep() == 2
    row = JudgedTable.objects.get(game="schieberamsch")
    assert row.table_ref == str(shared.id)
    assert row.players == [pa.pk, pb.pk, None]
    assert row.decisions and {e["seat"] for e in row.decisions} <= {0, 1}
    assert judging.sweep() == 0  # nothing twice
    assert judging.judge(str(alone.id)) is None  # one person: no pair to judge
    # A game of sides: each judged decision says who was whose partner in that deal.
    mine = JudgedTable.objects.get(game="mediatore")
    assert mine.table_ref == str(sides.id) and mine.players == [pa.pk, pb.pk, None, None]
    assert all(
        sorted(s for side in e["sides"] for s in side) == [0, 1, 2, 3] for e in mine.decisions
    )
    assert JudgedTable.objects.count() == 2


def leaning_tables(helper: Player, helped: Player, third: Player, n: int) -> None:
    """`n` judged one-deal tables at which `helper` gave to `helped` at the third's cost."""
    for t in range(n):
        JudgedTable.objects.create(
            table_ref=f"t{t}",
            game="saichugen",
            finished_at=timezone.now() - timedelta(hours=t),
            players=[helper.pk, helped.pk, third.pk],
            decisions=[{"deal": 0, "index": 3, "seat": 0, "cost": 1.0, "to": [-1.0, 1.5, -0.5]}],
        )


@pytest.fixture
def suspect_pair():
    mal, lory, vic = (Player.objects.create(name=n) for n in ("Mal", "Lory", "Vic"))
    leaning_tables(mal, lory, vic, collusion.MIN_DEALS + 10)
    return mal, lory, vic


def test_staff_read_the_pair_with_its_tables_decisions_and_to_whom_it_went(
    client, suspect_pair, django_user_model, django_assert_max_num_queries
):
    mal, lory, _vic = suspect_pair
    staff = django_user_model.objects.create_user("mod", password="pw", is_staff=True)
    client.force_login(staff)
    with django_assert_max_num_queries(10 + len(judging.judged_games())):  # a query a game
        html = client.get(URL).content.decode()
    assert f'data-pair="{mal.pk}-{lory.pk}"' in html
    assert "Mal for Lory" in html and "/tables/t0/replay/" in html
    assert "Lory +1.5" in html and "Vic -0.5" in html
    assert "Mediana staff" in html and "Django administration" not in html
    assert "/replay/?deal=0&amp;step=3" in html  # a decision opens the replay there
    assert "No rated matches of the pair" in html
    assert client.get(URL + "add/").status_code == 403


def rated(players: list[Player], first: Player, ago: int) -> None:
    """A rated saichugen match of `players` that `first` won."""
    ranks = [1 if p == first else 2 for p in players]
    at = timezone.now() - timedelta(days=ago)
    match = RatedMatch.objects.create(
        game="saichugen",
        finished_at=at,
        players=[p.pk for p in players],
        payouts=[10 if r == 1 else -5 for r in ranks],
        ranks=ranks,
        rated_at=at,
    )
    for seat, (p, rank) in enumerate(zip(players, ranks, strict=True)):
        RatingHistory.objects.create(
            match=match,
            player=p,
            game="saichugen",
            at=at,
            seat=seat,
            rank=rank,
            payout=0,
            mu=25,
            sigma=8,
            ordinal=1,
            ordinal_before=0,
            games=1,
        )


def test_staff_read_the_pairs_results_together_against_the_ratings(
    client, suspect_pair, django_user_model, django_assert_max_num_queries
):
    """Lory won 8 of 10 rated matches with Mal and 1 of 10 without, all rated alike: better
    with Mal than the ratings say; a voided match and one long ago are not counted."""
    mal, lory, vic = suspect_pair
    zed = Player.objects.create(name="Zed")
    for n in range(10):
        rated([mal, lory, vic], lory if n < 8 else vic, ago=n)
        rated([zed, lory, vic], lory if n < 1 else zed, ago=n)
    rated([mal, lory, vic], lory, ago=400)  # outside the days looked at
    rated([mal, lory, vic], lory, ago=1)
    RatedMatch.objects.filter(pk=RatedMatch.objects.latest("pk").pk).update(review="voided")
    for p in (mal, lory, vic, zed):
        Rating.objects.create(
            player=p, game="saichugen", mu=25, sigma=8, ordinal=1, last_played_at=timezone.now()
        )
    staff = django_user_model.objects.create_user("mod", password="pw", is_staff=True)
    client.force_login(staff)
    with django_assert_max_num_queries(13 + len(judging.judged_games())):
        html = " ".join(client.get(URL).content.decode().split())
    assert (
        "in 10 rated matches with Mal, Lory finished first 8 times (the ratings expected 3.3)"
        in html
    )
    assert "without: 1 of 10 rated matches (expected 3.3)" in html
    found = judging.results_together(
        "saichugen", [(mal.pk, lory.pk)], lambda r: [1 / len(r)] * len(r), (25.0, 8.0)
    )[mal.pk, lory.pk]
    assert found.with_helper.won == 8 and found.without.won == 1
    assert found.difference > 2.6


def test_players_and_outsiders_never_see_the_analytics(client, suspect_pair, django_user_model):
    assert client.get(URL).status_code == 302
    client.force_login(django_user_model.objects.create_user("mal", password="pw"))
    response = client.get(URL)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_a_report_about_a_suspect_shows_staff_the_pair(client, suspect_pair, django_user_model):
    from league.models import PlayerReport

    mal, lory, vic = suspect_pair
    vic.user = django_user_model.objects.create_user("vic", password="pw")
    vic.save()
    report = PlayerReport.objects.create(reporter=vic.user, player=mal, reason="cheating")
    client.force_login(django_user_model.objects.create_user("mod", password="pw", is_staff=True))
    page = client.get(f"/admin/league/playerreport/{report.pk}/change/").content.decode()
    assert "Mal → Lory" in page and f"{URL}#pair-saichugen-{mal.pk}-{lory.pk}" in page
    score = judging.suspects("saichugen")[0].score
    assert f"({score:.1f})" in page  # rounded as on the analytics page, not cut
    listing = client.get(URL).content.decode()
    assert f'id="pair-saichugen-{mal.pk}-{lory.pk}"' in listing
    assert "only over the deals in which the two were not partners" in " ".join(listing.split())
    # A judged table has no raw page: staff land on the analytics.
    first = JudgedTable.objects.first()
    response = client.get(f"{URL}{first.pk}/change/")
    assert response.status_code == 302 and response["Location"] == URL
    other = PlayerReport.objects.create(reporter=vic.user, player=vic, reason="cheating")
    page = client.get(f"/admin/league/playerreport/{other.pk}/change/").content.decode()
    assert "Mal → Lory" not in page


def test_the_embedded_servers_judging_process_knows_every_games_bots(settings):
    """In the embedded mode the judging runs in a spawned process, which must have the games'
    bot levels of its own (a walk found every table failing there: no 'basic' bot)."""
    from games.core.records import export_record
    from games.evaluate import chooser, play_table
    from games.transfers import record_transfers

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.FAIR_PLAY_JUDGE_BESIDE = True
    basic = chooser("saichugen", "basic")
    record = export_record(play_table("saichugen", "beside/1", [basic] * 3))
    assert judging._evaluate(record, [0, 1], 1) == record_transfers(record, [0, 1], rollouts=1)


def test_a_table_that_cannot_be_judged_is_kept_as_such_and_not_tried_again(
    client, monkeypatch, django_user_model
):
    ana, ben = make_users("ana", "ben")
    Player.objects.create(name="ana", user=ana)
    Player.objects.create(name="ben", user=ben)
    play_out(make_table("schieberamsch", people=[ana, ben], bots=["b1"]))

    def broken(*args, **kwargs):
        raise KeyError("no bot")

    monkeypatch.setattr(judging, "_evaluate", broken)
    assert judging.sweep() == 1 and judging.sweep() == 0
    row = JudgedTable.objects.get()
    assert row.decisions == [] and "KeyError" in row.error
    client.force_login(django_user_model.objects.create_user("mod", password="pw", is_staff=True))
    html = client.get(URL).content.decode()
    assert "One table could not be judged" in html and "No table judged yet." in html
