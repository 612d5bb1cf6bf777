"""The kinds of notice: what each says (in the reader's language) and whether it is e-mailed
unless the player switches it off. `league.services.notifications` makes them.

A notice stores its kind and a small JSON context (numbers, times as ISO strings, players by
id); the words are put together when it is read or mailed, so they follow the reader's language,
the event's time zone and the players' names as they are then (a deleted account's player is
anonymous in every notice), and a missing value reads "?" rather than failing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gameplay.api import pace_label
from games import catalogue
from league.models import Notice, NoticeSettings, Player
from league.services.event_times import show_time

# Context values that are times (ISO strings): shown in the event's time zone.
TIME_KEYS = ("deadline", "when", "starts_at")


class Context(dict):
    """A notice's context for `%` formatting: a value that is not there reads "?"."""

    def __missing__(self, key: str) -> str:
        return "?"


@dataclass(frozen=True)
class Kind:
    name: str
    label: Any  # lazy text: the switch on the profile page
    email_default: bool
    title: Callable[[Context], str]
    text: Callable[[Context], str]


def _round_published_text(c: Context) -> str:
    text = _("Round %(round)s of %(event)s is out: you play at table %(table)s, seat %(seat)s.") % c
    if c.get("asynchronous") and c.get("deadline"):
        text += (
            " "
            + _(
                "Agree on a time with the other players on the table's page and play by "
                "%(deadline)s: any of you opens the table."
            )
            % c
        )
    elif c.get("asynchronous"):  # no deadline when it was published: told when one is set
        text += " " + _(
            "Agree on a time with the other players on the table's page: any of you opens the "
            "table. The round has no deadline for now."
        )
    elif c.get("online"):
        text += " " + _("Log in and open your table to play.")
    elif c.get("deadline"):
        text += " " + _("Deadline: %(deadline)s.") % c
    return text


def _deadline_changed_title(c: Context) -> str:
    if c.get("deadline"):
        return _("Deadline %(deadline)s: round %(round)s of %(event)s") % c
    return _("No deadline any more: round %(round)s of %(event)s") % c


def _deadline_changed_text(c: Context) -> str:
    if c.get("deadline"):
        return (
            _(
                "Round %(round)s of %(event)s now ends at %(deadline)s: play your table "
                "%(table)s by then."
            )
            % c
        )
    return _("Round %(round)s of %(event)s has no deadline any more.") % c


def _with_game(c: Context) -> Context:
    """The context with the game's name in the reader's language (stored by its key)."""
    out = Context(c)
    if c.get("game"):
        out["game"] = catalogue.display_name(str(c["game"]))  # an unknown one as it is
    return out


def _your_turn_text(c: Context) -> str:
    c = _with_game(c)
    if c.get("deadline"):
        return _("It is your move at your turn-based %(game)s table: play by %(deadline)s.") % c
    return _("It is your move at your turn-based %(game)s table.") % c


def _challenge_text(c: Context) -> str:
    c = _with_game(c)
    if c.get("pace"):
        c["pace"] = pace_label(c["pace"])
    return (
        _(
            "%(by)s challenges you to a turn-based %(game)s table (%(pace)s). Accept or decline "
            "it in the lobby."
        )
        % c
    )


