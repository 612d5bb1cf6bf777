"""Entering many players at once: a pasted list or a CSV file (name, club, country, e-mail).

Names are unique without regard to case, so a row called "Ana" where a player "ana" exists can
only mean that player, or a typo for somebody else: the import never guesses. It stops with
`DuplicateNames` (a LeagueConflict: a confirmation page, or the API's 409) listing the rows
that match existing players; the organizer marks each one "use the existing player"
(`use_existing`) or renames it, and imports again. All rows or none: one transaction. A name
and a club follow the rule of names (accounts.names: NFC, no line breaks or invisible
characters), and a new name that looks like an existing player's ("ana" with a Cyrillic a) is
refused on its line; a country is an ISO 3166 code ("XX" is refused on its line).

Fast: 500 rows in a fixed number of queries (the players looked up at once, `bulk_create` for
the new players and the entries, the standings touched once: `import_entries`).

The e-mail address is kept on the entry (organizers only) for a player without an account, so
the organizer can send them one invitation to claim the player (league.services.claim_mail).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from accounts import names
from accounts.skeleton import name_skeleton
from league.errors import LeagueConflict, LeagueError
from league.models import Entry, Event, Player
from league.services import entering, players
from league.services.permissions import check_can_manage

MAX_ROWS = 500
NAME_MAX, CLUB_MAX = 60, 80
COLUMNS = ("name", "club", "country", "email")
# Header cells as people write them, to our columns.
HEADER_NAMES = {
    "name": "name",
    "player": "name",
    "club": "club",
    "country": "country",
    "email": "email",
    "e-mail": "email",
    "mail": "email",
}


@dataclass(frozen=True)
class ImportRow:
    """One player to enter: `line` is where it came from (for messages)."""

    line: int
    name: str
    club: str = ""
    country: str = ""
    email: str = ""
    use_existing: bool = False  # the organizer confirmed: a player of this name exists, enter them


@dataclass(frozen=True)
class Match:
    """A row whose name an existing player holds (in any case)."""

    row: ImportRow
    player: Player
    entered: bool  # that player has entered this event already


class ImportProblems(LeagueError):
    """Rows that cannot be read: every problem, one per line."""

    def __init__(self, problems: list[str]) -> None:
        # Each problem may end with its own full stop: one mark between two, not ".;".
        super().__init__("; ".join(problem.rstrip(".") for problem in problems))
        self.problems = problems


class DuplicateNames(LeagueConflict):
    """Rows naming existing players that the organizer has not confirmed."""

    def __init__(self, matches: list[Match]) -> None:
        names = ", ".join(f"{m.row.name} ({m.player.name})" for m in matches)
        super().__init__(
            _(
                "players with these names exist already: %(names)s. Enter the existing player "
                "(use_existing) or rename the row."
            )
            % {"names": names}
        )
        self.matches = matches


def _delimiter(first_line: str) -> str:
    if "\t" in first_line:
        return "\t"  # pasted from a spreadsheet
    if ";" in first_line and "," not in first_line:
        return ";"
    return ","


def parse_text(text: str) -> list[ImportRow]:
    """The rows of a pasted list or CSV text: one player a line, `name[,club[,country[,email]]]`,
    or columns named by a header line (name, club, country, e-mail). Raises ImportProblems."""
    text = (text or "").lstrip("\ufeff")
    lines = [
        (n, line)
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not lines:
        raise ImportProblems([_("the list is empty: one player a line")])
    reader = csv.reader((line for _n, line in lines), delimiter=_delimiter(lines[0][1]))
    cells = [[cell.strip() for cell in row] for row in reader]
    columns: Sequence[str] = COLUMNS
    problems: list[str] = []
    first = [cell.lower() for cell in cells[0]]
    if first and first[0] in ("name", "player"):
        columns = [HEADER_NAMES.get(cell, "") for cell in first]
        unknown = [cells[0][i] for i, col in enumerate(columns) if not col]
        if unknown:
            problems.append(
                _("line %(line)s: unknown column(s) %(columns)s (use name, club, country, e-mail)")
                % {"line": lines[0][0], "columns": ", ".join(unknown)}
            )
        cells, lines = cells[1:], lines[1:]
        if not cells:
            problems.append(_("the list has a header and no player"))
    rows = []
    for (line, _text), row in zip(lines, cells, strict=True):
        if len(row) > len(columns):
            problems.append(
                _("line %(line)s: %(n)s values, at most %(most)s")
                % {"line": line, "n": len(row), "most": len(columns)}
            )
            continue
        values = dict(zip(columns, row, strict=False))
        rows.append(
            ImportRow(
                line=line,
                name=values.get("name", ""),
                club=values.get("club", ""),
                country=values.get("country", ""),
                email=values.get("email", ""),
            )
        )
    if problems:
        raise ImportProblems(problems)
    return check_rows(rows)


def parse_csv_file(data: bytes) -> list[ImportRow]:
    """An uploaded CSV file (UTF-8, or Latin-1 as spreadsheets often save it)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return parse_text(text)


