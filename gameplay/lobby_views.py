"""The lobby's pages: create a friendly table, the invitation page, leave, rematch, my games.

Thin views over `gameplay.services.lobby`, which authorizes every write; a `LobbyError` becomes
a message on the page with its 4xx status, never a 500. No link carries a seat token: a person
plays under their session (the table page finds their seat).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from gameplay import api, guest_entry, meeting_context, rematch_views, turn_views
from gameplay.clock import is_turn_based
from gameplay.lobby_forms import CreateTableForm
from gameplay.models import Table
from gameplay.paces import PACES
from gameplay.services import lobby, turn_timeouts
from games import catalogue, registry

LOBBY_PAGE_SIZE = 20
MY_GAMES_PAGE_SIZE = 25
WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"
CANCELLED = "cancelled"


def _to_login(request: HttpRequest, next_url: str) -> HttpResponseRedirect:
    """Anonymous visitors log in first and come back to `next_url`."""
    return redirect(f"{reverse('account_login')}?{urlencode({'next': next_url})}")


def _table_url(table_id: str) -> str:
    return reverse("gameplay:table", args=[table_id])


def _join_url(table_id: str) -> str:
    return reverse("gameplay:join", args=[table_id])


def _after_joining(joined: lobby.Joined) -> HttpResponseRedirect:
    """A started table opens at once; a waiting one shows its invitation to pass on."""
    if joined.table.status == WAITING:
        return redirect(_join_url(joined.table.id))
    return redirect(_table_url(joined.table.id))


def _game_name(game: str) -> str:
    try:
        registry.get_game(game)
        return catalogue.display_name(game)  # in the page's language
    except KeyError:
        return game


def _page(request: HttpRequest, tables: QuerySet[Table], size: int) -> Page:
    return Paginator(tables, size).get_page(request.GET.get("page"))


def _row(table: Table, user: Any) -> dict[str, Any]:
    """What a list shows of a table: its public entry, the game's name, the viewer's seat."""
    entry = lobby.entry(table)
    mine = next(
        (s.number for s in table.seats.all() if user.is_authenticated and s.user_id == user.pk),
        None,
    )
    return {
        "table": table,
        "entry": entry,
        "game_name": _game_name(table.game),
        # Where its rules differ from the usual game's, as a person reads them.
        "changed_rules": api.describe_variant(table.game, entry["variant"], changed_only=True),
        "my_seat": mine,
        "invite_url": _join_url(table.id),
        "url": _table_url(table.id),
    }


@never_cache  # Back from a table must show the lobby as it is now, not a wait that is over
@require_http_methods(["GET", "POST"])
def play(request: HttpRequest) -> HttpResponse:
    """The lobby: the form that creates a friendly table, open tables, your waiting tables."""
    user = request.user
    form = None
    status = 200
    if request.method == "POST":
        if not user.is_authenticated:
            return _to_login(request, reverse("gameplay:play"))
        form = CreateTableForm(request.POST)
        if form.is_valid():
            try:
                joined = lobby.create_friendly(user, **form.service_kwargs())
            except lobby.LobbyError as exc:
                form.add_error(None, exc.detail)
                status = exc.status
            else:
                return _after_joining(joined)
        else:
            status = 400
    elif user.is_authenticated:
        form = CreateTableForm()
    return render_play(request, form=form, status=status)


def render_play(
    request: HttpRequest,
    *,
    form: CreateTableForm | None = None,
    status: int = 200,
    people: dict[str, Any] | None = None,
) -> HttpResponse:
    """The lobby page; `people`: its blocks for meeting people, bound to a refused form
    (`gameplay/meeting_views.py`), else fresh."""
    user = request.user
    if form is None and user.is_authenticated:
        form = CreateTableForm()
    listed = lobby.list_tables(user, WAITING)
    if user.is_authenticated:
        listed = listed.exclude(seats__user=user)  # one's own are in "Your tables"
    open_page = _page(request, listed.prefetch_related("seats"), LOBBY_PAGE_SIZE)
    mine: list[dict[str, Any]] = []
    playing: list[dict[str, Any]] = []
    if user.is_authenticated:
        # One's waiting tables, and the way back to a game one left the page of (Back, or
        # the lobby link mid-game): one read for both.
        current = lobby.my_tables(user).filter(status__in=(WAITING, PLAYING))
        rows = [_row(t, user) for t in current.prefetch_related("seats")[: 2 * LOBBY_PAGE_SIZE]]
        mine = [r for r in rows if r["table"].status == WAITING][:LOBBY_PAGE_SIZE]
        playing = [r for r in rows if r["table"].status == PLAYING][:LOBBY_PAGE_SIZE]
    context = {
        "form": form,
        "games": catalogue.games(),
        "paces": [p for p in PACES.values() if not p.turn_based],
        "play_pace": lobby.play_now_pace(user),
        "open_page": open_page,
        "open_tables": [_row(t, user) for t in open_page.object_list],
        "my_waiting": mine,
        "my_playing": playing,
        "seat_counts": form.seat_counts() if form else {},
        **(people if people is not None else meeting_context.people_context(user)),
    }
    return render(request, "gameplay/lobby/play.html", context, status=status)


def _join_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    row = _row(table, request.user)
    user = request.user
    kept = [s for s in table.seats.all() if s.reserved_for_id is not None and s.user_id is None]
    kept_for_me = user.is_authenticated and any(s.reserved_for_id == user.pk for s in kept)
    # Who sits where is the invitation's point while the table waits; afterwards only those
    # who may watch the table see it.
    show_seats = table.status != CANCELLED and (
        table.status == WAITING or table.allow_spectators or row["my_seat"] is not None
    )
    return {
        **row,
        # Every flag, label and value as a person reads them (`api.describe_variant`).
        "rules": api.describe_variant(table.game, row["entry"]["variant"]),
        # Seats nobody holds (open or kept for a rematch's player): the socket's `players`
        # shows them as null, and the waiting page reloads when the count changes.
        "empty_seats": sum(1 for s in row["entry"]["seats"] if s["player"] is None),
        "show_seats": show_seats,
        "invite_abs": request.build_absolute_uri(row["invite_url"]),
        "seconds_per_move": table.seconds_per_move,
        # A rematch keeps its players' seats: shown as kept, not open; the viewer's own is an
        # offer to accept or decline.
        "kept_seats": [s.number for s in kept],
        "offer": rematch_views.offer(table)
        if kept_for_me and table.status == WAITING and row["my_seat"] is None
        else None,
    }


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, table_id: str) -> HttpResponse:
    """The invitation page: what the table is and who sits there; joining is a POST."""
    table = get_object_or_404(Table.objects.prefetch_related("seats"), pk=table_id)
    status = 200
    if request.method == "POST":
        if guest_entry.wants_guest(request):
            refused = guest_entry.become_guest(request)
            if refused is not None:
                return refused
        if not request.user.is_authenticated:
            here = _join_url(table_id)
            return guest_entry.offer(
                request, action=here, back=here, what=gettext("Join this table")
            )
        try:
            joined = lobby.join(request.user, table_id)
        except lobby.LobbyError as exc:
            messages.error(request, exc.detail)
            status = exc.status
            table = get_object_or_404(Table.objects.prefetch_related("seats"), pk=table_id)
        else:
            return redirect(_table_url(joined.table.id))
    return render(request, "gameplay/lobby/join.html", _join_context(request, table), status=status)


@require_http_methods(["GET", "POST"])
def leave(request: HttpRequest, table_id: str) -> HttpResponse:
    """Leave a waiting table (the seat opens again), or resign a running one after a "Resign?"
    confirmation (a bot plays the seat out). GET only asks."""
    if not request.user.is_authenticated:
        return _to_login(request, _table_url(table_id))
    table = get_object_or_404(
        Table.objects.only("id", "status", "game", "seconds_per_move"), pk=table_id
    )
    confirmed = request.method == "POST" and (
        table.status != PLAYING or request.POST.get("confirm") == "resign"
    )
    if not confirmed and table.status not in (WAITING, PLAYING):
        messages.info(request, gettext("This table is over; there is nothing to leave."))
        return redirect(_table_url(table_id))
    if not confirmed:
        context = {
            "table": table,
            "game_name": _game_name(table.game),
            "resign": table.status == PLAYING,
            "by_day": is_turn_based(table.seconds_per_move),
        }
        return render(request, "gameplay/lobby/leave_confirm.html", context)
    try:
        left = lobby.leave(request.user, table_id)
    except lobby.LobbyError as exc:
        messages.error(request, exc.detail)
        return redirect(_table_url(table_id))
    if table.status == PLAYING:
        messages.success(request, gettext("You resigned. A bot plays your seat to the end."))
        return redirect(_table_url(table_id))
    if left.status == CANCELLED:
        messages.success(
            request, gettext("You left the table; nobody is left, so it is cancelled.")
        )
    else:
        messages.success(request, gettext("You left the table; your seat is open again."))
    return redirect("gameplay:play")


@require_POST
def rematch(request: HttpRequest, table_id: str) -> HttpResponse:
    """A new table for the same players, the dealer moved on."""
    if not request.user.is_authenticated:
        return _to_login(request, _table_url(table_id))
    try:
        joined = lobby.rematch(request.user, table_id)
    except lobby.LobbyError as exc:
        messages.error(request, exc.detail)
        if exc.status == 404:
            return redirect("gameplay:my-games")
        return redirect(_table_url(table_id))
    return _after_joining(joined)


def _result_of(table: Table, seat: int | None, resigned: bool = False) -> dict[str, Any] | None:
    """The viewer's payout and place from `Table.result` (score_record's shape): place 1 is
    the highest total payout, ties share a place. A seat that forfeited comes last and never
    won (`gameplay/services/outcome.py`), even in an older result; `resigned`: its person gave
    it up (else it forfeited on the clock or by absence)."""
    result = table.result or {}
    payouts = (result.get("totals") or {}).get("payouts")
    if seat is None or not payouts or seat >= len(payouts):
        return None
    mine = payouts[seat]
    out = set(table.forfeited_seats or [])
    forfeited = seat in out
    # A seat that forfeited finishes below every seat that did not (as the ratings rank it).
    keys = [(s not in out, p) for s, p in enumerate(payouts)]
    return {
        "payout": mine,
        "rank": 1 + sum(1 for k in keys if k > keys[seat]),
        "size": len(payouts),
        "won": not forfeited and seat in (result.get("winners") or []),
        "forfeited": forfeited and not resigned,
        "resigned": forfeited and resigned,
    }


def my_games(request: HttpRequest) -> HttpResponse:
    """Your running and finished tables, newest first, with your result."""
    user = request.user
    if not user.is_authenticated:
        return _to_login(request, reverse("gameplay:my-games"))
    tables = (
        lobby.my_tables(user)
        .filter(status__in=[PLAYING, FINISHED])
        .defer("state", "record")
        .prefetch_related("seats")
    )
    page = _page(request, tables, MY_GAMES_PAGE_SIZE)
    rows = []
    for table in page.object_list:
        seats = list(table.seats.all())
        # A person who resigned keeps the seat's result (a bot played it out).
        mine = next((s.number for s in seats if user.pk in (s.user_id, s.resigned_user_id)), None)
        resigned = any(s.resigned_user_id == user.pk for s in seats)
        finished, withheld = table.status == FINISHED, table.embargoed
        rows.append(
            {
                "table": table,
                "game_name": _game_name(table.game),
                "opponents": [s for s in seats if s.number != mine],
                "my_seat": mine,
                # An embargoed (duplicate) table's result and replay wait for its section.
                "result": _result_of(table, mine, resigned) if finished and not withheld else None,
                "withheld": finished and withheld,
                "resigned": resigned,  # still played out by a bot: to watch, not to resume
                "url": _table_url(table.id),
                "replay_url": f"/tables/{table.id}/replay/" if finished and not withheld else None,
            }
        )
    context = {
        "page": page,
        "rows": rows,
        "your_turn": turn_views.your_turn_rows(user),
        "offers": rematch_views.offers_for(user),
        **meeting_context.incoming_context(user),
    }
    return render(request, "gameplay/lobby/my_games.html", context)


def waiting_table(request: HttpRequest, table: Table, seat: int | None) -> HttpResponse:
    """The table page of a table that has not started (or never will): its invitation to pass
    on, and Leave for a seated person, instead of an empty table."""
    context = {**_join_context(request, table), "viewer_seat": seat}
    return render(request, "gameplay/lobby/waiting_table.html", context)


def table_extras(request: HttpRequest, table: Table) -> dict[str, Any]:
    """What the table page adds for the lobby: Rematch for a person who played a finished
    table (or the rematch already waiting for them), Resign for a person seated at a running
    lobby table. The buttons only post; the services decide."""
    user = request.user
    if not user.is_authenticated or table.origin != Table.Origin.LOBBY:
        return {"lobby": None}
    played = table.seats.filter(Q(user_id=user.pk) | Q(resigned_user_id=user.pk)).values_list(
        "user_id", flat=True
    )
    played = list(played)
    if not played:
        return {"lobby": None}
    rematch = (
        table.rematches.exclude(status=CANCELLED).prefetch_related("seats").first()
        if table.status == FINISHED
        else None
    )
    seated = rematch is not None and any(s.user_id == user.pk for s in rematch.seats.all())
    return {
        "lobby": {
            "can_resign": table.status == PLAYING and user.pk in played,
            # By the day: a late player's deadline passed, and the viewer may claim it.
            "can_claim_timeout": turn_timeouts.claimable(table, user),
            # Seated at the rematch (offered or accepted): its page; asked: the offer.
            "rematch_url": _table_url(rematch.id) if seated else None,
            "offer": rematch_views.offer(rematch)
            if rematch is not None and not seated and rematch.status == WAITING
            else None,
        }
    }
