"""Public pages: events, rounds, standings, players. Each uses a fixed number of queries."""

from __future__ import annotations

from fractions import Fraction
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.db.models import BooleanField, Count, ExpressionWrapper, Prefetch, Q, QuerySet, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import get_language, gettext

from accounts.collation import sorted_by_name
from gameplay import api as gameplay
from games import catalogue
from league import csv_safe
from league.forms.schedule import RoundScheduleForm
from league.models import (
    Bye,
    Entry,
    Event,
    Fixture,
    FixtureProposal,
    LedgerEntry,
    Player,
    Result,
    Round,
    Seat,
)
from league.ratings.queries import player_rating_sections
from league.ratings.services import rating_then
from league.services import duplicate_scoring, event_end, registration, sections
from league.services import organizers as organizer_services
from league.services.bracket import is_knockout
from league.services.entry_counts import counted, with_entry_counts
from league.services.event_times import zone
from league.services.ledger import LEDGER_FIELDS, ledger_rows, withheld_from
from league.services.organizers import display_name
from league.services.permissions import can_manage, can_organize, can_see
from league.services.round_rules import round_notes
from league.services.rounds import loaded_fingerprint
from league.services.standings import (
    standings_config,
    standings_mode,
    standings_rows,
)
from league.services.table_links import table_link, with_watchable
from league.standings import (
    StandingsRow,
    column_tiebreaks,
    get_tiebreak,
    standings_csv_rows,
)


def visible_event(request: HttpRequest, slug: str) -> Event:
    """The event, or 404 for a draft the user may not see (a draft's existence is private)."""
    event = get_object_or_404(Event, slug=slug)
    if not can_see(request.user, event):
        raise Http404("no such event")
    return event


def event_list(request: HttpRequest) -> HttpResponse:
    published = Q(visibility=Event.Visibility.PUBLISHED)
    mine = Q(organizers=request.user.pk) if request.user.is_authenticated else Q(pk__in=[])
    events = Event.objects.filter(pk__in=Event.objects.filter(published | mine).values("pk"))
    events = with_entry_counts(events).order_by("-created_at")
    # Each row shows the game's and format's display names (Event.game_name, .format_name), its
    # entries as every page counts them and its status as every page shows it (Event.stage).
    context = {"events": events, "can_organize": can_organize(request.user)}
    return render(request, "league/event_list.html", context)


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    # Entries made before ratings were stamped show the rating the player had then (history).
    entries = (
        Entry.objects.filter(event=event)
        .select_related("player")
        .annotate(rating_then=rating_then(event.game))
    )
    rounds = event.round_set.annotate(
        n_fixtures=Count("fixtures", distinct=True),
        n_results=Count("fixtures__results", filter=Q(fixtures__results__current=True)),
    )
    manager = can_manage(request.user, event)
    if not manager:
        rounds = rounds.filter(status=Round.Status.PUBLISHED)
    context = {
        "event": event,
        "entries": entries,
        "rounds": rounds,
        # duplicate: no count of results while a section is played (it tells who has finished)
        "rounds_in_play": duplicate_scoring.rounds_in_play(request.user, event),
        "manager": manager,
        "game": catalogue.game(event.game),
        # Every flag of the event's variant as a person reads it ("Payout: score differences").
        "variant": gameplay.describe_variant(event.game, event.variant),
        "bot_level": gameplay.bot_level_label(event.bot_level),
        # Its tables' clock ("2 days a move": the fixtures are played by the day).
        "clock": gameplay.describe_clock(event.pace, event.seconds_per_move)
        if event.play_online
        else "",
        "has_bracket": is_knockout(event),  # a knockout's tables drawn as a tree
        "podium": event_end.podium(event),  # once it is over (no query before)
        **people_context(request, event, entries),
    }
    return render(request, "league/event_detail.html", context)


