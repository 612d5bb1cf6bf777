"""A league round played by the day, to its standings (docs/league.md "Turn-based events",
docs/tables.md "Turn-based tables"): an organizer's Saichugen league with a two-days pace and
`on_timeout="forfeit"`, four people and leftover bots. Publishing round 1 opens turn-based tables;
the people move over simulated days, the bots at once; one person never moves, so after the
deadline and the grace the sweep applies the event's `on_timeout` (a forfeit on time). Every
table finishes, the round's results and the standings follow, and the people got one
`your_turn` notice a turn (the bots none)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model

from gameplay import clock as gameplay_clock
from gameplay.models import Action, Seat, Table
from gameplay.services import matches
from gameplay.services.clocks import sweep_clocks
from league.models import Fixture, Notice, Result
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.permissions import organizer_role
from league.services.players import player_for_user
from league.services.standings import standings_rows
from tests.gameplay.conftest import quick_tables  # noqa: F401  (fixture)

from .conftest import at, move

pytestmark = pytest.mark.django_db(transaction=True)

PACE_DAYS = 2
NAMES = ("ana", "ben", "cleo", "dario")


def account(name: str):
    user = get_user_model().objects.create_user(name, password="pw", email=f"{name}@example.org")
    player_for_user(user)
    return user


@pytest.fixture
def event(clock, quick_tables, settings):  # noqa: F811
    settings.GAMEPLAY_TURN_TIMEOUT_GRACE = 86400
    alice = account("alice")
    alice.user_permissions.add(organizer_role())
    alice = get_user_model().objects.get(pk=alice.pk)
    made = event_services.create_event(
        alice,
        name="League by the day",
        game="saichugen",
        rounds=1,
        deals_per_match=1,
        format="league",
        pace=f"{PACE_DAYS}-days",
        on_timeout="forfeit",
        leftover="bot",
    )
    event_services.publish_event(made, by=alice)
    for name in NAMES:
        event_services.add_entry(made, account(name).player, by=alice, checked_in=True)
    round_ = round_services.generate_round(made, by=alice)
    round_services.publish_round(round_, by=alice)
    made.refresh_from_db()
    return made


def people_at(table: Table) -> dict[int, int]:
    """Seat number → user id of the people (not bots) seated."""
    return {
        s.number: s.user_id
        for s in Seat.objects.filter(table=table)
        if s.user_id is not None and not s.bot
    }


def turns_from_log(table: Table, people: dict[int, int]) -> Counter:
    """The people's new turns, from the table's log replayed: after the deal and after every
    action, each person due now who was not due just before begins a turn (docs/tables.md: a
    turn that goes on over several decisions of the same person is one turn)."""
    match = matches.new_match(table)
    turns: Counter = Counter()
    before: set[int] = set()
    steps = Action.objects.filter(table=table).order_by("seq").values_list("seat", "action")
    for step in [None, *steps]:
        if step is not None:
            match.apply(*step)
        due = {n for n in match.to_act() if n in people}
        turns.update(people[n] for n in due - before)
        before = due
    return turns


def test_a_league_round_by_the_day_to_its_standings(event, clock):
    fixtures = list(Fixture.objects.filter(round__event=event).order_by("pk"))
    assert len(fixtures) == 2  # six seats: four people, two bots
    tables = [Table.objects.get(pk=f.table_ref) for f in fixtures]
    for table in tables:
        assert (table.pace, table.seconds_per_move) == (f"{PACE_DAYS}-days", PACE_DAYS * 86400)
        assert table.origin == Table.Origin.EVENT and gameplay_clock.is_turn_based(
            table.seconds_per_move
        )
        assert table.status == Table.Status.PLAYING
    seated = {t.id: people_at(t) for t in tables}
    assert sorted(len(p) for p in seated.values()) in ([1, 3], [2, 2])
    # The absent person: at a table with another person, and not the first to move there.
    absent_table = max(tables, key=lambda t: len(seated[t.id]))
    first = matches.load_match(absent_table).to_act()[0]
    absent_seat = next(n for n in sorted(seated[absent_table.id]) if n != first)
    absent_user = seated[absent_table.id][absent_seat]
    user_seat = {u: n for t in tables for n, u in seated[t.id].items()}

    # Over simulated days: every half day each table's due person moves (bots answer at
    # once) and the clock sweep runs; the absent person never moves, so their deadline passes,
    # the sweep waits out the grace, then applies the event's on_timeout: a forfeit.
    day, absent_deadline, seen_late_in_grace = 0.0, None, False
    for _ in range(1000):
        playing = Table.objects.filter(pk__in=[t.id for t in tables], status="playing")
        if not playing.exists():
            break
        day += 0.5
        clock.move_to(at(day))
        for table in playing:
            due = matches.load_match(table).to_act()
            assert due and all(n in seated[table.id] for n in due), "a bot kept a turn"
            if table.id == absent_table.id and absent_seat in due and absent_deadline is None:
                absent_deadline = table.deadline
                assert absent_deadline == table.updated_at + timedelta(days=PACE_DAYS)
            movers = [n for n in due if not (table.id == absent_table.id and n == absent_seat)]
            if movers:
                move(table.id, movers[0])
        sweep_clocks()
        if absent_deadline and absent_deadline < at(day) < absent_deadline + timedelta(days=1):
            seen_late_in_grace = True  # late, within the grace: the event's table waits
            assert Table.objects.get(pk=absent_table.id).status == Table.Status.PLAYING
    else:
        raise AssertionError("the round's tables did not finish")
    assert absent_deadline is not None and seen_late_in_grace

    # Every table finished; the absent person's table ended on their time.
    for table in tables:
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED
    absent_table.refresh_from_db()
    grace_ends = absent_deadline + timedelta(days=1)
    assert grace_ends <= absent_table.finished_at <= grace_ends + timedelta(days=0.5)
    assert absent_table.result["forfeited"] == [absent_seat]
    assert absent_table.result["timed_out"] == [absent_seat]  # a list of the seat
    assert absent_seat not in absent_table.result["winners"]
    assert not Action.objects.filter(table=absent_table, seat=absent_seat).exists()

    # The round's results: one online result a fixture, the forfeit carried over.
    results = {}
    for fixture, table in zip(fixtures, tables, strict=True):
        result = fixture.results.get(current=True)
        assert result.source == Result.Source.ONLINE
        # The record replayed: the table's result, its forfeits kept on the result's row.
        marks = ("forfeited", "timed_out", "resigned")
        assert result.scored == {k: v for k, v in table.result.items() if k not in marks}
        results[table.id] = result
    assert results[absent_table.id].forfeited_seats == [absent_seat]
    other = next(t for t in tables if t.id != absent_table.id)
    assert results[other.id].forfeited_seats == []

    # The standings follow the tables: each seat's payout and a match each; the absent
    # person below everyone they played with.
    rows = standings_rows(event)
    by_player = {r["player_id"]: r for r in rows}
    for fixture, table in zip(fixtures, tables, strict=True):
        totals = table.result["totals"]["payouts"]
        for seat in fixture.seats.select_related("player"):
            row = by_player[seat.player_id]
            assert row["matches_played"] == 1
            assert row["total_payouts"] == totals[seat.number]
            assert row["wins"] == (1 if seat.number in table.result["winners"] else 0)
    assert sum(r["total_payouts"] for r in rows) == sum(
        sum(t.result["totals"]["payouts"]) for t in tables
    )
    absent_player = get_user_model().objects.get(pk=absent_user).player
    absent_row = by_player[absent_player.pk]
    absent_fixture = fixtures[tables.index(absent_table)]
    for seat in absent_fixture.seats.exclude(player=absent_player):
        mate = by_player[seat.player_id]
        assert mate["match_points"] > absent_row["match_points"]
        if not mate["is_bot"]:  # the bots that filled seats take no place
            assert mate["rank"] < absent_row["rank"]
    ranked = [r for r in rows if r["rank"] is not None]
    assert [r["rank"] for r in ranked] == sorted(r["rank"] for r in ranked)

    # One your_turn notice a turn to each person (the absent one too: the turn that timed
    # out), none to a bot; each points at its table.
    expected: Counter = Counter()
    for table in tables:
        expected += turns_from_log(table, seated[table.id])
    notices = Notice.objects.filter(kind="your_turn")
    got = Counter(notices.values_list("user_id", flat=True))
    assert got == expected
    assert set(got) == set(user_seat)  # every person, nobody else (no bot has an account)
    for notice in notices:
        table_of = next(t for t in tables if notice.user_id in seated[t.id].values())
        assert notice.url == f"/tables/{table_of.id}/"
        assert notice.key.startswith(f"your-turn:{table_of.id}:")


def test_an_event_fixture_in_your_turn_names_its_event_and_round(event, client):
    table, user_id = next(
        (t, people_at(t)[n])
        for t in Table.objects.filter(status="playing")
        for n in matches.load_match(t).to_act()
        if n in people_at(t)
    )
    person = get_user_model().objects.get(pk=user_id)
    client.force_login(person)
    page = client.get("/games/").content.decode()
    row = page.split('id="your-turn"')[1].split("</section>")[0]
    assert f'data-table="{table.id}"' in row
    assert "League by the day" in row and "Round 1" in row
