"""The organizer's import of many entries at once (league.services.entry_import).

First step: a pasted list or a CSV file is read; rows with problems come back with every
problem listed. Rows without a namesake are entered at once; if any row names a player who
exists (in any case), nothing is entered yet and a confirmation step lists those rows: each one
enters the existing player or is renamed. Its form carries the rows back (they are checked again:
the organizer could have typed them anyway).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from league.errors import LeagueError
from league.forms.people import ImportForm
from league.models import Event
from league.pages.organizer import GET_OR_POST, organizer_view
from league.services import entry_import
from league.services.entry_import import DuplicateNames, ImportProblems, ImportRow
from league.services.permissions import can_organize

FIELDS = ("line", "name", "club", "country", "email")


def rows_to_json(rows: list[ImportRow]) -> str:
    return json.dumps([{f: getattr(row, f) for f in FIELDS} for row in rows])


def rows_from_json(text: str) -> list[ImportRow]:
    """The rows the confirmation form carried back; a 400 page for anything else."""
    try:
        data = json.loads(text or "")
        rows = [
            ImportRow(
                line=int(item["line"]),
                **{f: str(item.get(f, "")) for f in FIELDS if f != "line"},
            )
            for item in data
        ]
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        # RecursionError: `json` recurses once per level of a deeply nested list.
        raise LeagueError(_("the list came back damaged: paste it again")) from None
    return rows


def _decided(request: HttpRequest, rows: list[ImportRow]) -> list[ImportRow]:
    """Apply the confirmation step's choices: enter the existing player, or a new name."""
    out = []
    for row in rows:
        choice = request.POST.get(f"choice_{row.line}")
        if choice == "use":
            row = ImportRow(**{**row.__dict__, "use_existing": True})
        elif choice == "rename":
            row = ImportRow(**{**row.__dict__, "name": request.POST.get(f"rename_{row.line}", "")})
        out.append(row)
    return out


def _confirm(
    request: HttpRequest, event: Event, rows: list[ImportRow], matches: list, errors: list[str]
) -> HttpResponse:
    matched = {m.row.line: m for m in matches}
    context = {
        "event": event,
        "rows": [{"row": row, "match": matched.get(row.line)} for row in rows],
        "rows_json": rows_to_json(rows),
        "errors": errors,
        "may_use_existing": can_organize(request.user),
        "n_new": sum(1 for row in rows if row.line not in matched),
    }
    return render(request, "league/import_confirm.html", context, status=400 if errors else 200)


def _entered(request: HttpRequest, event: Event, n: int) -> HttpResponse:
    messages.success(
        request, ngettext("%(n)s player entered.", "%(n)s players entered.", n) % {"n": n}
    )
    return redirect(reverse("league:entries", args=[event.slug]))


@require_http_methods(GET_OR_POST)
@organizer_view
def entries_import(request: HttpRequest, event: Event) -> HttpResponse:
    if request.method == "POST" and request.POST.get("step") == "confirm":
        return _confirmed(request, event)
    form = ImportForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data["data"]
        try:
            if data is not None:
                rows = entry_import.parse_csv_file(data)
            else:
                rows = entry_import.parse_text(form.cleaned_data["text"])
            matches = entry_import.find_matches(event, rows)
            if matches:
                return _confirm(request, event, rows, matches, [])
            entries = entry_import.import_entries(event, rows, by=request.user)
        except ImportProblems as exc:
            problems = exc.problems
        except LeagueError as exc:
            problems = [str(exc)]
        else:
            return _entered(request, event, len(entries))
    status = 400 if request.method == "POST" else 200
    context: dict[str, Any] = {"event": event, "form": form, "problems": problems}
    return render(request, "league/import.html", context, status=status)


def _confirmed(request: HttpRequest, event: Event) -> HttpResponse:
    """The confirmation step's POST: import with the organizer's choices, or ask again."""
    try:
        rows = rows_from_json(request.POST.get("rows", ""))
    except LeagueError as exc:
        context = {"event": event, "form": ImportForm(), "problems": [str(exc)]}
        return render(request, "league/import.html", context, status=400)
    rows = [row for row in rows if request.POST.get(f"choice_{row.line}") != "skip"]
    decided = _decided(request, rows)
    try:
        entries = entry_import.import_entries(event, decided, by=request.user)
    except DuplicateNames as exc:
        return _confirm(request, event, decided, exc.matches, [str(exc)])
    except ImportProblems as exc:
        return _confirm(request, event, rows, entry_import.find_matches(event, rows), exc.problems)
    except LeagueError as exc:
        return _confirm(request, event, rows, entry_import.find_matches(event, rows), [str(exc)])
    return _entered(request, event, len(entries))