def check_rows(rows: Iterable[ImportRow]) -> list[ImportRow]:
    """Each row's values checked and tidied (country upper case); raises ImportProblems."""
    problems: list[str] = []
    tidy: list[ImportRow] = []
    seen: dict[str, int] = {}
    looks: dict[str, int] = {}
    for row in rows:
        hidden = names.text_problem(row.name) or names.text_problem(row.club)
        if hidden:
            problems.append(_("line %(line)s: %(problem)s") % {"line": row.line, "problem": hidden})
            continue
        name = " ".join(names.tidy(row.name).split())
        where = {"line": row.line, "name": name}
        if not name:
            problems.append(_("line %(line)s: a player needs a name") % where)
            continue
        if len(name) > NAME_MAX:
            problems.append(
                _("line %(line)s: %(name)s is longer than %(most)s characters")
                % {**where, "most": NAME_MAX}
            )
        if len(row.club) > CLUB_MAX:
            problems.append(
                _("line %(line)s: the club is longer than %(most)s characters")
                % {**where, "most": CLUB_MAX}
            )
        country = row.country.strip().upper()
        if bad_country := players.country_problem(row.country):
            problems.append(_("line %(line)s: %(problem)s") % {**where, "problem": bad_country})
        email = row.email.strip()
        if email:
            try:
                validate_email(email)
            except ValidationError:
                problems.append(
                    _("line %(line)s: %(email)s is no e-mail address") % {**where, "email": email}
                )
        key, look = name.casefold(), name_skeleton(name)
        if key in seen:
            problems.append(
                _("line %(line)s: %(name)s is on line %(first)s already (names ignore case)")
                % {**where, "first": seen[key]}
            )
        elif look in looks:
            problems.append(
                _("line %(line)s: %(name)s looks like the name on line %(first)s")
                % {**where, "first": looks[look]}
            )
        seen.setdefault(key, row.line)
        looks.setdefault(look, row.line)
        club = names.tidy(row.club)
        tidy.append(replace(row, name=name, club=club, country=country, email=email))
    if len(tidy) > MAX_ROWS:
        problems.append(_("at most %(most)s players at once") % {"most": MAX_ROWS})
    if problems:
        raise ImportProblems(problems)
    return tidy


def find_matches(event: Event, rows: Sequence[ImportRow]) -> list[Match]:
    """The rows whose names existing players hold (in any case), in row order; three queries
    at most, whatever the number of rows."""
    return _look_up(event, rows)[0]


def _look_up(event: Event, rows: Sequence[ImportRow]) -> tuple[list[Match], list[str]]:
    """The rows' matches (`find_matches`) and a problem for each new name that looks like an
    existing player's or account's (it would pass for them): `players.holders_of`, then the
    matched players' entries in this event."""
    holders = players.holders_of([row.name for row in rows])
    found = [holders.same[row.name.lower()] for row in rows if row.name.lower() in holders.same]
    entered = set()
    if found:
        entered = set(
            Entry.objects.filter(event=event, player__in=[p.pk for p in found]).values_list(
                "player_id", flat=True
            )
        )
    matches = [
        Match(row=row, player=player, entered=player.pk in entered)
        for row in rows
        if (player := holders.same.get(row.name.lower())) is not None
    ]
    similar = [
        _("line %(line)s: %(problem)s")
        % {"line": row.line, "problem": players.lookalike_problem(row.name, holder)}
        for row in rows
        if (holder := holders.similar.get(row.name)) is not None
    ]
    return matches, similar


@transaction.atomic
def import_entries(
    event: Event, rows: Sequence[ImportRow], *, by: Any, checked_in: bool = True
) -> list[Entry]:
    """Enter every row's player (new ones made with their club and country), or none.

    A row naming an existing player needs `use_existing` (else DuplicateNames, nothing done)
    and the organizer role (as `enter_player`); one already entered is refused. All at once:
    the players looked up together, the new ones and the entries made by `bulk_create`, the
    standings touched once: a fixed number of queries for 5 rows or 500 (docs/league.md,
    "Importing entries")."""
    check_can_manage(by, event)
    entering.require_open(event)
    problem = entering.late_entry_problem(event)
    if problem:
        raise LeagueError(problem)
    rows = check_rows(rows)
    matches, similar = _look_up(event, rows)
    if similar:
        raise ImportProblems(similar)
    unconfirmed = [m for m in matches if not m.row.use_existing]
    if unconfirmed:
        raise DuplicateNames(unconfirmed)
    if matches:
        entering.check_may_enter_existing(by)
    entered = [m.player.name for m in matches if m.entered]
    if entered:
        raise LeagueError(
            _("already entered: %(names)s (take them off the list)") % {"names": ", ".join(entered)}
        )
    existing = {m.row.line: m.player for m in matches}
    new_rows = [row for row in rows if row.line not in existing]
    made = players.make_players(
        [players.NewPlayer(name=r.name, club=r.club, country=r.country) for r in new_rows]
    )
    existing.update((row.line, player) for row, player in zip(new_rows, made, strict=True))
    entrants = [(existing[row.line], row.email) for row in rows]
    return entering.create_entries(event, entrants, checked_in=checked_in)
