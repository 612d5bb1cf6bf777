"""The public standings page shows 100 rows a page with overall ranks and finds a player's row.

A big event is stored row by row in bulk (like bench/standings.py): one round of 83 tables of
three, 249 players, so three pages of 100, 100 and 49 rows. The CSV export stays whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.urls import reverse

from league.models import Entry, Event, Fixture, Player, Result, Round, Seat, StandingsSnapshot
from league.pages.events import STANDINGS_PAGE_SIZE
from league.services.standings import standings_rows, touch_standings
from tests.language import text

pytestmark = pytest.mark.django_db


def page_of(number: int, pages: int) -> str:
    """The pager's "page 2 of 3" in the test language."""
    return text("page %(number)s of %(pages)s", number=number, pages=pages)


ROW = re.compile(r'<tr id="player-(\d+)"( class="found")?[^>]*><td>(=?\d+)</td>')


def spread(table: int) -> tuple[int, int, int]:
    """Zero-sum payouts that differ from table to table."""
    x, y = table % 7 - 3, table % 3 - 1
    return x, y, -x - y


def big_event(
    players: int = 249,
    tiebreaks: tuple[str, ...] = ("total_payouts", "lot"),
    payouts: Callable[[int], tuple[int, int, int]] = spread,
) -> Event:
    """A published event whose one round seats every player at tables of three, results in."""
    assert players % 3 == 0
    event = Event.objects.create(
        slug=f"big-{players}",
        name="Big open",
        game="saichugen",
        visibility=Event.Visibility.PUBLISHED,
        tiebreaks=list(tiebreaks),
        seed=7,
    )
    people = Player.objects.bulk_create(Player(name=f"big-{players}-{n}") for n in range(players))
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in people)
    round_ = Round.objects.create(event=event, number=1, status=Round.Status.PUBLISHED)
    fixtures = Fixture.objects.bulk_create(
        Fixture(round=round_, number=t) for t in range(players // 3)
    )
    Seat.objects.bulk_create(
        Seat(fixture=f, number=n, player=people[3 * t + n])
        for t, f in enumerate(fixtures)
        for n in range(3)
    )
    Result.objects.bulk_create(
        Result(fixture=f, version=1, source="sheet", scored=scored(payouts(t)))
        for t, f in enumerate(fixtures)
    )
    return event


def scored(pay: tuple[int, ...]) -> dict:
    """What score_record stores for a one-deal match with these payouts."""
    return {
        "game": "saichugen",
        "complete": True,
        "deals": [{"dealer": 0, "scores": [0] * len(pay), "payouts": list(pay)}],
        "totals": {"scores": [0] * len(pay), "payouts": list(pay)},
        "winners": [n for n, x in enumerate(pay) if x == max(pay)],
    }


def url(event: Event, **query) -> str:
    base = reverse("league:standings", args=[event.slug])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def shown(response) -> list[tuple[int, str]]:
    """(player id, rank as printed) of every row on the page."""
    assert response.status_code == 200
    return [(int(pid), rank) for pid, _, rank in ROW.findall(response.content.decode())]


def highlighted(response) -> list[int]:
    return [int(pid) for pid, found, _ in ROW.findall(response.content.decode()) if found]


@pytest.fixture
def event() -> Event:
    return big_event()


def test_the_first_page_shows_the_first_hundred_rows_ranked_from_one(client, event):
    response = client.get(url(event))
    assert STANDINGS_PAGE_SIZE == 100
    assert shown(response) == [(pid, str(rank)) for pid, rank in ranking(event)[:100]]
    assert [rank for _, rank in shown(response)] == [str(n) for n in range(1, 101)]
    page = response.content.decode()
    assert page_of(1, 3) in page
    assert 'href="?page=2"' in page
    assert text("previous") not in page


def test_the_next_pages_continue_the_overall_ranks(client, event):
    second = shown(client.get(url(event, page=2)))
    assert [rank for _, rank in second] == [str(n) for n in range(101, 201)]
    assert second == [(pid, str(rank)) for pid, rank in ranking(event)[100:200]]
    last = client.get(url(event, page=3))
    assert [rank for _, rank in shown(last)] == [str(n) for n in range(201, 250)]
    assert page_of(3, 3) in last.content.decode()
    assert 'href="?page=2"' in last.content.decode()
    assert "next →" not in last.content.decode()  # no link past the last page


def test_a_shared_rank_straddles_the_page_break_without_restarting(client):
    # Every table pays (2, -1, -1): 83 winners share rank 1, the 166 others share rank 84.
    event = big_event(tiebreaks=(), payouts=lambda t: (2, -1, -1))
    first = [rank for _, rank in shown(client.get(url(event)))]
    assert first == ["=1"] * 83 + ["=84"] * 17
    assert [rank for _, rank in shown(client.get(url(event, page=2)))] == ["=84"] * 100


def test_a_page_out_of_range_gives_the_last_page_and_a_bad_one_the_first(client, event):
    last = shown(client.get(url(event, page=3)))
    assert shown(client.get(url(event, page=99))) == last
    assert shown(client.get(url(event, page=0))) == last  # Paginator.get_page: EmptyPage
    assert shown(client.get(url(event, page="abc"))) == shown(client.get(url(event)))


def test_player_opens_the_page_holding_the_row_and_highlights_it(client, event):
    rows = standings_rows(event)
    for index in (0, 99, 100, 150, 248):
        target = rows[index]["player_id"]
        response = client.get(url(event, player=target))
        on_page = [pid for pid, _ in shown(response)]
        assert target in on_page
        assert on_page[0] == rows[index // 100 * 100]["player_id"]
        assert highlighted(response) == [target]
        assert page_of(index // 100 + 1, 3) in response.content.decode()


def test_player_wins_over_page_and_an_unknown_player_is_said_so(client, event):
    target = standings_rows(event)[150]["player_id"]
    assert highlighted(client.get(url(event, player=target, page=3))) == [target]
    outsider = Player.objects.create(name="not entered")
    response = client.get(url(event, player=outsider.pk, page=2))
    assert highlighted(response) == []
    assert page_of(2, 3) in response.content.decode()
    missing = text("Player %(not_found)s is not in these standings.", not_found=outsider.pk)
    assert missing in response.content.decode()
    assert highlighted(client.get(url(event, player="me"))) == []


def test_a_logged_in_player_finds_his_own_row(client, event, bob, charlie):
    mine = standings_rows(event)[150]["player_id"]
    Player.objects.filter(pk=mine).update(user=bob)
    client.force_login(bob)
    link = f'href="?player={mine}#player-{mine}"'
    assert link in client.get(url(event)).content.decode()
    response = client.get(url(event, player=mine))
    assert page_of(2, 3) in response.content.decode()
    assert highlighted(response) == [mine]
    client.force_login(charlie)  # logged in, but no player of this event
    assert "Find me" not in client.get(url(event)).content.decode()


def test_a_snapshot_behind_the_event_is_recomputed_before_paging(client, event):
    client.get(url(event))  # stores the snapshot
    last = standings_rows(event)[-1]["player_id"]
    seat = Seat.objects.get(player_id=last)
    pay = [-50, -50, -50]
    pay[seat.number] = 100
    Result.objects.filter(fixture=seat.fixture).update(scored=scored(tuple(pay)))
    touch_standings(event.pk)
    event.refresh_from_db()
    assert StandingsSnapshot.objects.get(event=event).version != event.standings_version
    response = client.get(url(event, player=last))
    assert page_of(1, 3) in response.content.decode()
    assert shown(response)[0] == (last, "1")
    assert highlighted(response) == [last]


def test_the_csv_keeps_every_row(client, event):
    csv = client.get(reverse("league:standings_csv", args=[event.slug])).content.decode()
    lines = csv.strip().splitlines()
    assert len(lines) == 1 + 249
    assert [line.split(",")[1] for line in lines[1:]] == [str(pid) for pid, _ in ranking(event)]


@pytest.mark.parametrize("players", [30, 249])
def test_every_page_uses_the_same_few_queries(client, bob, players, django_assert_max_num_queries):
    event = big_event(players)
    mine = standings_rows(event)[-1]["player_id"]
    Player.objects.filter(pk=mine).update(user=bob)
    urls = [url(event), url(event, page=2), url(event, page=99), url(event, player=mine)]
    # + session, user, the user's player, the header's bell (unread notices)
    for query_count, login in ((2, None), (6, bob)):
        if login:
            client.force_login(login)
        for address in urls:
            with django_assert_max_num_queries(query_count):
                assert client.get(address).status_code == 200


def ranking(event: Event) -> list[tuple[int, int]]:
    return [(row["player_id"], row["rank"]) for row in standings_rows(event)]