def people_context(request: HttpRequest, event: Event, entries: QuerySet[Entry]) -> dict:
    """The event page's people: its organizers, its entries as every page counts them
    (league.services.entry_counts), those that withdrew before they played (listed apart), and
    the visitor's sign-up (league.services.registration), by name in the reader's language; a
    fixed number of queries whatever the number of entries."""
    rows = sorted_by_name(
        entries.annotate(counted=ExpressionWrapper(counted(), BooleanField())),
        lambda entry: entry.player.name,
        get_language(),
    )
    standing = registration.standing(event, request.user)
    shown = event.signup_open or standing.entry is not None or standing.waiting_position
    return {
        "entries": [e for e in rows if e.counted],
        "withdrawn_before_play": [e for e in rows if not e.counted],
        "organizer_names": [display_name(u) for u in organizer_services.organizers(event)],
        "standing": standing,
        "signup_shown": bool(shown and event.visibility == Event.Visibility.PUBLISHED),
        "next": urlencode({"next": request.path}),
    }


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = visible_event(request, slug)
    round_ = get_object_or_404(Round, event=event, number=number)
    manager = can_manage(request.user, event)
    if round_.status != Round.Status.PUBLISHED and not manager:
        raise Http404("this round is not published yet")
    # A duplicate table (or one without spectators) is linked for its own players only.
    fixtures = with_watchable(round_.fixtures.all()).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
        Prefetch("results", queryset=Result.objects.filter(current=True), to_attr="counting"),
        # asynchronous events: the time each table agreed on, if any (the latest)
        Prefetch(
            "proposals",
            queryset=FixtureProposal.objects.filter(agreed_at__isnull=False).order_by("-agreed_at"),
            to_attr="agreed",
        ),
    )
    byes = Bye.objects.filter(round=round_).select_related("player")
    # Duplicate: a table of a section still being played shows nothing of its result (its own
    # players see theirs as at the table), league.services.duplicate_scoring.
    withheld = duplicate_scoring.withheld_fixtures(request.user, event, round_=round_)
    notes = round_notes(round_, fixtures, byes)  # how it was made, who goes on
    # A format that picks who goes on (a knockout) marks who did, not every co-winner: one
    # who lost a tie at the table (the draw) is not marked, and the table says how it went.
    went_on = notes["went_on"]
    tables = []
    for fixture in fixtures:
        result = fixture.counting[0] if fixture.counting else None
        if fixture.pk in withheld:
            result = None
        seats = list(fixture.seats.all())
        totals = result.scored["totals"]["payouts"] if result else [None] * len(seats)
        winners = set(result.scored["winners"]) if result else set()
        tables.append(
            {
                "fixture": fixture,
                "table_link": table_link(request.user, fixture, seats),
                "result": result,
                "agreed": fixture.agreed[0] if fixture.agreed else None,
                "withheld": fixture.pk in withheld,
                # a table of four among threes: its deals (4/3 as many), its dealer sitting out
                "four_deals": event.deals_for(4)
                if len(seats) == 4 and event.has_tables_of_four
                else None,
                "went_on": went_on.get(fixture.pk),
                "absent_names": [
                    s.player.name for s in seats if result and s.number in result.absent_seats
                ],
                "seats": [
                    {
                        "seat": s,
                        "payout": totals[s.number],
                        "winner": s.number in winners and not notes["picks_players"],
                        "went_on": went_on.get(fixture.pk, {}).get("player") == s.player_id,
                    }
                    for s in seats
                ],
            }
        )
    context = {
        "event": event,
        "round": round_,
        "tables": tables,
        "byes": byes,
        "manager": manager,
        # By the day a round without a deadline may run for weeks: its organizer is warned.
        "by_day": event.play_online and gameplay.pace_is_turn_based(event.pace),
        # the round is closed: every table has its result (an absence counts as one)
        "complete": round_.status == Round.Status.PUBLISHED
        and bool(tables)
        and all(t["fixture"].counting for t in tables),
    }
    if event.is_duplicate and round_.status == Round.Status.PUBLISHED:
        context["deals"] = range(1, event.deals_per_match + 1)  # the travellers' links
    context["format_notes"] = notes
    context["duplicate"] = sections.sections_overview(round_, fixtures)  # duplicate events
    if manager and round_.status == Round.Status.DRAFT:
        context["draft"] = loaded_fingerprint(fixtures, byes)
    # Times are typed and shown on the event's clocks (the schedule form's inputs too).
    with timezone.override(zone(event.time_zone)):
        if manager:
            context["schedule_form"] = RoundScheduleForm(
                initial={"starts_at": round_.starts_at, "deadline": round_.deadline}
            )
        return render(request, "league/round_detail.html", context)


