"""A knockout's bracket page: the rounds as columns of tables, drawn as one SVG.

Challonge and start.gg draw a bracket; ours has tables of three or four, byes and best
non-winners, so it is not a binary tree: each round is a column of its tables, and a line runs
from each person who went on to the table where they played next (dashed for a best non-winner
taken on to fill the tables), the champion at the root on the right. Who went on is bold, how
is written under the table ("won the table", …, "the event's draw" for a lot). The layout is
computed here (`layout`, no database), the template only draws it; printed, it fits one
landscape page up to 32 players (`static/css/bracket.css`). A name too long for its box is
drawn narrower to fit (`fitted`) rather than over the payout beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from unicodedata import east_asian_width

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from league.pages.events import visible_event
from league.services.bracket import Bracket, BracketTable, bracket, is_knockout
from league.services.round_rules import criterion_label

COLUMN = 210  # a table's width
GAP = 56  # between two rounds' columns, where the lines run
ROW = 18  # one seat
HEAD = 22  # a table's title
FOOT = 18  # how the table was decided
PAD = 6
SPACE = 14  # between two tables of a round
TOP = 30  # the rounds' titles
INSET = 8  # text from a box's sides
FIGURE = 36  # kept at a seat's right for its payout ("+12", bold)
SEAT_FONT, FOOT_FONT = 13, 11  # px, as static/css/bracket.css draws them


def text_width(text: str, size: int, bold: bool = False) -> float:
    """A generous estimate of how wide the text is drawn, in px: the page has no script to
    measure it. Measured in Chromium, names take 0.57 em a letter (0.64 bold) on average, a
    wide East Asian letter 1 em."""
    em = 0.66 if bold else 0.59
    return sum(size if east_asian_width(c) in "WF" else size * em for c in text)


def fitted(text: str, room: int, size: int, bold: bool = False) -> int | None:
    """The length to draw the text in (SVG `textLength`, its letters narrowed) when it would
    not fit its room — a long name would run over the payout beside it and out of its box —
    else None: the text as it is."""
    return room if text_width(text, size, bold) > room else None


@dataclass
class Box:
    """A table (or the byes, or the champion) at its place: rows of (name, figure, classes)."""

    x: int
    y: int
    height: int
    title: str
    rows: list[tuple[str, str, str]]
    foot: str = ""
    foot_class: str = ""
    link: str = ""
    kind: str = "table"
    rows_y: list[int] = field(default_factory=list)

    @property
    def placed_rows(self) -> list[tuple[str, str, str, int, int | None]]:
        """(label, figure, classes, y of the text's baseline, the length to fit the label in
        or None) of each row, for the template; a bot's label says it is one."""
        placed = []
        for (name, figure, classes), y in zip(self.rows, self.rows_y, strict=True):
            label = f"{name} ({_('bot')})" if "bot" in classes.split() else name
            room = COLUMN - 2 * INSET - (FIGURE if figure else 0)
            fit = fitted(label, room, SEAT_FONT, bold="goes-on" in classes.split())
            placed.append((label, figure, classes, y, fit))
        return placed

    @property
    def foot_line(self) -> tuple[str, int | None]:
        """How the table was decided (a die before a lot), and the length to fit it in."""
        text = f"⚄ {self.foot}" if self.foot_class == "lot" else self.foot
        return text, fitted(text, COLUMN - 2 * INSET, FOOT_FONT, bold=self.foot_class == "lot")


@dataclass
class Drawing:
    width: int
    height: int
    titles: list[tuple[int, str]]  # (x of the column's middle, "Round 2")
    boxes: list[Box]
    lines: list[tuple[str, str]]  # (SVG path, class)


def how(table: BracketTable) -> str:
    """How the advancer went on from this table, as a page says it."""
    if not table.played:
        return _("not played yet")
    if table.decided_by == "won":
        return _("won the table")
    if table.decided_by == "table_payout":
        return _("the highest payout at the table")
    if table.decided_by == "alone":
        return _("the only one at the table still in the event")
    if table.decided_by in ("total_payouts", "match_points", "draw"):
        return criterion_label(table.decided_by)
    return ""


