"""The import enters a long list at once (issue Organizers III): the same queries for 50 rows as
for 500 but the insert batches, the rules of entering kept (ratings at entry, e-mails only for
players without an account, bot accounts, look-alikes), and nothing left behind when it fails.

Before: a query or more a row and a standings task a row after the commit (10 to 36 s for 500 rows
on SQLite); now under half a second (docs/league.md, "Importing entries").
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from league.errors import LeagueError
from league.models import Entry, Event, Player, Rating
from league.services import entry_import, players
from league.services.entry_import import ImportProblems, ImportRow
from tests.language import text
from tests.organizers.conftest import account, api, make_event

pytestmark = pytest.mark.django_db


def rows(n: int, start: int = 0) -> list[ImportRow]:
    return [
        ImportRow(line=i + 1, name=f"Spieler {start + i}", club=f"Club {i % 7}", country="IT")
        for i in range(n)
    ]


def queries_of(event: Event, batch: list[ImportRow], by) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        entries = entry_import.import_entries(event, batch, by=by)
    assert len(entries) == len(batch)
    return [q["sql"] for q in captured.captured_queries]


def test_50_or_500_rows_take_the_same_queries_but_the_insert_batches(olga):
    account("linked")  # an account without a player: looked up once, whatever the list
    small, large = make_event(olga, "Small cup"), make_event(olga, "Large cup")
    few = queries_of(small, rows(50), olga)
    many = queries_of(large, rows(500, start=1000), olga)
    others = [[q for q in run if not q.startswith("INSERT")] for run in (few, many)]
    assert len(others[0]) == len(others[1]) <= 20
    # bulk_create: one INSERT of players and one of entries (SQLite: batches of ~100 rows,
    # its 999 parameters a query; PostgreSQL: one each).
    inserts = [sum(q.startswith("INSERT") for q in run) for run in (few, many)]
    assert inserts[0] == 2 and inserts[1] <= 12
    assert Entry.objects.filter(event=large).count() == 500
    assert Player.objects.get(name="Spieler 1499").country == "IT"


def test_the_page_imports_500_lines_in_a_fixed_number_of_queries(
    client, olga, django_assert_max_num_queries
):
    cup = make_event(olga, "Big cup")
    text = "\n".join(f"Giocatore {n},Circolo {n % 9},it,g{n}@example.org" for n in range(500))
    client.force_login(olga)
    url = reverse("league:entries_import", args=[cup.slug])
    before = Event.objects.get(pk=cup.pk).standings_version
    with django_assert_max_num_queries(40):
        assert client.post(url, {"text": text}).status_code == 302
    assert Entry.objects.filter(event=cup).count() == 500
    assert Event.objects.get(pk=cup.pk).standings_version == before + 1  # touched once
    entry = Entry.objects.select_related("player").get(event=cup, player__name="Giocatore 42")
    assert (entry.email, entry.checked_in, entry.player.club) == (
        "g42@example.org",
        True,
        "Circolo 6",
    )


def test_an_import_keeps_the_rules_of_entering(olga, pat):
    cup = make_event(olga, "Rules cup")
    ana = Player.objects.create(name="ana")
    Rating.objects.create(
        player=ana,
        game=cup.game,
        mu=30,
        sigma=2,
        ordinal=24.0,
        last_played_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    batch = [
        ImportRow(line=1, name="Ana", email="ana@example.org", use_existing=True),
        ImportRow(line=2, name="PAT", email="pat@example.org", use_existing=True),
        ImportRow(line=3, name="Bea", email="bea@example.org"),
    ]
    entries = entry_import.import_entries(cup, batch, by=olga)
    got = {e.player.name: (e.rating_at_entry, e.email) for e in entries}
    assert got == {
        "ana": (24.0, "ana@example.org"),  # the rating it entered with, stamped
        "pat": (None, ""),  # an account: invitations go to players without one
        "Bea": (None, "bea@example.org"),
    }
    assert Player.objects.get(name="Bea").name_skeleton == "bea"
    with pytest.raises(LeagueError, match="too similar"):
        players.player_named("B\u0435a")  # a Cyrillic e: the new player has its skeleton


def test_a_bot_account_or_a_builtin_bot_refuses_the_whole_list(olga):
    cup = make_event(olga, "No bots cup", allow_bot_accounts=False)
    robo = account("robo")
    Player.objects.filter(user=robo).update(is_bot=True)
    players.bot_players(1)
    for name, refused in (("robo", "bot account"), ("Bot 1", "Built-in bots")):
        batch = [ImportRow(line=1, name="Dora"), ImportRow(line=2, name=name, use_existing=True)]
        with pytest.raises(LeagueError, match=refused):
            entry_import.import_entries(cup, batch, by=olga)
    assert not Entry.objects.filter(event=cup).exists()
    assert not Player.objects.filter(name="Dora").exists()


def test_a_name_taken_meanwhile_leaves_nothing_behind(olga, monkeypatch):
    cup = make_event(olga, "Race cup")
    Player.objects.create(name="ana")
    # As if another process made "ana" between the look-up and the insert.
    monkeypatch.setattr(players, "holders_of", lambda names: players.Holders({}, {}))
    people = Player.objects.count()
    with pytest.raises(LeagueError, match="taken by another player just now"):
        entry_import.import_entries(cup, [ImportRow(1, "Carla"), ImportRow(2, "ANA")], by=olga)
    assert Player.objects.count() == people and not Entry.objects.filter(event=cup).exists()


def test_a_look_alike_of_an_account_without_a_player_is_refused(olga):
    cup = make_event(olga, "Look cup")
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("bill", password="pw")  # no player yet
    with pytest.raises(ImportProblems, match=r"line 2: .*too similar.*\(bill\)"):
        entry_import.import_entries(cup, [ImportRow(1, "Carla"), ImportRow(2, "BiII")], by=olga)
    assert not Player.objects.filter(name="Carla").exists()


def test_the_api_answers_with_the_entries_made_in_the_same_queries_for_any_list(olga):
    client = api(olga)
    counts = []
    for n in (20, 200):
        cup = make_event(olga, f"Api cup {n}")
        body = {"rows": [{"name": f"Player {n}-{i}", "country": "de"} for i in range(n)]}
        with CaptureQueriesContext(connection) as captured:
            done = client.post(f"/api/events/{cup.slug}/entries/import/", body, format="json")
        assert done.status_code == 201, done.content
        counts.append(sum(not q["sql"].startswith("INSERT") for q in captured.captured_queries))
        made = done.json()
        assert len(made) == n and made[7]["player"]["name"] == f"Player {n}-7"
        entered = Entry.objects.filter(event=cup).values_list("pk", flat=True)
        assert {e["id"] for e in made} == set(entered)
        assert all(e["checked_in"] and e["withdrawn_after_round"] is None for e in made)
    assert counts[0] == counts[1]


def test_the_import_page_says_it_is_importing_while_it_runs(client, olga):
    cup = make_event(olga, "Busy cup")
    client.force_login(olga)
    html = client.get(reverse("league:entries_import", args=[cup.slug])).content.decode()
    # static/js/site.js shows the text in the status line on submit, the list's lines counted.
    # A template's msgid doubles its percent signs ({% translate %} undoes it).
    many = text("Importing %%(n)s players…").replace("%%", "%")
    assert f'data-busy-many="{escape(many)}"' in html
    assert f'data-busy-one="{escape(text("Importing 1 player…"))}"' in html
    assert 'role="status" data-busy-status hidden' in html
