"""The one door from other apps into gameplay: the table lifecycle.

`league` (and anything else outside gameplay) reaches the table server only through this module:
start a table for a fixture (a duplicate section's too, and release it), stop one whose seats
are absent, read a finished table's record, the tables an account sits at, and — translated, so
not in the pure `games` — a game's legend, its variant's labels and form field, the bot levels.
What is pure game knowledge (a game's info, variants checked, records, score sheets and grids
scored) it imports from `games.catalogue` directly. Gameplay never imports league; it announces
a finished match with the `match_finished` signal (`gameplay/signals.py`, re-exported here; sent
after commit).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, F, OuterRef, Q
from django.utils.translation import gettext

from gameplay import paces
from gameplay.card_letters import rank_label
from gameplay.demo import demo_table
from gameplay.forms import variant_field
from gameplay.models import ChatLine, Seat, Table, new_seat_token
from gameplay.runtime import cache
from gameplay.services import analysis, live, vacation
from gameplay.services import duplicate_tables as duplicate
from gameplay.services.create import SeatSpec, create_table
from gameplay.services.errors import TableError
from gameplay.services.lobby import MAX_DEALS
from gameplay.services.stopping import stop_table as stop_playing
from gameplay.services.summaries import legend as engine_legend
from gameplay.signals import (
    ReportRefused,
    challenge_made,
    chat_reported,
    match_finished,
    turn_due,
)
from gameplay.variant_labels import flag_label, value_label
from games import registry
from games.core.errors import VariantError

__all__ = [
    "ReportRefused",  # a `chat_reported` receiver refuses the report (docs/chat.md)
    "admits_spectators",
    "analysis_accuracies",
    "anonymize_seats",
    "bot_level_label",
    "bot_levels",
    "busy_accounts",
    "challenge_made",
    "chat_reported",  # a line of a table's chat reported to staff (gameplay/signals.py)
    "check_deal_set",
    "deal_outcomes",
    "deal_set",
    "describe_variant",
    "duplicate_problem",
    "flag_label",
    "legend",
    "match_finished",
    "max_deals",
    "rank_label",  # a card's letter in the page's language (gameplay/card_letters.py)
    "release_tables",
    "rename_seats",
    "start_table",
    "stop_table",
    "table_result",
    "tables_played_to_the_end",
    "turn_due",
    "unfinished_tables_of",
    "value_label",
    "variant_field",
]


def legend(game_name: str) -> dict[str, str]:
    """What a deal's score and payout mean in this game, and who wins a match, translated: the
    engine's `LEGEND` (`unit`, `score`, `payout`, `winner`), as the table's Match legend shows
    it; `KeyError` for an unknown game."""
    return engine_legend(game_name)


def bot_levels(game_name: str) -> list[str]:
    """The built-in bot levels that can play this game, weakest first (docs/bots.md)."""
    from games import bots

    return bots.levels(game_name)


def bot_level_label(level: str) -> str:
    """A bot level as a person reads it, translated: its label in the bot registry ("Strong");
    an unknown one (a level since removed) capitalized."""
    from games import bots

    try:
        return gettext(bots.level(level).label)
    except KeyError:
        return level.capitalize()


def max_deals() -> int:
    """The most deals one table plays (the lobby's bound): an event's matches are held to it."""
    return MAX_DEALS


def describe_variant(
    game_name: str, variant: Any, *, changed_only: bool = False
) -> list[tuple[str, str]]:
    """A game's variant as a person reads it: (label, value label) for each flag of the game's
    schema, in its order, translated, defaults filled in ("Payout", "score differences"), never
    a raw `payout=raw`. `changed_only`: only the flags set otherwise than their default (a
    table's header says what differs from the usual game).

    Lenient, as pages must be: an unknown game gives [], a flag the schema no longer has is left
    out, and a value it does not list is shown as it is (`value_label`).
    """
    try:
        schema = registry.get_game(game_name).variant_schema()
    except KeyError:
        return []
    given = variant if isinstance(variant, dict) else {}
    described = []
    for flag in schema:
        value = given.get(flag["name"], flag["default"])
        default = flag["default"]
        if changed_only and type(value) is type(default) and value == default:
            continue
        described.append((flag_label(flag), value_label(flag, value)))
    return described


def start_table(
    game_name: str,
    *,
    seats: list[int | str],
    variant: dict[str, Any] | None = None,
    n_deals: int = 1,
    seed: int | str | None = None,
    seconds_per_move: int = 60,
    on_timeout: str = "default",
    allow_spectators: bool = True,
    rated: bool = False,
    names: list[str] | None = None,
    bot_level: str = "basic",
    deals: list[dict[str, Any]] | None = None,
    embargoed: bool = False,
    context: dict[str, Any] | None = None,
    pace: str = "",
    chat: bool = False,
) -> str:
    """Open an online table for a fixture and return its id (the league's `table_ref`).

    `seats` in seat order (seat 0 deals first): a user id (int) for a person, a name (str) for a
    bot seat played by the built-in bot at `bot_level` (one of `bot_levels`, docs/bots.md).
    `names` are the display names (default: usernames and bot names). `seed`: leave it None,
    and the deals come from a secret seed drawn with `secrets`; a given seed makes every hand
    predictable to whoever knows it (never pass anything derived from public data). Tables
    given the same seed (a duplicate section's secret one) are dealt the same deals and show
    the same deal commitments. `deals`: explicit deals dealt first (records' `hands`/`stock`,
    each may carry its secret `salt`: without one a deal has no commitment; 1 to `n_deals` of
    them, the seed deals the rest). `embargoed`: a duplicate table — no spectators whatever
    `allow_spectators` says, and its record, replay, salts and result are withheld from
    everyone, its players too, until `release_tables`; it plays and sends `match_finished`
    as any table. `on_timeout` is "default" (a legal default action) or "forfeit". `context`:
    where the table belongs, which its page's header shows as a link back — `{"event": name,
    "round": n, "table": n, "url": "/a/local/path/"}`, each part optional, the words ("Round",
    "Table") the page's own, translated. Raises `VariantError` for a bad variant, seat count,
    match length, bot level, deal or context (an unknown part, a URL that is not a path on this
    site). `chat`: the table's chat is on (docs/chat.md; off by default for an event's table,
    always off at an embargoed one). Call it inside the league's transaction: bots start moving
    only after it commits.
    `pace`: the name of a pace (`pace_choices`; a turn-based one plays the table by the day,
    docs/tables.md "Turn-based tables"): its seconds replace `seconds_per_move`.
    """
    if pace:
        seconds = pace_seconds(pace)
        if seconds is None:
            raise VariantError(f"unknown pace {pace!r}")
        seconds_per_move = seconds
    if not isinstance(embargoed, bool):
        raise VariantError("embargoed must be true or false")
    if not isinstance(chat, bool):
        raise VariantError("chat must be true or false")
    if deals is not None:
        deals = duplicate.normalised_deals(
            game_name, variant, deals, n_deals, exact=False, keep_salts=True
        )
    users = get_user_model().objects.in_bulk([s for s in seats if isinstance(s, int)])
    specs = []
    for n, who in enumerate(seats):
        if isinstance(who, bool) or not isinstance(who, (int, str)):
            raise VariantError(f"seat {n} must be a user id or a bot name")
        if isinstance(who, int):
            if who not in users:
                raise VariantError(f"seat {n}: no user {who}")
            name = users[who].get_username()
            specs.append(SeatSpec(names[n] if names else name, user_id=who))
        else:
            specs.append(SeatSpec(names[n] if names else who, bot=who, bot_level=bot_level))
    try:
        table = create_table(
            game_name,
            specs,
            variant=variant,
            n_deals=n_deals,
            seed=seed,
            seconds_per_move=seconds_per_move,
            on_timeout=on_timeout,
            allow_spectators=allow_spectators,
            rated=rated,
            origin="event",  # never listed by the lobby (lobby-api.md)
            deals=deals,
            embargoed=embargoed,
            context=context,
            pace=pace,
            chat=chat,
        )
    except KeyError:
        raise VariantError(f"unknown game {game_name!r}") from None
    except ValueError as exc:
        raise VariantError(str(exc)) from None
    return table.id


def stop_table(table_ref: str, seats: list[int]) -> dict[str, Any] | None:
    """End an event's table now because `seats` are absent: they forfeit (as on the clock), the
    match is over for everyone at it, and `match_finished` follows after commit. Returns the
    record as it stopped (`mediana.record/1`; its last deal may be in progress: score it to see
    the deals finished), or None when it is not stopped: no such table, its match is over (or
    never dealt), or a seat it does not have. Call it inside the league's transaction: a
    rollback undoes the stop."""
    try:
        return stop_playing(table_ref, seats)
    except TableError:
        return None


def admits_spectators(table_ref_field: str) -> Exists:
    """Whether the table whose id is in `table_ref_field` of another app's rows may be watched
    by anyone now: it allows spectators and is not embargoed (a duplicate table never is, even
    released). False for no table (""). An expression to annotate a queryset with, so a page
    that lists tables asks it in the query it makes anyway: `fixtures.annotate(watchable=
    admits_spectators("table_ref"))`. A table's own players may look whatever it says."""
    return Exists(
        Table.objects.filter(pk=OuterRef(table_ref_field), allow_spectators=True, embargoed=False)
    )


def table_size_problem(game_name: str, variant: Any, seats: int) -> str | None:
    """Why this variant is not played at a table of `seats` (3-5-8's Woburn bidding at a table
    of four: the auction would choose who deals, so nobody would know who sits out) —
    translated; None when it is. Raises `VariantError` for an unknown game or a bad variant."""
    spec = registry.get_game(game_name)
    if seats not in spec.table_sizes:
        return gettext("%(game)s is not played at a table of %(seats)s.") % {
            "game": spec.display_name,
            "seats": seats,
        }
    try:
        spec.engine_for(seats).resolve_variant(variant)
    except VariantError as exc:
        return gettext(str(exc))
    return None


# --- duplicate events (../shared/spec/duplicate.md; gameplay/services/duplicate_tables.py) --------


def duplicate_problem(game_name: str, variant: Any) -> str | None:
    """Why this variant cannot be played in duplicate — play would change how many deals the
    match has or who deals next (3-5-8 without `fixed_length`, Woburn bidding) — translated;
    None when it can. Raises `VariantError` for an unknown game or a bad variant."""
    return duplicate.duplicate_problem(game_name, variant)


def deal_set(
    game_name: str,
    variant: dict[str, Any] | None,
    n_deals: int,
    *,
    seed: int | str | None = None,
    deals: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The deals every table started with this `seed` / these `deals` (`start_table`) is dealt:
    per deal `{"hands": [[codes]], "stock": [codes], "commitment": str | None}`, exactly as
    the tables show them (printable hand records, the travellers' hands). Secret: call it
    only for whoever may see the section's cards. `VariantError` for bad input."""
    return duplicate.deal_set(game_name, variant, n_deals, seed=seed, deals=deals)


def check_deal_set(
    game_name: str, variant: dict[str, Any] | None, deals: Any, n_deals: int
) -> list[dict[str, Any]]:
    """An uploaded deal set checked — a list of exactly `n_deals` `{"hands", "stock"}` of the
    game's deck (or a record holding them) — and normalised to exactly those two fields.
    Raises `VariantError` whose message (translated) names the deal, from 1."""
    return duplicate.check_deal_set(game_name, variant, deals, n_deals)


def release_tables(table_refs: list[str]) -> int:
    """Lift the embargo of these tables (their section is complete): from now on their
    records, replays, salts and results are shown as any table's. Returns how many were
    embargoed; an unknown or already released id is skipped."""
    return duplicate.release_tables(table_refs)


def deal_outcomes(record: dict[str, Any]) -> list[str]:
    """One short translated line per deal of a `mediana.record/1` record — the contract or the
    outcome ("Chiamo by seat 2, won with 7 points"), from the engines' deal summaries — for a
    traveller. Raises `RecordError` for a record that does not replay."""
    return duplicate.deal_outcomes(record)


def table_result(table_ref: str) -> dict[str, Any] | None:
    """A table's outcome, or None while it is being played (and for an unknown table).

    `{"result": score_record-shaped dict, "record": mediana.record/1, "forfeited_seats": [..],
    "finished_at": datetime, "rated": bool, "seats": [..]}`, the seats as `match_finished`
    announces them; a forfeited match has `complete: false` and `result["forfeited"]`. All the
    league needs of a finished table in one read (league/finished_tables.py).
    """
    from gameplay.models import Seat, Table
    from gameplay.services.after_commit import announced_seat

    row = (
        Table.objects.filter(pk=table_ref, status=Table.Status.FINISHED)
        .values("result", "record", "forfeited_seats", "finished_at", "rated")
        .first()
    )
    if row is not None:
        row["seats"] = [
            announced_seat(*seat)
            for seat in Seat.objects.filter(table_id=table_ref)
            .order_by("number")
            .values_list("number", "user_id", "bot", "bot_level", "resigned_user_id")
        ]
    return row


def finished_rated_tables(since: Any, until: Any) -> list[dict[str, Any]]:
    """The `match_finished` announcements of rated tables that finished in [since, until], as
    keyword dicts, so a receiver that missed one (it failed, the process died) can catch up."""
    from gameplay.models import Seat, Table
    from gameplay.services.after_commit import announced_seat

    tables = list(
        Table.objects.filter(
            status=Table.Status.FINISHED, rated=True, finished_at__gte=since, finished_at__lte=until
        ).values("id", "result", "rated", "finished_at", "forfeited_seats")
    )
    seats: dict[str, list[dict[str, Any]]] = {}
    for table_id, number, user_id, bot, bot_level, resigned_user_id in (
        Seat.objects.filter(table_id__in=[t["id"] for t in tables])
        .order_by("table_id", "number")
        .values_list("table_id", "number", "user_id", "bot", "bot_level", "resigned_user_id")
    ):
        # A seat its person resigned is theirs (a bot only played it out), as announced.
        seats.setdefault(table_id, []).append(
            announced_seat(number, user_id, bot, bot_level, resigned_user_id)
        )
    return [
        {
            "table_ref": t["id"],
            "result": t["result"],
            "seats": seats.get(t["id"], []),
            "rated": t["rated"],
            "finished_at": t["finished_at"],
            "forfeited_seats": list(t["forfeited_seats"] or []),
        }
        for t in tables
    ]


def tables_played_to_the_end(user_ids: Iterable[int], before: Any) -> dict[int, int]:
    """How many finished tables, rated or not, each account held its seat at to the end (a seat
    it resigned does not count), finished before `before`; one aggregate query. The ratings ask
    it whether an account has played enough to be trusted (league.ratings.eligibility)."""
    return dict(
        Seat.objects.filter(
            user_id__in=list(user_ids),
            table__status=Table.Status.FINISHED,
            table__finished_at__lt=before,
        )
        .values("user_id")
        .annotate(n=Count("table_id"))
        .values_list("user_id", "n")
    )


def open_demo_table() -> dict[str, str]:
    """Make (or find) the demo's table against bots; its id and the demo player's seat token."""
    table = demo_table()
    return {"table": table, "token": Seat.objects.get(table_id=table, number=0).token}


# --- accounts that are deleted (league.profile.deletion) ----------------------------------------

# Tables whose seats are done with: nothing is played at them any more.
_OVER = ("finished", "cancelled")


def unfinished_tables_of(user_id: int) -> list[str]:
    """The tables still waiting or being played where this account sits (or resigned a seat a
    bot plays on for it), newest first: its account cannot be deleted until they are over."""
    return list(
        Seat.objects.filter(Q(user_id=user_id) | Q(resigned_user_id=user_id))
        .exclude(table__status__in=_OVER)
        .order_by("-table__created_at")
        .values_list("table_id", flat=True)
        .distinct()
    )


def finished_tables_together(user_id: int, other_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """The latest finished tables at which both accounts sat (or resigned a seat), newest
    first: `{"ref", "game", "finished_at"}` — what a player's report may attach. Two queries."""

    def sat(uid: int) -> Q:
        return Q(seats__user_id=uid) | Q(seats__resigned_user_id=uid)

    mine = Table.objects.filter(sat(user_id)).values("pk")
    rows = (
        Table.objects.filter(pk__in=mine, status=Table.Status.FINISHED)
        .filter(sat(other_id))
        .distinct()
        .order_by("-finished_at")
        .values_list("pk", "game", "finished_at")[:limit]
    )
    return [{"ref": ref, "game": game, "finished_at": at} for ref, game, at in rows]


def finished_tables_of_people(since: Any, games: Iterable[str], people: int = 2) -> list[str]:
    """The finished tables of these games since `since` at which at least `people` accounts sat
    (or resigned a seat), the oldest first: what the fair-play judging reads. One query."""
    sat = Q(seats__user_id__isnull=False) | Q(seats__resigned_user_id__isnull=False)
    return list(
        Table.objects.filter(
            status=Table.Status.FINISHED, finished_at__gte=since, game__in=list(games)
        )
        .annotate(people=Count("seats", filter=sat))
        .filter(people__gte=people)
        .order_by("finished_at")
        .values_list("pk", flat=True)
    )


def busy_accounts(user_ids: Iterable[int], since: Any) -> set[int]:
    """Those of these accounts that sit (or resigned, or have a rematch seat kept) at a table
    that waits or is being played, or at any table touched since `since`: a guest's games that
    are not done with (league.services.guests). One query."""
    ids = list(user_ids)
    if not ids:
        return set()
    seats = Seat.objects.filter(
        Q(table__updated_at__gte=since) | ~Q(table__status__in=_OVER),
    )
    found: set[int] = set()
    for field in ("user_id", "resigned_user_id", "reserved_for_id"):
        found.update(seats.filter(**{f"{field}__in": ids}).values_list(field, flat=True).distinct())
    return found


def anonymize_seats(user_id: int, name: str) -> int:
    """Take a deleted account out of every table it sat at: each seat keeps its place in the
    table's history under `name` (its display name, and its name in the table's record and
    state) but no longer names the account; its token is replaced (it acts for nobody). Call it
    inside the caller's transaction, after `unfinished_tables_of` found none. Returns the number
    of seats changed."""
    seats = list(
        Seat.objects.select_for_update()
        .filter(Q(user_id=user_id) | Q(resigned_user_id=user_id) | Q(reserved_for_id=user_id))
        .order_by("table_id", "number")
    )
    by_table: dict[str, list[int]] = {}
    for seat in seats:
        mine = seat.user_id == user_id or seat.resigned_user_id == user_id
        if mine:
            by_table.setdefault(seat.table_id, []).append(seat.number)
            seat.name = name
            seat.token = new_seat_token()
        if seat.user_id == user_id:
            seat.user_id = None
        if seat.resigned_user_id == user_id:
            seat.resigned_user_id = None
        if seat.reserved_for_id == user_id:
            seat.reserved_for_id = None
    Seat.objects.bulk_update(seats, ["name", "token", "user", "resigned_user", "reserved_for"])
    _rename_in_tables(by_table, name)
    # Its lines in the tables' chats (docs/chat.md) stay in the conversations, under `name`.
    ChatLine.objects.filter(user_id=user_id).update(name=name, user=None)
    return len(seats)


def rename_seats(user_id: int, name: str) -> int:
    """A guest who signed up keeps their games under their new name: every seat the account
    holds (or resigned) is shown as `name` from now on, in its display name and in the table's
    record and state, finished tables included; the account keeps the seats. Call it inside the
    caller's transaction. Returns the number of seats renamed."""
    seats = list(
        Seat.objects.select_for_update()
        .filter(Q(user_id=user_id) | Q(resigned_user_id=user_id))
        .order_by("table_id", "number")
    )
    by_table: dict[str, list[int]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat.number)
        seat.name = name
    Seat.objects.bulk_update(seats, ["name"])
    _rename_in_tables(by_table, name)
    ChatLine.objects.filter(user_id=user_id).update(name=name)  # its chat lines (docs/chat.md)
    return len(seats)


def _rename_in_tables(by_table: dict[str, list[int]], name: str) -> None:
    """Write `name` for these seats (table id → seat numbers) into each table's record and state,
    and let every connection read the seats again. The tables stay unrated: a guest played at
    them, and the name no longer says so."""
    for table in Table.objects.select_for_update().filter(pk__in=list(by_table)):
        numbers = by_table[table.pk]
        for blob in (table.record, (table.state or {}).get("state")):
            players = blob.get("players") if isinstance(blob, dict) else None
            if isinstance(players, list):
                for n in numbers:
                    if n < len(players):
                        players[n] = name
        Table.objects.filter(pk=table.pk).update(
            record=table.record, state=table.state, rated=False, seats_rev=F("seats_rev") + 1
        )
        cache.forget(table.pk)


def tell_user(user_id: int, message: dict[str, Any]) -> None:
    """Send a live message to every open page of one account after the current transaction
    commits (the lobby socket every page opens, static/js/live.js): how the league's notices
    reach the header's bell at once. A lost message never fails the write it follows."""
    live.to_user(user_id, message)


def vacation_status(user: Any) -> vacation.Vacation:
    """The account's vacation from turn-based clocks (`until`, `days_left`, `per_year`,
    `away`) for its profile page; no query (docs/tables.md, "Vacation")."""
    return vacation.status(user)


def pace_choices() -> list[tuple[str, Any]]:
    """Every pace as (name, label): the live ones, then the turn-based ones (days a move)."""
    return [(p.name, p.label) for p in paces.friendly_paces()]


def describe_clock(pace: str, seconds: int) -> str:
    """A clock in a person's words: "2 days a move", "Relaxed · 90 s a move", "no clock"."""
    return paces.describe(pace, seconds)


def pace_label(name: Any) -> str:
    """The pace called `name` in a person's words ("2 days a move"), in the active language;
    the name itself for one that is not (any more) a pace."""
    found = paces.PACES.find(name) if isinstance(name, str) else None
    return str(name) if found is None else str(found.label)


def pace_is_turn_based(name: Any) -> bool:
    """Whether `name` is a pace of days a move (its tables are played by the day)."""
    seconds = pace_seconds(name)
    return seconds is not None and paces.turn_based(seconds)


def pace_seconds(name: Any) -> int | None:
    """The seconds a move of the pace called `name`; None for no such pace."""
    found = paces.PACES.find(name) if isinstance(name, str) else None
    return None if found is None else found.seconds


def analysis_accuracies(user_id: int | None, limit: int = 20) -> list[dict[str, Any]]:
    """The account's accuracy in each analysed public game, newest first (the player page;
    docs/bots.md, "Game analysis"): table, game, finished_at, accuracy, marks, decisions."""
    if user_id is None:
        return []
    return analysis.accuracies(user_id, limit)
