"""Site-wide pages that belong to no app."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from gameplay.models import Table
from gameplay.paces import PACES
from gameplay.services import lobby
from games import catalogue
from league.ratings.leaders import LEADERS_SHOWN, Leaders, leaders
from league.services import event_end, overview

# How many tables of each list the home page shows (the lobby and "My games" have them all).
TABLES_SHOWN = 5


def _table_row(table: Table, user: Any, names: dict[str, str]) -> dict[str, Any]:
    """What a list shows of a table (from its prefetched `seats`): the game's name, who sits
    where as the lobby lists them (`lobby.seat_entries`), the open seats and the viewer's seat
    (a seat they resigned from is still theirs: the result counts against them)."""
    seats, open_seats = lobby.seat_entries(table)
    mine = None
    if user.is_authenticated:
        mine = next(
            (s.number for s in table.seats.all() if user.pk in (s.user_id, s.resigned_user_id)),
            None,
        )
    return {
        "table": table,
        "game_name": names.get(table.game, table.game),
        "seats": seats,
        "open_seats": len(open_seats),
        "my_seat": mine,
        # Who sits there (open seats left out), and the same without the viewer.
        "players": [s for s in seats if s["player"]],
        "others": [s for s in seats if s["player"] and s["seat"] != mine],
    }


def _outcome(table: Table, seat: int | None) -> dict[str, Any]:
    """The seat's total payout and finishing place at a finished table (ties share a place)."""
    result = table.result or {}
    payouts = (result.get("totals") or {}).get("payouts") or []
    if seat is None or seat >= len(payouts):
        return {}
    mine = payouts[seat]
    return {
        "payout": mine,
        "place": 1 + sum(p > mine for p in payouts),
        "of": len(payouts),
        "won": seat in (result.get("winners") or []),
    }


def _event_row(event: Any, names: dict[str, str], podium: Any = ()) -> dict[str, Any]:
    return {"event": event, "game_name": names.get(event.game, event.game), "podium": podium}


def _finished_rows(names: dict[str, str]) -> list[dict[str, Any]]:
    """The events just played to their end, each with its podium (its players in one query)."""
    events = overview.finished_events()
    podiums = event_end.podiums(events)
    return [_event_row(e, names, podiums[e.pk]) for e in events]


def _last_games(user: Any, names: dict[str, str]) -> list[dict[str, Any]]:
    """The account's most recently finished tables, each with its outcome for them."""
    if not user.is_authenticated:
        return []
    finished = (
        lobby.my_tables(user)
        .filter(status=Table.Status.FINISHED)
        .order_by("-finished_at", "-created_at")
        .prefetch_related("seats")[:TABLES_SHOWN]
    )
    rows = []
    for table in finished:
        row = _table_row(table, user, names)
        rows.append({**row, **_outcome(table, row["my_seat"])})
    return rows


def _board(tops: dict[str, Leaders], game: catalogue.GameInfo) -> dict[str, Any]:
    """A game's top `LEADERS_SHOWN`: the established players ranked, and below them, apart as
    the leaderboard lists them, the best provisional ones while places are left."""
    board = tops.get(game.name, Leaders())
    room = max(0, LEADERS_SHOWN - len(board.established))
    return {"game": game, "established": board.established, "provisional": board.provisional[:room]}


def home(request: HttpRequest) -> HttpResponse:
    """The front door: Play now for every game, tables to watch and to join, events (under way,
    coming up, just finished with their podium), the top of each leaderboard and, for a
    player, their next fixture and last games. A fixed number of queries whatever the number
    of games, tables, events and ratings."""
    user = request.user
    games = catalogue.games()
    names = {g.name: g.display_name for g in games}
    tops = leaders()
    tables = {
        status: [
            _table_row(t, user, names)
            for t in lobby.list_tables(user, status).prefetch_related("seats")[:TABLES_SHOWN]
        ]
        for status in (Table.Status.PLAYING, Table.Status.WAITING)
    }
    fixture = overview.next_fixture(user)
    context = {
        "games": games,
        "paces": [p for p in PACES.values() if not p.turn_based],
        "play_pace": lobby.play_now_pace(user),
        "watch_tables": tables[Table.Status.PLAYING],
        "open_tables": tables[Table.Status.WAITING],
        "running_events": [_event_row(e, names) for e in overview.running_events()],
        "upcoming_events": [_event_row(e, names) for e in overview.upcoming_events()],
        "finished_events": _finished_rows(names),
        "leaderboards": [_board(tops, g) for g in games],
        "next_fixture": fixture,
        "next_fixture_game": names.get(fixture.round.event.game, "") if fixture else "",
        "last_games": _last_games(user, names),
    }
    return render(request, "home.html", context)