def layout(drawn: Bracket, fixture_url=lambda fixture_id: "") -> Drawing:
    """Where each table, each line and the champion go (pure: no database)."""
    columns: list[list[Box]] = []
    where: list[dict[int, tuple[Box, int]]] = []  # per round: player id → (box, row index)
    for round_ in drawn.rounds:
        boxes, seats = [], {}
        for table in round_.tables:
            rows = []
            for i, seat in enumerate(table.seats):
                classes = " ".join(
                    c
                    for c, on in (
                        ("goes-on", seat.goes_on),
                        ("filled", seat.filled),
                        ("won", seat.won),
                        ("bot", seat.bot),
                    )
                    if on
                )
                figure = "" if seat.payout is None else f"{seat.payout:+d}"
                rows.append((seat.name, figure, classes))
                seats[seat.player_id] = (len(boxes), i)
            title = _("Final") if round_.final else _("Table %(number)s") % {"number": table.number}
            foot = how(table)
            boxes.append(
                Box(
                    0,
                    0,
                    HEAD + ROW * len(rows) + FOOT + PAD,
                    title,
                    rows,
                    foot=foot,
                    foot_class="lot" if table.by_lot else "",
                    link=fixture_url(table.fixture_id),
                )
            )
        if round_.byes:
            for i, (player, _name) in enumerate(round_.byes):
                seats[player] = (len(boxes), i)
            rows = [(name, "", "goes-on") for _p, name in round_.byes]
            boxes.append(Box(0, 0, HEAD + ROW * len(rows) + PAD, _("Byes"), rows, kind="byes"))
        columns.append(boxes)
        where.append({p: (boxes[b], r) for p, (b, r) in seats.items()})
    if drawn.champion:
        columns.append([Box(0, 0, HEAD + ROW + PAD, _("Champion"), [(drawn.champion, "", "")])])
        columns[-1][0].kind = "champion"
    tallest = max((sum(b.height for b in c) + SPACE * (len(c) - 1) for c in columns), default=0)
    height = TOP + tallest + PAD
    for k, boxes in enumerate(columns):
        stack = sum(b.height for b in boxes) + SPACE * (len(boxes) - 1)
        y = TOP + (tallest - stack) // 2
        for box in boxes:
            box.x, box.y = k * (COLUMN + GAP), y
            box.rows_y = [y + HEAD + ROW * i + ROW - 5 for i in range(len(box.rows))]
            y += box.height + SPACE
    lines = []
    for k in range(len(drawn.rounds) - 1):
        after = where[k + 1]
        for player, (box, row) in where[k].items():
            target = after.get(player)
            if target is None:
                continue
            kind = "line filled" if box.rows[row][2].find("filled") >= 0 else "line"
            lines.append((_curve(box, row, *target), kind))
    if drawn.champion and drawn.rounds and drawn.rounds[-1].final:
        champion = columns[-1][0]
        for box in columns[len(drawn.rounds) - 1]:
            for row, (_name, _figure, classes) in enumerate(box.rows):
                if "goes-on" in classes:
                    lines.append((_curve(box, row, champion, 0), "line"))
    titles = [
        (
            k * (COLUMN + GAP) + COLUMN // 2,
            _("Final") if r.final else _("Round %(number)s") % {"number": r.number},
        )
        for k, r in enumerate(drawn.rounds)
    ]
    width = len(columns) * (COLUMN + GAP) - GAP if columns else COLUMN
    return Drawing(max(width, COLUMN), height, titles, [b for c in columns for b in c], lines)


def _curve(box: Box, row: int, target: Box, target_row: int) -> str:
    sx, sy = box.x + COLUMN, box.rows_y[row] - 4
    tx, ty = target.x, target.rows_y[target_row] - 4
    mid = (sx + tx) // 2
    return f"M{sx} {sy} C{mid} {sy} {mid} {ty} {tx} {ty}"


@require_GET
def bracket_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The bracket of a knockout (404 for other formats: they have standings, not a bracket)."""
    event = visible_event(request, slug)
    if not is_knockout(event):
        raise Http404("no bracket")
    drawn = bracket(event)

    def fixture_url(fixture_id: int) -> str:
        return reverse("league:fixture", args=[event.slug, fixture_id])

    context = {
        "event": event,
        "bracket": drawn,
        "drawing": layout(drawn, fixture_url),
        "champion_how": criterion_label(drawn.champion_by)
        if drawn.champion_by in ("total_payouts", "match_points", "draw")
        else "",
        "column": COLUMN,
    }
    return render(request, "league/bracket.html", context)