# Rows per standings page; the CSV export is never paginated.
STANDINGS_PAGE_SIZE = 100


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """One page of the snapshot's rows; `?player=<id>` opens the page holding that player's row.

    Ranks are the rows' own (overall) ranks. A page out of range gives the last page and a
    page that is no number the first (`Paginator.get_page`); `?player=` wins over `?page=`.
    """
    event = visible_event(request, slug)
    # Read through the version check even though only one page is shown: a snapshot that is
    # behind the event's standings_version is recomputed, so ranks and pages are never stale.
    all_rows = standings_rows(event)
    index = {row["player_id"]: i for i, row in enumerate(all_rows)}
    me = None
    if request.user.is_authenticated:
        me = Player.objects.filter(user_id=request.user.pk).values_list("pk", flat=True).first()
        me = me if me in index else None  # "find me" only for a player in these standings
    try:
        wanted = int(request.GET.get("player", ""))
    except ValueError:
        wanted = None
    found = wanted if wanted in index else None
    number = request.GET.get("page") if found is None else index[found] // STANDINGS_PAGE_SIZE + 1
    page = Paginator(all_rows, STANDINGS_PAGE_SIZE).get_page(number)
    # The tie-breaks with a column of their own (not a fixed column again, never the lot's
    # secret numbers), their values as the CSV writes them (two decimals for an average).
    shown = column_tiebreaks(event.tiebreaks)
    rows = [{**row, "shown": [t.format(row["tiebreaks"][i]) for i, t in shown]} for row in page]
    context = {
        "event": event,
        "page": page,
        "rows": rows,
        "found": found,
        "not_found": wanted if wanted is not None and found is None else None,
        "me": me,
        # each column's header links to its tie-break on the help page (#tiebreak-<name>)
        "tiebreak_columns": [{"name": t.name, "label": t.label} for _, t in shown],
        # "Ranked by …": the registry's labels are gettext_noop'd English, translated here
        "tiebreak_order": [gettext(get_tiebreak(name).label) for name in event.tiebreaks],
        "knockout": standings_mode(event) == "knockout",  # ranked by the round reached
        # the bots that filled seats, listed after the people without a place (Event.rank_bots)
        "unranked_bots": any(row["rank"] is None for row in all_rows),
        # the absence mark: a column once anyone was marked absent (league.services.absences)
        "absences": any(row.get("absences") for row in all_rows),
        "duplicate": event.is_duplicate,  # ranked by duplicate_rank, the travellers linked
        "by_percentage": event.duplicate_rank == Event.DuplicateRank.PERCENTAGE,
        "published_rounds": (
            list(
                event.round_set.filter(status=Round.Status.PUBLISHED).values_list(
                    "number", flat=True
                )
            )
            if event.is_duplicate
            else []
        ),
    }
    return render(request, "league/standings.html", context)


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole table (never paginated), written by the standings' own exporter."""
    event = visible_event(request, slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    snapshot = standings_rows(event)
    config = standings_config(event)
    names = {row["player_id"]: row["player"] for row in snapshot}
    rows = standings_csv_rows([_standings_row(row) for row in snapshot], config, names)
    csv_safe.writer(response).writerows(rows)  # player names are anyone's text: no formulas
    return response


def _standings_row(row: dict) -> StandingsRow:
    """A snapshot row (`league.services.standings.compute_rows`) as the exporter reads it."""
    return StandingsRow(
        rank=row["rank"],
        player_id=row["player_id"],
        matches_played=row["matches_played"],
        match_points=row["match_points"],
        total_payouts=row["total_payouts"],
        wins=row["wins"],
        byes=row["byes"],
        absences=row.get("absences", 0),  # a snapshot made before absences had none
        tiebreak_values=tuple(row["tiebreaks"]),
        tied=row.get("tied", False),
        round_reached=row.get("round_reached", 0),  # knockout events' column
        # duplicate events' columns, from the snapshot's 6 places (what the CSV writes)
        duplicate_total=_exact(row.get("duplicate_total")),
        matchpoint_pct=_exact(row.get("matchpoint_pct")),
    )


def _exact(value: float | None) -> Fraction | None:
    """A snapshot's number as the decimal it reads (0.333333), exactly."""
    return None if value is None else Fraction(repr(value))


def ledger_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-ledger.csv"'
    writer = csv_safe.writer(response)  # player names are anyone's text: no formulas
    writer.writerow(["round", "table", "deal", "seat", "player_id", "player", "score", "payout"])
    rows = ledger_rows(event, withheld=withheld_from(request.user, event)).values_list(
        *LEDGER_FIELDS
    )
    # A person reads this file: deals count from 1 here (the ledger and records count from 0).
    for number, table, deal, *rest in rows.iterator(chunk_size=2000):
        writer.writerow([number, table, deal + 1, *rest])
    return response


def _final_position(entry: Entry) -> dict[str, int] | None:
    """The player's place in the event's standings snapshot (final once the event is closed)."""
    snapshot = getattr(entry.event, "standings", None)
    if snapshot is None or snapshot.version != entry.event.standings_version:
        return None  # behind the results: a stale rank would be wrong, not just old
    placed = [row for row in snapshot.rows if row["rank"] is not None]  # people, not fill-ins
    for row in placed:
        if row["player_id"] == entry.player_id:
            return {"rank": row["rank"], "of": len(placed)}
    return None


def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("user"), pk=player_id)
    visible = Q(event__visibility=Event.Visibility.PUBLISHED)
    entries = Entry.objects.filter(visible, player=player).select_related(
        "event", "event__standings"
    )
    # A duplicate section's tables are shown here once the section is complete (for anyone).
    visible &= duplicate_scoring.published("fixture__")
    payouts = (
        LedgerEntry.objects.filter(visible, player=player)
        .values(
            "fixture_id",
            "event__slug",
            "event__name",
            "event__scoring",
            "round__number",
            "fixture__number",
        )
        .annotate(payout=Sum("payout"), deals=Count("id"))
        .order_by("-fixture_id")[:50]
    )
    totals = {
        row["event_id"]: row["total"]
        for row in LedgerEntry.objects.filter(visible, player=player)
        .values("event_id")
        .annotate(total=Sum("payout"))
    }
    rows = list(payouts)
    # The running total starts from everything before the matches shown (as the API's does).
    running, history = sum(totals.values()) - sum(r["payout"] for r in rows), []
    for row in reversed(rows):
        running += row["payout"]
        history.append({**row, "running": running})
    history.reverse()
    names = dict(catalogue.game_choices())
    events = [
        {
            "entry": e,
            "game_name": names.get(e.event.game, e.event.game),
            "total": totals.get(e.event_id, 0),
            "position": _final_position(e),
        }
        for e in entries
    ]
    context = {
        "player": player,
        "events": events,
        "history": history,
        "next_match": next_match(player),
        "is_me": request.user.is_authenticated and player.user_id == request.user.pk,
        "accuracies": [
            {**a, "game_name": names.get(a["game"], a["game"])}
            for a in gameplay.analysis_accuracies(player.user_id)
        ],
        **player_rating_sections(player),
    }
    return render(request, "league/player_detail.html", context)


def next_match(player: Player) -> Fixture | None:
    """The player's earliest published fixture with an online table and no result yet; with
    `watchable`: whether others may watch its table (league.services.table_links)."""
    return (
        with_watchable(Fixture.objects.all())
        .filter(
            seats__player=player,
            round__status=Round.Status.PUBLISHED,
            round__event__visibility=Event.Visibility.PUBLISHED,
        )
        .exclude(table_ref="")
        .exclude(results__current=True)
        .select_related("round__event")
        .order_by("round__published_at", "round_id", "number")
        .first()
    )