def _deadline_passed_text(c: Context) -> str:
    head = _("The deadline of round %(round)s, table %(table)s of %(event)s has passed:") % c
    outcome = c.get("outcome")
    if outcome == "extended":
        tail = _("the table has until %(deadline)s.") % c
    elif outcome == "bot":
        tail = _("its table is open now, bots play the seats of %(absent)s.") % c
    else:
        tail = _("%(absent)s forfeit.") % c
    return f"{head} {tail}"


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind(
            "round_published",
            gettext_lazy("A round is out (your table and seat)"),
            True,
            lambda c: _("Round %(round)s of %(event)s is out") % c,
            _round_published_text,
        ),
        Kind(
            "deadline_soon",
            gettext_lazy("A deadline approaches and your table has no result"),
            True,
            lambda c: _("Deadline %(deadline)s: round %(round)s of %(event)s") % c,
            lambda c: (
                _(
                    "Round %(round)s of %(event)s ends at %(deadline)s, and your table %(table)s "
                    "has no result yet."
                )
                % c
            ),
        ),
        Kind(
            "deadline_changed",
            gettext_lazy("A round that is out gets a deadline, or its deadline moves"),
            True,
            _deadline_changed_title,
            _deadline_changed_text,
        ),
        Kind(
            "result_entered",
            gettext_lazy("Your result was entered"),
            True,
            lambda c: _("Your result in round %(round)s of %(event)s") % c,
            lambda c: _("The result of round %(round)s, table %(table)s of %(event)s counts.") % c,
        ),
        Kind(
            "result_corrected",
            gettext_lazy("Your result was corrected"),
            True,
            lambda c: _("Your result in round %(round)s of %(event)s was corrected") % c,
            lambda c: (
                _(
                    "The result of round %(round)s, table %(table)s of %(event)s was corrected: "
                    "%(reason)s"
                )
                % c
            ),
        ),
        Kind(
            "moved_up",
            gettext_lazy("You moved up from a waiting list"),
            True,
            lambda c: _("You are in %(event)s") % c,
            lambda c: _("A place came free: you moved up from the waiting list of %(event)s.") % c,
        ),
        Kind(
            "time_proposed",
            gettext_lazy("Asynchronous events: someone proposes a time for your table"),
            True,
            lambda c: _("%(by)s proposes %(when)s") % c,
            lambda c: (
                _(
                    "%(by)s proposes to play round %(round)s, table %(table)s of %(event)s at "
                    "%(when)s: accept it, or propose another time, on the table's page."
                )
                % c
            ),
        ),
        Kind(
            "time_agreed",
            gettext_lazy("Asynchronous events: your table agreed on a time"),
            True,
            lambda c: _("Agreed: %(when)s") % c,
            lambda c: (
                _(
                    "Everyone at round %(round)s, table %(table)s of %(event)s accepted %(when)s. "
                    "Any of you opens the table then."
                )
                % c
            ),
        ),
        Kind(
            "table_opened",
            gettext_lazy("Asynchronous events: someone opened your table"),
            True,
            lambda c: _("%(by)s is waiting at your table") % c,
            lambda c: (
                _(
                    "%(by)s opened round %(round)s, table %(table)s of %(event)s: the match has "
                    "started, join it now."
                )
                % c
            ),
        ),
        Kind(
            "deadline_passed",
            gettext_lazy("Asynchronous events: a deadline passed and the policy applied"),
            True,
            lambda c: _("Deadline passed: round %(round)s, table %(table)s") % c,
            _deadline_passed_text,
        ),
        Kind(
            "your_turn",
            gettext_lazy("Turn-based tables: it is your move"),
            True,
            lambda c: _("Your move: %(game)s") % _with_game(c),
            _your_turn_text,
        ),
        Kind(
            "challenge",
            gettext_lazy("Turn-based tables: a challenge by name"),
            True,
            lambda c: _("Challenge from %(by)s") % c,
            _challenge_text,
        ),
    )
}


def reader_zones(user_ids: set[int]) -> dict[int, str]:
    """Each account's own time zone (its notice settings), where it set one: one query."""
    rows = NoticeSettings.objects.filter(user_id__in=user_ids).exclude(time_zone="")
    return dict(rows.values_list("user_id", "time_zone"))


def _zone(context: dict[str, Any], reader_zone: str | None) -> str:
    """An event's notice on the event's clocks; any other on the reader's (else the site's)."""
    return str(context.get("time_zone") or reader_zone or settings.TIME_ZONE)


def made_at(notice: Notice, language: str | None = None, reader_zone: str | None = None) -> str:
    """When the notice was made, on its event's clocks (the reader's, else the site's, for a
    notice of no event), labelled with the zone: "Jan. 5, 2026, 6:30 p.m. CET"."""
    return show_time(notice.created_at, _zone(notice.context, reader_zone), language)


def kind_choices() -> list[tuple[str, Any]]:
    """(name, label) of every kind, for the profile's switches."""
    return [(kind.name, kind.label) for kind in KINDS.values()]


def player_ids(context: dict[str, Any]) -> set[int]:
    """The players a context names (`by_player`, `absent_players`)."""
    ids = {context.get("by_player"), *(context.get("absent_players") or [])}
    return {i for i in ids if isinstance(i, int)}


def player_names(contexts: list[dict[str, Any]]) -> dict[int, str]:
    """The current names of the players these contexts name: one query."""
    ids = set().union(*(player_ids(c) for c in contexts)) if contexts else set()
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}


def readable_context(
    context: dict[str, Any],
    language: str | None = None,
    names: dict[int, str] | None = None,
    reader_zone: str | None = None,
) -> Context:
    """The context with its times shown in the event's time zone (the reader's for a notice of
    no event) and its players named, for the words of a kind."""
    out = Context(context)
    names = names if names is not None else player_names([context])
    if "by_player" in context:
        out["by"] = names.get(context["by_player"], "?")
    if "absent_players" in context:
        out["absent"] = ", ".join(names.get(i, "?") for i in context["absent_players"])
    zone_name = _zone(context, reader_zone)
    for key in TIME_KEYS:
        value = context.get(key)
        moment = parse_datetime(value) if isinstance(value, str) else None
        if moment is not None:
            out[key] = show_time(moment, zone_name, language)
    return out


def words(
    kind: str,
    context: dict[str, Any],
    language: str | None = None,
    names: dict[int, str] | None = None,
    reader_zone: str | None = None,
) -> tuple[str, str]:
    """(title, text) of a notice in the active language (or `language`); `names` the players'
    names (`player_names`), looked up when not given; `reader_zone` the reader's time zone
    (`reader_zones`) for the times of a notice of no event."""
    spec = KINDS.get(kind)
    if spec is None:
        return kind, ""
    ctx = readable_context(context, language, names, reader_zone)
    return spec.title(ctx), spec.text(ctx)
